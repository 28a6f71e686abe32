// What follows a change to the ways a user proves who they are (a passkey removed, the second factor
// turned on or off, new recovery codes, the address changed, a password changed by the app): the
// user's other sessions end unless the user asked to keep them, and the user is told by email —
// the mail a thief holding a stolen session cannot stop the owner from getting.

import type { RequestBody } from '../request/body.js';
import { resolveConfig } from '../config/resolve-config.js';
import { createContext, type RequestContext } from '../request/context.js';
import { InvalidConfiguration } from '../errors.js';
import { revokeSessions } from '../session/revocation.js';
import { sendSecurityNotice } from './security-notice.js';

// the notice has its own module (flows send it too); kept importable from here
export { sendSecurityNotice } from './security-notice.js';
import type { AuthConfig, CredentialChange, JWT } from '../types.js';
import type { AccountSession } from './account-session.js';
import { endOtherSessions } from './other-sessions.js';
import { endEmailChangeLinks } from './email-change-links.js';

/**
 * Whether the form or JSON body asked to keep the other sessions (`keepOtherSessions`: `yes`,
 * `true` or `on`). Absent: they end. Pure.
 *
 * @example
 * keepsOtherSessions({ keepOtherSessions: 'yes' }); // true
 */
export function keepsOtherSessions(body: RequestBody): boolean {
	const value = body.keepOtherSessions;
	return value === true || (typeof value === 'string' && ['yes', 'true', 'on'].includes(value.toLowerCase()));
}

/**
 * After `change` from the account routes: ends the user's other sessions unless `keepOtherSessions`
 * (this browser's JWT session is re-issued as `token`, default the current one), ends every
 * email-change link asked for until now, and mails the
 * notice to `notify` (default the user's address; `newEmail` names an address change's new one).
 * The notice goes out even when ending the sessions fails (that error is then thrown); a mail that
 * fails is logged, never answered: the change itself stands.
 *
 * @example
 * await afterCredentialChange(ctx, session, 'passkey-removed', { keepOtherSessions: keepsOtherSessions(body) });
 */
export async function afterCredentialChange(
	ctx: RequestContext,
	session: AccountSession,
	change: CredentialChange,
	options: { keepOtherSessions: boolean; token?: JWT; notify?: string | null; newEmail?: string }
): Promise<void> {
	try {
		try {
			if (!options.keepOtherSessions) await endOtherSessions(ctx, session, options.token);
		} finally {
			// a change link asked for before this change (perhaps by whoever the change shuts out) ends
			await endEmailChangeLinks(ctx, session.user.id);
		}
	} finally {
		// told even when ending the sessions failed (the change itself is made): most of all then
		await sendSecurityNotice(ctx, options.notify === undefined ? session.user.email : options.notify, change, options.newEmail);
	}
}

/** Options of {@link credentialChanged}. */
export interface CredentialChangedOptions {
	/** What changed (default `password-changed`). */
	change?: CredentialChange;
	/**
	 * The app's request of the change (e.g. SvelteKit's `event.request`), or the site's URL: the
	 * notice links to the site from it (with `url`/AUTH_URL configured, always that).
	 */
	request: Request | string;
	/** End every session of the user, this one too (default true): the user signs in again with the new password. */
	endSessions?: boolean;
}

/**
 * Call after your app changes a user's password (or another credential kitgate does not manage):
 * every session of the user ends (database rows deleted, JWT sessions revoked, as `revokeSessions`),
 * every email-change link asked for until now ends, and the user is told by email, through the email provider's `sendAccountEmail`.
 *
 * @example
 * import { credentialChanged } from 'kitgate';
 * await setPassword(user.id, newPassword); // your app's own code
 * await credentialChanged(user.id, authConfig, { request: event.request });
 */
export async function credentialChanged(userId: string, config: AuthConfig, options: CredentialChangedOptions): Promise<void> {
	if (typeof userId !== 'string' || userId.length === 0) throw new InvalidConfiguration('credentialChanged needs the id of the user whose credential changed.');
	const resolved = resolveConfig(config);
	if (!resolved.adapter) throw new InvalidConfiguration('credentialChanged reads the user\'s address and needs an adapter.');
	const ctx = createContext(typeof options.request === 'string' ? new Request(options.request) : options.request, resolved);
	if (options.endSessions !== false) await revokeSessions(userId, config);
	await endEmailChangeLinks(ctx, userId);
	const user = await resolved.adapter.getUser(userId);
	await sendSecurityNotice(ctx, user?.email, options.change ?? 'password-changed');
}

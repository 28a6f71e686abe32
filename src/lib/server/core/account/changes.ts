// The changes a signed-in user makes to their own account: unlink an account, rename or remove a
// passkey, end one session or all the others, delete the account. Each checks that what it names
// belongs to the user (another user's id looks exactly like a missing one), fires its event, and
// never leaves the user without a way in.

import { stringField, type RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { AdapterError, InvalidRequest, LastSignInMethod } from '../errors.js';
import { emitEvent } from '../config/events.js';
import { endJwtSession, listJwtSessions, rowToken, sessionIdOf, sessionIdOfRow, signOutJwtSession } from '../session/jwt-session-list.js';
import { revokeUserSessions } from '../session/revocation.js';
import { clearSessionCookie } from '../session/session.js';
import { endBrowserTrust } from '../two-factor/trusted-browser.js';
import type { AdapterAccount, AdapterAuthenticator } from '../types.js';
import { publicSessionId, requireFreshSignIn, type AccountSession } from './account-session.js';
import { afterCredentialChange, keepsOtherSessions } from './credential-change.js';
import { oneAtATime } from '../util/one-at-a-time.js';
import { readHoldings } from './overview.js';
import { canRemove, type WayIn } from './ways-in.js';

/** Longest passkey name kept. */
export const MAX_PASSKEY_NAME_LENGTH = 64;

// ending the other sessions has its own module (credential changes end them too); kept importable from here
export { endOtherSessions } from './other-sessions.js';

/**
 * Unlinks one of the user's OAuth/OIDC accounts (`{ provider, providerAccountId }`). Needs a recent
 * sign-in; refused with `LastSignInMethod` when it is the user's last way in.
 *
 * @example
 * await unlinkAccount(ctx, session, { provider: 'github', providerAccountId: '42' });
 */
export async function unlinkAccount(ctx: RequestContext, session: AccountSession, body: RequestBody): Promise<void> {
	const provider = requiredField(body, 'provider', 200);
	const providerAccountId = requiredField(body, 'providerAccountId', 512);
	requireFreshSignIn(ctx, session, 'Unlinking an account');
	const adapter = ctx.config.adapter!;
	await oneAtATime(`ways-in\u0000${session.user.id}`, async () => {
		const holdings = await readHoldings(ctx, session);
		const account = holdings.accounts.find((a) => a.provider === provider && a.providerAccountId === providerAccountId);
		if (!account) throw new InvalidRequest('The user has no account with this provider and id.');
		if (account.type !== 'oauth' && account.type !== 'oidc') {
			throw new InvalidRequest(`A ${account.type} account is not unlinked here (passkeys are removed with remove-passkey).`);
		}
		const way: WayIn = { kind: 'account', provider, providerAccountId };
		if (!canRemove(holdings.ways, way)) throw new LastSignInMethod('This account is the user\'s last way to sign in.');
		await adapter.unlinkAccount({ provider, providerAccountId });
		await keepAWayIn(ctx, session, way, () => adapter.linkAccount(account));
		await emitEvent(ctx, 'unlinkAccount', { user: session.user, account });
	});
	await afterCredentialChange(ctx, session, 'account-unlinked', { keepOtherSessions: keepsOtherSessions(body) });
}

/**
 * Renames one of the user's passkeys (`{ credentialID, name }`; an empty name clears it).
 *
 * @example
 * await renamePasskey(ctx, session, { credentialID: '…', name: 'Work laptop' });
 */
export async function renamePasskey(ctx: RequestContext, session: AccountSession, body: RequestBody): Promise<void> {
	const credentialID = requiredField(body, 'credentialID', 1024);
	const raw = stringField(body, 'name');
	if (raw === undefined) throw new InvalidRequest('`name` is the new name of the passkey (empty to clear it).');
	const name = raw.normalize('NFC').replace(/\s+/g, ' ').trim();
	if ([...name].length > MAX_PASSKEY_NAME_LENGTH) throw new InvalidRequest(`A passkey name has at most ${MAX_PASSKEY_NAME_LENGTH} characters.`);
	if (/\p{Cc}/u.test(name)) throw new InvalidRequest('A passkey name cannot contain control characters.');
	const adapter = ctx.config.adapter!;
	await ownedPasskey(ctx, session, credentialID);
	const updated = await adapter.updateAuthenticator(credentialID, { name: name || null });
	if (!updated) throw new InvalidRequest('The user has no passkey with this credential ID.');
	await emitEvent(ctx, 'updateAuthenticator', { user: session.user, authenticator: updated });
}

/**
 * Removes one of the user's passkeys (`{ credentialID }`): its authenticator and its `webauthn`
 * account. Removing the last passkey needs a recent sign-in; removing the last way in is refused.
 *
 * @example
 * await removePasskey(ctx, session, { credentialID: '…' });
 */
export async function removePasskey(ctx: RequestContext, session: AccountSession, body: RequestBody): Promise<void> {
	const credentialID = requiredField(body, 'credentialID', 1024);
	const adapter = ctx.config.adapter!;
	await oneAtATime(`ways-in\u0000${session.user.id}`, async () => {
		const holdings = await readHoldings(ctx, session);
		const passkey = holdings.passkeys.find((p) => p.credentialID === credentialID);
		if (!passkey) throw new InvalidRequest('The user has no passkey with this credential ID.');
		// any passkey: what authentication relies on changes only after a full, recent sign-in (ASVS 7.5.1)
		requireFreshSignIn(ctx, session, 'Removing a passkey');
		const way: WayIn = { kind: 'passkey', credentialID };
		if (!canRemove(holdings.ways, way)) throw new LastSignInMethod('This passkey is the user\'s last way to sign in.');
		const account = holdings.accounts.find((a) => a.type === 'webauthn' && a.providerAccountId === passkey.providerAccountId);
		await adapter.deleteAuthenticator(credentialID);
		if (account) await unlinkQuietly(ctx, account);
		await keepAWayIn(ctx, session, way, () => restorePasskey(ctx, passkey, account));
		const unlinked: AdapterAccount = account ?? { provider: providerOfPasskeys(ctx), type: 'webauthn', providerAccountId: passkey.providerAccountId, userId: session.user.id };
		await emitEvent(ctx, 'unlinkAccount', { user: session.user, account: unlinked });
	});
	await afterCredentialChange(ctx, session, 'passkey-removed', { keepOtherSessions: keepsOtherSessions(body) });
}

/**
 * Ends one of the user's sessions (`{ sessionId }`, an id from the overview). Ending the current
 * one signs this browser out. JWT sessions are ended one by one when they are listed
 * (`account.listJwtSessions`): the session's id is revoked, so its cookie fails its next request.
 *
 * @example
 * const endedCurrent = await endSession(ctx, session, { sessionId: 'kY3…' });
 */
export async function endSession(ctx: RequestContext, session: AccountSession, body: RequestBody): Promise<{ current: boolean }> {
	const sessionId = requiredField(body, 'sessionId', 64);
	const { stored } = session;
	if (stored.strategy === 'jwt') return endJwtSessionById(ctx, session, sessionId);
	const adapter = ctx.config.adapter!;
	const rows = await adapter.listSessionsByUserId(session.user.id);
	const row = rows.find((candidate) => publicSessionId(ctx, candidate.sessionToken) === sessionId);
	if (!row) throw new InvalidRequest('The user has no session with this id.');
	// ending another session is seeing and ending sessions after authenticating again (ASVS 7.5.2); this one's is a sign-out
	if (row.sessionToken !== stored.sessionToken) requireFreshSignIn(ctx, session, 'Ending another session');
	const deleted = await adapter.deleteSessionOfUser(session.user.id, row.sessionToken);
	if (!deleted) throw new InvalidRequest('The user has no session with this id.');
	const current = row.sessionToken === stored.sessionToken;
	// the ended device may have been trusted to skip the second step: no browser of the user is any more
	if (!current) await endBrowserTrust(ctx, session.user.id);
	if (current) clearSessionCookie(ctx);
	await emitEvent(ctx, 'signOut', { session: deleted });
	return { current };
}

/** `endSession` of a JWT session: the current one (`current`, or its listed id), or another listed one. */
async function endJwtSessionById(ctx: RequestContext, session: AccountSession, sessionId: string): Promise<{ current: boolean }> {
	if (session.stored.strategy !== 'jwt') throw new InvalidRequest('Not a JWT session.');
	const { token } = session.stored;
	const ownId = sessionIdOf(token);
	const own = ownId === undefined ? undefined : rowToken(ownId);
	if (sessionId === 'current' || (own !== undefined && publicSessionId(ctx, own) === sessionId)) {
		// ending this browser's own session is a sign-out (a best-effort revocation, as /signout)
		await signOutJwtSession(ctx, token);
		clearSessionCookie(ctx);
		await emitEvent(ctx, 'signOut', { token });
		return { current: true };
	}
	requireFreshSignIn(ctx, session, 'Ending another session');
	const row = (await listJwtSessions(ctx, session.user.id)).find((candidate) => publicSessionId(ctx, candidate.sessionToken) === sessionId);
	const id = row && sessionIdOfRow(row.sessionToken);
	// another user's session looks exactly like a missing one
	if (!row || !id) throw new InvalidRequest('The user has no session with this id.');
	await endJwtSession(ctx, id, session.user.id);
	await endBrowserTrust(ctx, session.user.id);
	await emitEvent(ctx, 'signOut', { token: null, userId: session.user.id, sessionId });
	return { current: false };
}

/**
 * Deletes the user and every row of it (accounts, sessions, passkeys), ends this session (its
 * cookie cleared) and, under JWT sessions, every other one (revoked before the delete, as
 * `deleteUser()` does). Needs a recent sign-in. Fires `deleteUser`, then `signOut`.
 *
 * @example
 * await deleteAccount(ctx, session);
 */
export async function deleteAccount(ctx: RequestContext, session: AccountSession): Promise<void> {
	requireFreshSignIn(ctx, session, 'Deleting the account');
	const { stored, user } = session;
	const adapter = ctx.config.adapter!;
	// recorded before the user goes, so a store that refuses it stops the deletion: JWT sessions, and
	// copies of database sessions (session.cache), end through it
	if (stored.strategy === 'jwt' || ctx.config.sessionCache) {
		await revokeUserSessions(ctx, user.id);
	}
	const deleted = await adapter.deleteUser(user.id);
	if (stored.strategy === 'database') {
		// the user's rows went with it; a store without cascades loses this row here
		await Promise.resolve(adapter.deleteSession(stored.sessionToken)).catch(() => undefined);
	}
	clearSessionCookie(ctx);
	await emitEvent(ctx, 'deleteUser', { user: deleted || user });
	await emitEvent(ctx, 'signOut', stored.strategy === 'jwt' ? { token: stored.token } : { session: { sessionToken: stored.sessionToken, userId: user.id, expires: new Date(stored.expires) } });
}

/** Throws `InvalidRequest` unless the user has the passkey `credentialID`. */
async function ownedPasskey(ctx: RequestContext, session: AccountSession, credentialID: string): Promise<AdapterAuthenticator> {
	const passkey = await ctx.config.adapter!.getAuthenticator(credentialID);
	// another user's passkey looks exactly like a missing one
	if (!passkey || passkey.userId !== session.user.id) throw new InvalidRequest('The user has no passkey with this credential ID.');
	return passkey;
}

/**
 * After a way in was removed: when none is left (a concurrent removal on another server took the
 * other one), put it back and refuse. Each removal checks after its own write, so the last one
 * always sees what is left.
 */
async function keepAWayIn(ctx: RequestContext, session: AccountSession, removed: WayIn, restore: () => Promise<unknown> | unknown): Promise<void> {
	const after = await readHoldings(ctx, session);
	if (after.ways.length > 0) return;
	try {
		await restore();
	} catch (error) {
		ctx.config.logger.error(new AdapterError(`Could not restore the last way in of user ${session.user.id}.`, { cause: { err: error } }));
	}
	throw new LastSignInMethod(`Removing this ${removed.kind} would have left the user no way to sign in (a concurrent removal took the other one).`);
}

async function restorePasskey(ctx: RequestContext, passkey: AdapterAuthenticator, account: AdapterAccount | undefined): Promise<void> {
	const adapter = ctx.config.adapter!;
	if (account) await adapter.linkAccount(account);
	await adapter.createAuthenticator(passkey);
}

async function unlinkQuietly(ctx: RequestContext, account: AdapterAccount): Promise<void> {
	try {
		await ctx.config.adapter!.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId });
	} catch (error) {
		// the passkey can no longer sign in; a leftover account row is only logged
		ctx.config.logger.error(new AdapterError('Could not unlink the account of a removed passkey.', { cause: { err: error } }));
	}
}

function providerOfPasskeys(ctx: RequestContext): string {
	return ctx.config.providers.find((provider) => provider.type === 'webauthn')?.id ?? 'passkey';
}

/** A string field the body must carry, trimmed of nothing, at most `max` characters. */
export function requiredField(body: RequestBody, name: string, max: number): string {
	const value = stringField(body, name);
	if (!value || value.length > max) throw new InvalidRequest(`\`${name}\` is required (at most ${max} characters).`);
	return value;
}

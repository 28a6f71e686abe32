// Ending every session of a user but the one in this browser: asked for from the account page, and
// what a credential change does by default (credential-change.ts).

import type { RequestContext } from '../request/context.js';
import { emitEvent } from '../config/events.js';
import { forgetOtherJwtSessions, sessionIdOf } from '../session/jwt-session-list.js';
import { revokeUserSessions, userRevocationTime } from '../session/revocation.js';
import { reissueJwtSession } from '../session/session.js';
import type { AdapterSession, JWT } from '../types.js';
import type { AccountSession } from './account-session.js';

/**
 * Ends every session of the user but this one. Database: each other row is deleted (`signOut` for
 * each). JWT: every session of the user issued before now is revoked through the revocation store,
 * and this browser's session is issued again just after (`signOut` with `revokedBefore`), as
 * `token` when given (a change that also changed the token's claims, such as the address).
 *
 * @example
 * await endOtherSessions(ctx, session);
 */
export async function endOtherSessions(ctx: RequestContext, session: AccountSession, token?: JWT): Promise<void> {
	const { stored, user } = session;
	if (stored.strategy === 'jwt') {
		const at = await revokeUserSessions(ctx, user.id);
		// issued at the revocation instant itself: not before it, so this browser's session goes on
		await reissueJwtSession(ctx, token ?? stored.token, at);
		await forgetOtherJwtSessions(ctx, user.id, sessionIdOf(stored.token));
		await emitEvent(ctx, 'signOut', { token: null, userId: user.id, revokedBefore: new Date(at) });
		return;
	}
	const adapter = ctx.config.adapter!;
	// asked of the store first: one that cannot answer stops this before a row is deleted
	const at = await userRevocationTime(ctx, user.id);
	const rows: AdapterSession[] = await adapter.listSessionsByUserId(user.id);
	for (const row of rows) {
		if (row.sessionToken === stored.sessionToken) continue;
		const deleted = await adapter.deleteSessionOfUser(user.id, row.sessionToken);
		if (deleted) await emitEvent(ctx, 'signOut', { session: deleted });
	}
	// recorded for database sessions too, after the rows are gone (a store that refuses cannot keep
	// a thief's row): a browser trusted to skip the second step before now no longer is (two-factor/trusted-browser.ts)
	await revokeUserSessions(ctx, user.id, at);
}

// Ending every session of a user but the one in this browser: asked for from the account page, and
// what a credential change does by default (credential-change.ts).

import type { RequestContext } from '../context.js';
import { emitEvent } from '../events.js';
import { forgetOtherJwtSessions, sessionIdOf } from '../jwt-sessions.js';
import { revocationTime } from '../revocation.js';
import { reissueJwtSession } from '../session.js';
import type { AdapterSession, JWT } from '../types.js';
import type { AccountSession } from './account-session.js';

/** Seconds a JWT revocation is kept beyond the JWT lifetime (as `revokeSessions`). */
export const KEEP_MARGIN_SECONDS = 60;

// when a revocation takes effect (the next whole second); kept importable from here
export { revocationTime } from '../revocation.js';

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
		const { store } = ctx.config.revocation;
		const at = revocationTime(ctx.now);
		await store.revoke(user.id, at, ctx.config.jwt.maxAge + KEEP_MARGIN_SECONDS);
		// issued at the revocation instant itself: not before it, so this browser's session goes on
		await reissueJwtSession(ctx, token ?? stored.token, at);
		await forgetOtherJwtSessions(ctx, user.id, sessionIdOf(stored.token));
		await emitEvent(ctx, 'signOut', { token: null, userId: user.id, revokedBefore: new Date(at) });
		return;
	}
	const adapter = ctx.config.adapter!;
	const rows: AdapterSession[] = await adapter.listSessionsByUserId(user.id);
	for (const row of rows) {
		if (row.sessionToken === stored.sessionToken) continue;
		const deleted = await adapter.deleteSessionOfUser(user.id, row.sessionToken);
		if (deleted) await emitEvent(ctx, 'signOut', { session: deleted });
	}
	// recorded for database sessions too, after the rows are gone (a store that refuses cannot keep
	// a thief's row): a browser trusted to skip the second step before now no longer is (two-factor/trusted-browser.ts)
	await ctx.config.revocation.store.revoke(user.id, revocationTime(ctx.now), ctx.config.jwt.maxAge + KEEP_MARGIN_SECONDS);
}

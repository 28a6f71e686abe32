// Switching the session's active organization (docs/organizations.md, "Active organization"): the id
// is written where the session lives (a JWT claim, or the database session's row). How every read
// shows it, membership checked: session/session-organization.ts.

import type { RequestContext } from '../request/context.js';
import { SessionRequired } from '../errors.js';
import { revocationState } from '../session/revocation.js';
import { touchJwtSession } from '../session/jwt-session-list.js';
import { clearSessionCookie, readStoredSession, reissueJwtSession } from '../session/session.js';
import { dropSessionCacheCookie } from '../session/session-cache.js';
import { ACTIVE_ORGANIZATION_CLAIM } from '../session/session-organization.js';
import type { JWT } from '../types.js';

export { ACTIVE_ORGANIZATION_CLAIM, activeOrganizationIdOf, sessionOrganizationOf } from '../session/session-organization.js';

/**
 * Makes `organizationId` the active organization of the request's session (null: none), written
 * where the session lives: the database session's row (its copies dropped), or a re-issued JWT
 * cookie (issued now, expiring `session.maxAge` later, as every re-issue). The caller has checked
 * that the user is a member; reads check it again anyway. `SessionRequired` without a session.
 *
 * @example
 * await setSessionOrganization(ctx, organization.id); // after creating it
 * await setSessionOrganization(ctx, null);           // none
 */
export async function setSessionOrganization(ctx: RequestContext, organizationId: string | null): Promise<void> {
	const stored = await readStoredSession(ctx);
	if (!stored) throw new SessionRequired('Switching the active organization needs a signed-in user.');
	if (stored.strategy === 'database') {
		await ctx.config.adapter!.updateSession({ sessionToken: stored.sessionToken, activeOrganizationId: organizationId });
		// this browser's copy of the session holds the old id (copies elsewhere: the adapter guard drops them)
		dropSessionCacheCookie(ctx);
		return;
	}
	// a store that cannot answer is no proof the session still stands: nothing is re-issued
	if ((await revocationState(ctx, stored.token)) !== 'valid') {
		clearSessionCookie(ctx);
		throw new SessionRequired('The session was ended; sign in again.');
	}
	const token: JWT = { ...stored.token };
	if (organizationId === null) delete token[ACTIVE_ORGANIZATION_CLAIM];
	else token[ACTIVE_ORGANIZATION_CLAIM] = organizationId;
	// the read above may have re-issued the cookie already: this one takes its place
	dropQueuedSessionCookies(ctx);
	await reissueJwtSession(ctx, token);
	await touchJwtSession(ctx, token, ctx.now + ctx.config.jwt.maxAge * 1000);
}

/** Removes the session cookie (and its chunks) already queued on this response. */
function dropQueuedSessionCookies(ctx: RequestContext): void {
	const name = ctx.cookieNames.sessionToken.name;
	for (let index = ctx.setCookies.length - 1; index >= 0; index--) {
		const cookie = ctx.setCookies[index];
		if (cookie.name === name || cookie.name.startsWith(`${name}.`)) ctx.setCookies.splice(index, 1);
	}
}

// What an impersonated session may not do: change credentials, the account or its ways in, or
// reach the admin routes (docs/admin.md, "Impersonation"). One cheap test of the request's
// session cookie, and the refusal every such route calls.

import { ImpersonationForbidden } from '../errors.js';
import type { RequestContext } from '../request/context.js';
import { decodeSessionCookie, readStoredSession, sessionCookieValue } from '../session/session.js';
import { impersonationOfToken, isImpersonationToken } from './impersonation-session.js';

/**
 * True when the request's session cookie is an impersonation's (still valid or not): a database
 * session token starting `imp.`, or a JWT session carrying the mark.
 *
 * @example
 * if (await isImpersonatedRequest(ctx)) return stopImpersonation(ctx, body);
 */
export async function isImpersonatedRequest(ctx: RequestContext): Promise<boolean> {
	const raw = sessionCookieValue(ctx);
	if (!raw) return false;
	if (ctx.config.session.strategy === 'database') return isImpersonationToken(raw);
	const token = await decodeSessionCookie(ctx);
	return token !== null && impersonationOfToken(token) !== null;
}

/**
 * Throws `ImpersonationForbidden` (403) when the request's session is an impersonation's.
 *
 * @example
 * await refuseWhileImpersonating(ctx, 'account changes');
 */
export async function refuseWhileImpersonating(ctx: RequestContext, what: string): Promise<void> {
	if (!(await isImpersonatedRequest(ctx))) return;
	// a valid impersonation's page of refusal shows its banner (the read sets ctx.impersonation)
	await readStoredSession(ctx).catch(() => null);
	throw new ImpersonationForbidden(`An impersonated session may not use ${what}; stop impersonating first.`);
}

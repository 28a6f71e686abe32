// Starting and stopping an impersonation (docs/admin.md, "Impersonation"): the admin's session
// cookie is kept aside in `{prefix}kitgate.admin-session`, the session cookie becomes a marked
// session of the user for at most `admin.impersonationMaxAge` and never beyond the admin's own;
// stopping ends it and gives the admin their session back. Called by the admin routes.

import { AccessDenied, ImpersonationForbidden, SessionRequired, UserBanned } from '../errors.js';
import type { RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { assertCsrf } from '../request/request-checks.js';
import { requestedCallbackUrl, resolveCallbackUrl } from '../response/callback-url.js';
import type { Outcome } from '../response/outcome.js';
import { signOutJwtSession } from '../session/jwt-session-list.js';
import { clearSessionCookie, decodeSessionCookie, endImpersonation, readStoredSession, restoreSessionCookie, sessionCookieValue, startImpersonatedSession } from '../session/session.js';
import { isUserBanned } from '../session/ban.js';
import type { AdapterUser } from '../types.js';
import { clearAdminSessionCookie, readAdminSessionCookie, writeAdminSessionCookie } from './impersonation-cookie.js';
import { recordImpersonationAudit } from './impersonation-audit.js';
import { impersonationOfSessionToken, impersonationOfToken, keptAdminSession, type ImpersonationMark } from './impersonation-session.js';

/** Seconds an impersonation lasts when `admin.impersonationMaxAge` is not set. */
const DEFAULT_IMPERSONATION_MAX_AGE = 3600;

/**
 * Starts impersonating `target` as `admin` (whose session the request carries; the admin routes
 * have checked both and written the audit row): keeps the admin's session cookie aside, writes a
 * marked session of `target`, and answers a redirect to `callbackUrl` (default: the site's root).
 *
 * @example
 * return startImpersonation(ctx, admin, target);
 */
export async function startImpersonation(ctx: RequestContext, admin: AdapterUser, target: AdapterUser, callbackUrl?: string): Promise<Outcome> {
	const stored = await readStoredSession(ctx);
	if (!stored) throw new SessionRequired('Impersonating needs the admin’s session.');
	if (stored.impersonation) throw new ImpersonationForbidden('An impersonated session cannot start another impersonation.');
	const adminId = stored.strategy === 'jwt' ? stored.token.sub : stored.user.id;
	if (adminId !== admin.id) throw new AccessDenied('The request’s session is not the admin’s.');
	// the session cookie as it stands after the read (a read may have re-issued it)
	const kept = reissuedSessionValue(ctx) ?? sessionCookieValue(ctx);
	if (!kept) throw new SessionRequired('Impersonating needs the admin’s session.');
	const maxAge = ctx.config.admin?.impersonationMaxAge ?? DEFAULT_IMPERSONATION_MAX_AGE;
	const expires = Math.min(ctx.now + maxAge * 1000, stored.expires);
	writeAdminSessionCookie(ctx, kept, stored.expires);
	const started = await startImpersonatedSession(ctx, target, admin, expires);
	if (!started) throw new AccessDenied('The jwt callback returned null: no impersonation was started.');
	// a ban that landed after the target was checked (and ended the sessions there were then) ends this one
	if (await isUserBanned(ctx, target.id)) {
		await endImpersonation(ctx, started);
		restoreSessionCookie(ctx, kept, stored.expires);
		throw new UserBanned(`User ${target.id} was banned while the impersonation started; it was ended.`);
	}
	return { type: 'redirect', url: callbackUrl ?? `${ctx.baseUrl}/` };
}

/**
 * `POST {basePath}/admin/stop-impersonating` with `csrfToken` (and `callbackUrl`): ends the
 * impersonation (its database session deleted, its JWT session id revoked), writes the admin's
 * kept session back when it is still valid (else signs out), audits `stop-impersonating`, and
 * redirects to `callbackUrl` (default: the user's page in the admin). Also what signing out of an
 * impersonated session does. Without an impersonation, it only removes a stray admin-session cookie.
 *
 * @example
 * // POST /auth/admin/stop-impersonating  csrfToken=… → 303 /auth/admin/user?id=… (the admin's session back)
 */
export async function stopImpersonation(ctx: RequestContext, body: RequestBody): Promise<Outcome> {
	assertCsrf(ctx, body);
	const requested = requestedCallbackUrl(ctx, body);
	const current = await currentImpersonation(ctx);
	if (!current) {
		if (readAdminSessionCookie(ctx) !== undefined) clearAdminSessionCookie(ctx);
		return { type: 'redirect', url: await resolveCallbackUrl(ctx, requested) };
	}
	const kept = readAdminSessionCookie(ctx);
	const admin = await keptAdminSession(ctx);
	if (current.token) await signOutJwtSession(ctx, current.token);
	else await Promise.resolve(ctx.config.adapter!.deleteSession(current.sessionToken!)).catch(() => undefined);
	clearAdminSessionCookie(ctx);
	if (kept && admin && admin.user.id === current.mark.adminId) restoreSessionCookie(ctx, kept, admin.expires);
	else clearSessionCookie(ctx);
	await recordImpersonationAudit(ctx, { actorId: current.mark.adminId, subjectId: current.subjectId, action: 'stop-impersonating', detail: null });
	const fallback = current.subjectId ? `${ctx.authUrl}/admin/user?id=${encodeURIComponent(current.subjectId)}` : undefined;
	return { type: 'redirect', url: await resolveCallbackUrl(ctx, requested ?? fallback) };
}

/** The request's impersonated session as it is (valid or not): its mark, user and token. */
async function currentImpersonation(
	ctx: RequestContext
): Promise<{ mark: ImpersonationMark; subjectId: string | null; token?: Awaited<ReturnType<typeof decodeSessionCookie>>; sessionToken?: string } | null> {
	const raw = sessionCookieValue(ctx);
	if (!raw) return null;
	if (ctx.config.session.strategy === 'jwt') {
		const token = await decodeSessionCookie(ctx);
		const mark = token && impersonationOfToken(token);
		return token && mark ? { mark, subjectId: typeof token.sub === 'string' ? token.sub : null, token } : null;
	}
	const mark = impersonationOfSessionToken(raw);
	if (!mark) return null;
	const found = await ctx.config.adapter!.getSessionAndUser(raw);
	return { mark, subjectId: found?.user.id ?? null, sessionToken: raw };
}

/** The session cookie value a read has just queued (a re-issue), when it fits one cookie. */
function reissuedSessionValue(ctx: RequestContext): string | undefined {
	const name = ctx.cookieNames.sessionToken.name;
	const written = ctx.setCookies.filter((cookie) => cookie.name === name && cookie.value !== '');
	return written.at(-1)?.value;
}

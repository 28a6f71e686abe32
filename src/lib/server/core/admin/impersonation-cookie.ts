// The cookie that keeps the admin's own session aside while they impersonate a user:
// `{prefix}kitgate.admin-session`, httpOnly, with the session cookie's attributes.

import type { RequestContext } from '../request/context.js';
import { clearChunkedCookie, readChunkedCookie, writeChunkedCookie } from '../request/cookies.js';
import type { CookieOption } from '../types.js';

/**
 * The admin-session cookie's name and attributes: the session cookie's attributes, under
 * `__Secure-kitgate.admin-session` over HTTPS (`kitgate.admin-session` over HTTP).
 *
 * @example
 * adminSessionCookie(ctx).name; // '__Secure-kitgate.admin-session'
 */
export function adminSessionCookie(ctx: RequestContext): CookieOption {
	const session = ctx.cookieNames.sessionToken;
	return { name: `${ctx.secure ? '__Secure-' : ''}kitgate.admin-session`, options: { ...session.options, httpOnly: true } };
}

/** The kept admin session cookie's value, or undefined. */
export function readAdminSessionCookie(ctx: RequestContext): string | undefined {
	return readChunkedCookie(ctx.cookies, adminSessionCookie(ctx).name);
}

/** True when the request carries an admin-session cookie (the cheap sign of an impersonation). */
export function hasAdminSessionCookie(ctx: Pick<RequestContext, 'cookies' | 'secure'>): boolean {
	const name = `${ctx.secure ? '__Secure-' : ''}kitgate.admin-session`;
	return Object.keys(ctx.cookies).some((cookie) => cookie === name || cookie.startsWith(`${name}.`));
}

/** Keeps the admin's session cookie value aside until `expires` (ms). */
export function writeAdminSessionCookie(ctx: RequestContext, value: string, expires: number): void {
	const option = adminSessionCookie(ctx);
	ctx.setCookies.push(...writeChunkedCookie(ctx.cookies, { name: option.name, options: { ...option.options, expires: new Date(expires) } }, value));
}

/** Queues the removal of the admin-session cookie. */
export function clearAdminSessionCookie(ctx: RequestContext): void {
	ctx.setCookies.push(...clearChunkedCookie(ctx.cookies, adminSessionCookie(ctx)));
}

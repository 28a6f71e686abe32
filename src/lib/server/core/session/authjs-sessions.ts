// Auth.js v5 session cookies, read for apps that move from Auth.js (`migrateSessionsFrom: "authjs"`):
// which cookie holds the session, how to decrypt it, and the cookies that remove it once kitgate's replaces it.

import type { RequestContext } from '../request/context.js';
import { authjsSessionCookieName, chunkNames, expiredCookie, readChunkedCookie } from '../request/cookies.js';
import { decodeJwt, decodeJwtAtOnce, keyFamily } from '../crypto/jwt.js';
import type { JWT } from '../types.js';

/** Auth.js's session keys: HKDF-SHA256(secret, salt = cookie name, info = `Auth.js Generated Encryption Key (<salt>)`). */
const authjsKeys = keyFamily('Auth.js Generated Encryption Key');


/**
 * True when the request carries kitgate's session cookie in any form (whole, chunked, or a broken
 * set of chunks): then kitgate's cookie is the session, and an Auth.js one beside it is ignored.
 */
function hasKitgateSessionCookie(ctx: RequestContext): boolean {
	return chunkNames(ctx.cookies, ctx.cookieNames.sessionToken.name).length > 0;
}

/**
 * The Auth.js session cookie's value when the request's session is to be read from it: the chunks
 * joined, or `""` for a broken set of chunks (a bad cookie, to clear). Undefined when the request
 * has none, or when it has a kitgate session cookie too: kitgate's wins, so an old Auth.js cookie
 * tossed into the browser never outranks a newer kitgate session.
 *
 * @example
 * authjsSessionCookieValue(ctx); // "eyJhbGciOiJkaXIi…" for `authjs.session-token=eyJhbGciOiJkaXIi…`
 */
export function authjsSessionCookieValue(ctx: RequestContext): string | undefined {
	const name = authjsSessionCookieName(ctx.secure);
	// the cookie-name check is all a request without an Auth.js cookie costs
	if (chunkNames(ctx.cookies, name).length === 0 || hasKitgateSessionCookie(ctx)) return undefined;
	return readChunkedCookie(ctx.cookies, name) ?? '';
}

/**
 * Queues the removal of every chunk of the Auth.js session cookie the request carries (nothing when
 * it carries none, nothing twice). The attributes are those of kitgate's session cookie: an app that
 * gave Auth.js's cookie a `domain` or `path` gives kitgate's the same (docs/decisions.md).
 *
 * @example
 * clearAuthjsSessionCookie(ctx); // ctx.setCookies gains `authjs.session-token=; Max-Age=0`
 */
export function clearAuthjsSessionCookie(ctx: RequestContext): void {
	const names = chunkNames(ctx.cookies, authjsSessionCookieName(ctx.secure));
	if (names.length === 0) return;
	const { options } = ctx.cookieNames.sessionToken;
	const queued = new Set(ctx.setCookies.map((cookie) => cookie.name));
	for (const name of names) if (!queued.has(name)) ctx.setCookies.push(expiredCookie(name, options));
}

/**
 * Decrypts an Auth.js JWT session cookie value: Auth.js's JWE (`dir` + `A256CBC-HS512`) under its
 * own key derivation, salted with the cookie's name, with any secret of the rotation; else, when
 * the app has its own `jwt.decode` (carried over from its Auth.js config), with that. Null for a
 * tampered, expired or foreign token; never throws.
 *
 * @example
 * const token = await decodeAuthjsSessionToken(ctx, authjsSessionCookieValue(ctx));
 */
export async function decodeAuthjsSessionToken(ctx: RequestContext, value: string | undefined): Promise<JWT | null> {
	const { jwt, secrets } = ctx.config;
	const params = { token: value, secret: secrets, salt: authjsSessionCookieName(ctx.secure), now: ctx.now };
	const token = await decodeJwtAtOnce(params, authjsKeys);
	if (token || jwt.decode === decodeJwt) return token;
	try {
		return await jwt.decode(params);
	} catch (error) {
		ctx.config.logger.debug('jwt-decode', 'custom jwt.decode threw on an Auth.js session cookie', error);
		return null;
	}
}

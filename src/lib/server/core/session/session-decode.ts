// Decoding a kitgate JWT session cookie value with the app's \`jwt.decode\` (kitgate's own answers at
// once, with no promise on every read). Apart from session.ts so that what checks a session other
// than the request's (the admin's kept one during an impersonation) needs no session reads.

import { decodeJwt, decodeJwtAtOnce } from '../crypto/jwt.js';
import type { RequestContext } from '../request/context.js';
import type { JWT, JWTDecodeParams } from '../types.js';

/**
 * Decodes a kitgate JWT session cookie value, or null when it is invalid or expired. Synchronous
 * with kitgate's own decoder.
 *
 * @example
 * const token = await decodeKitgateSessionToken(ctx, kept);
 */
export function decodeKitgateSessionToken(ctx: RequestContext, raw: string): JWT | null | Promise<JWT | null> {
	const params = { token: raw, secret: ctx.config.secrets, salt: ctx.cookieNames.sessionToken.name, now: ctx.now };
	if (ctx.config.jwt.decode === decodeJwt) return decodeJwtAtOnce(params);
	return decodeWithAppDecoder(ctx, params);
}

async function decodeWithAppDecoder(ctx: RequestContext, params: JWTDecodeParams): Promise<JWT | null> {
	try {
		return await ctx.config.jwt.decode(params);
	} catch (error) {
		ctx.config.logger.debug('jwt-decode', 'custom jwt.decode threw', error);
		return null;
	}
}

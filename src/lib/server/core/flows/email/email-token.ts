// The one-time tokens of email sign-in: how they are made, and the keyed hash under which they are
// stored (the adapter never sees a token that works in a link).

import { hex } from '../../crypto/bytes.js';
import { hmac } from '../../crypto/hash.js';
import { randomToken } from '../../crypto/random.js';

/**
 * Longest token a link may carry; longer values are refused before any adapter call.
 *
 * @example
 * if (token.length > MAX_TOKEN_LENGTH) throw new Verification('malformed link');
 */
export const MAX_TOKEN_LENGTH = 512;

/**
 * The default `generateVerificationToken`: 32 random bytes as 64 hex characters.
 *
 * @example
 * randomVerificationToken(); // 'b1946ac92492d2347c6235b4d2611184…'
 */
export function randomVerificationToken(): string {
	return randomToken(32, 'hex');
}

/**
 * What a one-time token is for. Bound into its stored hash, so a token of one kind matches no
 * stored token of another, whatever identifier it is presented with.
 */
export type TokenPurpose = 'sign-in' | 'email-change';

/**
 * The value stored for `token`: HMAC-SHA256 keyed with `secret` over the purpose, the values the
 * token is bound to (`binding`, e.g. the user and the address it may change) and the token, as an
 * unambiguous JSON array, hex. A copy of the database therefore holds no usable link, tokens cannot
 * be forged without the secret, and a token of one purpose or binding matches nothing else.
 *
 * @example
 * await adapter.createVerificationToken({ identifier, token: hashVerificationToken(token, secrets[0], 'sign-in'), expires });
 */
export function hashVerificationToken(token: string, secret: string, purpose: TokenPurpose, binding: readonly string[] = []): string {
	return hex(hmac('sha256', secret, JSON.stringify(['kitgate one-time token', purpose, ...binding, token])));
}

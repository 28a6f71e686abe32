// The one-time tokens of email sign-in: how they are made, and the keyed hash under which they are
// stored (the adapter never sees a token that works in a link).

import { createHmac, randomBytes } from 'node:crypto';

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
	return randomBytes(32).toString('hex');
}

/**
 * The value stored for `token`: HMAC-SHA256 keyed with `secret`, hex. A copy of the database
 * therefore holds no usable link, and tokens cannot be forged without the secret.
 *
 * @example
 * await adapter.createVerificationToken({ identifier, token: hashVerificationToken(token, secrets[0]), expires });
 */
export function hashVerificationToken(token: string, secret: string): string {
	return createHmac('sha256', secret).update(token).digest('hex');
}

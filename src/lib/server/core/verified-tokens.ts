// A bounded memo of session tokens already decrypted and authenticated: the same cookie arrives on
// every request of a signed-in browser, and its AES-CBC + HMAC-SHA512 work is the session check's
// largest cost. A token is found again only by its whole text and only under the very key that
// authenticated it, so a hit answers exactly what decrypting again would (claims such as `exp` are
// still checked on every read, by the caller). Failures are never kept.

/** How many tokens are kept; past that the oldest is dropped. */
export const MAX_VERIFIED_TOKENS = 1000;

interface Verified {
	/** The key that authenticated the token (compared by identity: keys are derived once and cached). */
	key: Uint8Array;
	/** The decrypted payload as JSON, parsed anew on each hit so no caller shares an object. */
	json: string;
}

const verified = new Map<string, Verified>();

/**
 * The payload of `token` when it was authenticated before under one of `keys`, as a new object;
 * undefined when it was not (decrypt it then, and `rememberVerifiedToken` the result).
 *
 * @example
 * const payload = verifiedTokenPayload(token, keys) ?? decryptAndRemember(token, keys);
 */
export function verifiedTokenPayload(token: string, keys: readonly Uint8Array[]): Record<string, unknown> | undefined {
	const hit = verified.get(token);
	if (!hit || !keys.includes(hit.key)) return undefined;
	return JSON.parse(hit.json) as Record<string, unknown>;
}

/**
 * Keeps `payload` as what `token` decrypts to under `key` (only after the token was authenticated
 * under that key). The memo holds at most `MAX_VERIFIED_TOKENS` tokens, dropping the oldest first.
 *
 * @example
 * const payload = decryptJweSync(token, key);
 * if (payload) rememberVerifiedToken(token, key, payload);
 */
export function rememberVerifiedToken(token: string, key: Uint8Array, payload: Record<string, unknown>): void {
	if (verified.size >= MAX_VERIFIED_TOKENS) verified.delete(verified.keys().next().value as string);
	verified.set(token, { key, json: JSON.stringify(payload) });
}

// A bounded memo of session tokens already decrypted and authenticated: the same cookie arrives on
// every request of a signed-in browser, and its AES-CBC + HMAC-SHA512 work is the session check's
// largest cost. A token is found again only by its whole text and only under the very key that
// authenticated it, so a hit answers exactly what decrypting again would (claims such as `exp` are
// still checked on every read, by the caller). Failures are never kept.

/** How many tokens are kept; past that the oldest is dropped. */
export const MAX_VERIFIED_TOKENS = 1000;

interface Verified {
	/** The whole token: a hit must be this very text. */
	token: string;
	/** The key that authenticated the token (compared by identity: keys are derived once and cached). */
	key: Uint8Array;
	/** The decrypted payload, kept private: each hit gets a deep copy so no caller shares an object. */
	payload: Record<string, unknown>;
}

/**
 * By the token's last segment (its authentication tag, a MAC over all the rest): hashing a key of
 * 43 characters instead of the whole token on every read; the whole text is still compared.
 */
const verified = new Map<string, Verified>();

function memoKey(token: string): string {
	return token.slice(token.lastIndexOf('.') + 1);
}

/**
 * The payload of `token` when it was authenticated before under one of `keys`, as a new object;
 * undefined when it was not (decrypt it then, and `rememberVerifiedToken` the result).
 *
 * @example
 * const payload = verifiedTokenPayload(token, keys) ?? decryptAndRemember(token, keys);
 */
export function verifiedTokenPayload(token: string, keys: readonly Uint8Array[]): Record<string, unknown> | undefined {
	const hit = verified.get(memoKey(token));
	if (!hit || hit.token !== token || !keys.includes(hit.key)) return undefined;
	return copyJson(hit.payload) as Record<string, unknown>;
}

/**
 * A deep copy of JSON data (what a token's payload parses to), as `JSON.parse(JSON.stringify(value))`
 * would give but without the text: a fifth of the cost on every session read.
 */
function copyJson(value: unknown): unknown {
	if (typeof value !== 'object' || value === null) return value;
	if (Array.isArray(value)) {
		// a loop, not `map`: one stack frame per level, so it copies any nesting JSON.stringify wrote
		// and pushed, not preallocated: a holey array would take JSON.stringify's deeper, slower path
		const items: unknown[] = [];
		for (const item of value) items.push(copyJson(item));
		return items;
	}
	const copy: Record<string, unknown> = {};
	for (const key of Object.keys(value)) {
		const item = copyJson((value as Record<string, unknown>)[key]);
		// a claim named `__proto__` stays an own property, as JSON.parse makes it, never the prototype
		if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
		else copy[key] = item;
	}
	return copy;
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
	const memo = memoKey(token);
	// a token with the tag of another (only a forgery could have one) replaces nothing it does not match
	if (verified.has(memo)) verified.delete(memo);
	else if (verified.size >= MAX_VERIFIED_TOKENS) verified.delete(verified.keys().next().value as string);
	// a copy made now: the caller goes on with `payload` and may change it
	verified.set(memo, { token, key, payload: copyJson(payload) as Record<string, unknown> });
}

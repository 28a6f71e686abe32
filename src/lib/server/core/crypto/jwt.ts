// Session JWTs: encrypted JWE (`dir` + `A256CBC-HS512`, compact, interoperable with jose), keyed by
// HKDF from the secret and the cookie name. Keys are derived once per secret and cached.

import { isThenable } from '../util/awaitable.js';
import { base64url } from './bytes.js';
import { digest, hkdfSha256 } from './hash.js';
import { decryptJwe, encryptJwe, readJweHeader, type JwePayload } from './jwe.js';
import { randomUuid } from './random.js';
import type { JWT, JWTDecodeParams, JWTEncodeParams } from '../types.js';
import { rememberVerifiedToken, verifiedTokenPayload } from './verified-tokens.js';

/** A session key and the `kid` kitgate writes in the JWE header of tokens made with it. */
export interface DerivedKey {
	key: Uint8Array;
	kid: string;
}

/** Seconds of clock skew accepted on `exp`/`iat`. */
const CLOCK_TOLERANCE = 15;

/** Session keys of one kind: the HKDF `info` label they are derived under (before the salt), and their cache. */
export interface KeyFamily {
	label: string;
	/** By salt, then by secret: the same two strings on every request, so no key string is built per look-up. */
	cache: Map<string, Map<string, DerivedKey>>;
}

/**
 * A family of session keys derived under `label`: kitgate's own, or another library's (Auth.js's
 * in authjs-cookies.ts).
 *
 * @example
 * const authjsKeys = keyFamily('Auth.js Generated Encryption Key');
 */
export function keyFamily(label: string): KeyFamily {
	return { label, cache: new Map() };
}

/** kitgate's own session keys. */
export const kitgateKeys = keyFamily('kitgate session encryption key');

/**
 * The 64-byte key for `secret` and `salt` (the cookie name), derived once and cached:
 * HKDF-SHA256(secret, salt, info = `<family label> (<salt>)`).
 *
 * @example
 * const { key, kid } = deriveKey(secret, 'kitgate.session-token');
 */
export function deriveKey(secret: string, salt: string, family: KeyFamily = kitgateKeys): DerivedKey {
	let bySecret = family.cache.get(salt);
	if (!bySecret) family.cache.set(salt, (bySecret = new Map()));
	let derived = bySecret.get(secret);
	if (!derived) {
		const key = hkdfSha256(secret, salt, `${family.label} (${salt})`, 64);
		const kid = base64url(digest('sha256', key)).slice(0, 22);
		derived = { key, kid };
		bySecret.set(secret, derived);
	}
	return derived;
}

/** The keys of a secret rotation, by the config's secrets array (the same array on every read) and salt. */
const keysBySecrets = new WeakMap<KeyFamily, WeakMap<string[], Map<string, { secrets: string[]; keys: DerivedKey[]; rawKeys: Uint8Array[] }>>>();

function keysOf(secret: string | string[], salt: string, family: KeyFamily): { keys: DerivedKey[]; rawKeys: Uint8Array[] } {
	const derive = (secrets: string[]) => {
		const keys = secrets.map((one) => deriveKey(one, salt, family));
		return { secrets: [...secrets], keys, rawKeys: keys.map(({ key }) => key) };
	};
	if (!Array.isArray(secret)) return derive([secret]);
	let bySecrets = keysBySecrets.get(family);
	if (!bySecrets) keysBySecrets.set(family, (bySecrets = new WeakMap()));
	let bySalt = bySecrets.get(secret);
	if (!bySalt) bySecrets.set(secret, (bySalt = new Map()));
	let found = bySalt.get(salt);
	// an array changed since (a caller rotating in place) is derived again
	if (!found || found.secrets.length !== secret.length || found.secrets.some((one, index) => one !== secret[index])) bySalt.set(salt, (found = derive(secret)));
	return found;
}

/**
 * Encrypts a token for the session cookie with the first secret (standard compact JWE, readable
 * by jose; see jwe.ts).
 *
 * @example
 * const cookie = await encodeJwt({ token: { sub: "1" }, secret, salt: "kitgate.session-token", maxAge: 3600 });
 */
export async function encodeJwt(params: JWTEncodeParams): Promise<string> {
	const secret = Array.isArray(params.secret) ? params.secret[0] : params.secret;
	const { key, kid } = deriveKey(secret, params.salt);
	const now = Math.floor((params.now ?? Date.now()) / 1000);
	return encryptJwe(claimsJson(params.token, now, now + params.maxAge, randomUuid()), key, { kid });
}

/**
 * The JSON of `{ ...token, iat, exp, jti }`. A plain token without those claims (every token a
 * sign-in makes) is written as it is with the three appended: the same text, without copying
 * the object first (a copy that grows costs more than the rest of the JSON).
 */
function claimsJson(token: JWT, iat: number, exp: number, jti: string): string {
	const plain = Object.getPrototypeOf(token) === Object.prototype;
	if (!plain || Object.hasOwn(token, 'iat') || Object.hasOwn(token, 'exp') || Object.hasOwn(token, 'jti') || Object.hasOwn(token, 'toJSON')) {
		return JSON.stringify({ ...token, iat, exp, jti });
	}
	const json = JSON.stringify(token);
	// numbers through JSON.stringify too: a NaN or infinite one is `null`, as in the object's JSON
	const registered = `"iat":${JSON.stringify(iat)},"exp":${JSON.stringify(exp)},"jti":${JSON.stringify(jti)}}`;
	return json === '{}' ? `{${registered}` : `${json.slice(0, -1)},${registered}`;
}

/** True when the registered claims of `payload` are valid at `nowSeconds` (same rules as jose's jwtDecrypt). */
function claimsValid(payload: Record<string, unknown>, nowSeconds: number): boolean {
	const { exp, nbf, iat } = payload;
	if (exp !== undefined && (typeof exp !== 'number' || exp <= nowSeconds - CLOCK_TOLERANCE)) return false;
	if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSeconds + CLOCK_TOLERANCE)) return false;
	if (iat !== undefined && typeof iat !== 'number') return false;
	return true;
}

/**
 * Decrypts a session token with whichever secret made it. Returns `null` for a missing,
 * tampered, expired or foreign token; never throws for bad input.
 */
export async function decodeJwt(params: JWTDecodeParams): Promise<JWT | null> {
	return decodeJwtAtOnce(params);
}

/**
 * The body of `decodeJwt`, answering at once (no promise) when it can: a token this process
 * authenticated before, or any token on runtimes whose crypto is synchronous (node:crypto);
 * else a promise (Web Crypto). `family` says whose keys to try (kitgate's by default, Auth.js's
 * for its cookies). The session check is the hot path: it awaits only what is pending.
 *
 * @example
 * const decoding = decodeJwtAtOnce({ token: cookie, secret: secrets, salt: 'kitgate.session-token' });
 * const token = isThenable(decoding) ? await decoding : decoding;
 */
export function decodeJwtAtOnce(params: JWTDecodeParams, family: KeyFamily = kitgateKeys): JWT | null | Promise<JWT | null> {
	const { token } = params;
	if (!token || typeof token !== 'string') return null;
	const { keys, rawKeys } = keysOf(params.secret, params.salt, family);
	const nowSeconds = Math.floor((params.now ?? Date.now()) / 1000);
	// a token this process authenticated before under one of these keys: no need to decrypt it again
	const known = verifiedTokenPayload(token, rawKeys);
	if (known) return claimsValid(known, nowSeconds) ? (known as JWT) : null;
	const header = readJweHeader(token);
	if (!header) return null;
	// try the key the header names first; older tokens may carry no kid
	const tried = header.kid ? [...keys].sort((a, b) => Number(b.kid === header.kid) - Number(a.kid === header.kid)) : keys;
	return firstDecrypting(token, tried, 0, nowSeconds);
}

/** Tries `keys` from `index` on, at once while the decryptions answer at once. */
function firstDecrypting(token: string, keys: DerivedKey[], index: number, nowSeconds: number): JWT | null | Promise<JWT | null> {
	for (let at = index; at < keys.length; at++) {
		const { key } = keys[at];
		const decrypting = decryptJwe(token, key);
		if (isThenable(decrypting)) {
			return decrypting.then((payload) => (payload ? accepted(token, key, payload, nowSeconds) : firstDecrypting(token, keys, at + 1, nowSeconds)));
		}
		if (decrypting) return accepted(token, key, decrypting, nowSeconds);
	}
	return null;
}

function accepted(token: string, key: Uint8Array, payload: JwePayload, nowSeconds: number): JWT | null {
	rememberVerifiedToken(token, key, payload);
	return claimsValid(payload, nowSeconds) ? (payload as JWT) : null;
}

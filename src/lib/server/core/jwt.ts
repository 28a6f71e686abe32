// Session JWTs: encrypted JWE (`dir` + `A256CBC-HS512`, compact) made with `jose`, keyed by
// HKDF from the secret and the cookie name. Keys are derived once per secret and cached.

import { hkdfSync, createHash } from 'node:crypto';
import { EncryptJWT, jwtDecrypt, decodeProtectedHeader } from 'jose';
import type { JWT, JWTDecodeParams, JWTEncodeParams } from './types.js';

interface DerivedKey {
	key: Uint8Array;
	kid: string;
}

const ALG = 'dir';
const ENC = 'A256CBC-HS512';
/** Seconds of clock skew accepted on `exp`/`iat`. */
const CLOCK_TOLERANCE = 15;
const keyCache = new Map<string, DerivedKey>();

/** The 64-byte key for `secret` and `salt` (the cookie name), derived once and cached. */
export function deriveKey(secret: string, salt: string): DerivedKey {
	const cacheKey = `${salt}\u0000${secret}`;
	let derived = keyCache.get(cacheKey);
	if (!derived) {
		const key = new Uint8Array(hkdfSync('sha256', secret, salt, `kitgate session encryption key (${salt})`, 64));
		const kid = createHash('sha256').update(key).digest('base64url').slice(0, 22);
		derived = { key, kid };
		keyCache.set(cacheKey, derived);
	}
	return derived;
}

/**
 * Encrypts a token for the session cookie with the first secret.
 *
 * @example
 * const cookie = await encodeJwt({ token: { sub: "1" }, secret, salt: "kitgate.session-token", maxAge: 3600 });
 */
export async function encodeJwt(params: JWTEncodeParams): Promise<string> {
	const secret = Array.isArray(params.secret) ? params.secret[0] : params.secret;
	const { key, kid } = deriveKey(secret, params.salt);
	const now = Math.floor((params.now ?? Date.now()) / 1000);
	return new EncryptJWT(params.token)
		.setProtectedHeader({ alg: ALG, enc: ENC, kid })
		.setIssuedAt(now)
		.setExpirationTime(now + params.maxAge)
		.setJti(crypto.randomUUID())
		.encrypt(key);
}

/**
 * Decrypts a session token with whichever secret made it. Returns `null` for a missing,
 * tampered, expired or foreign token; never throws for bad input.
 */
export async function decodeJwt(params: JWTDecodeParams): Promise<JWT | null> {
	if (!params.token) return null;
	let kid: unknown;
	try {
		const header = decodeProtectedHeader(params.token);
		if (header.alg !== ALG || header.enc !== ENC) return null;
		kid = header.kid;
	} catch {
		return null;
	}
	const secrets = Array.isArray(params.secret) ? params.secret : [params.secret];
	const keys = secrets.map((secret) => deriveKey(secret, params.salt));
	// try the key the header names first; older tokens may carry no kid
	keys.sort((a, b) => Number(b.kid === kid) - Number(a.kid === kid));
	const currentDate = params.now === undefined ? undefined : new Date(params.now);
	for (const { key } of keys) {
		try {
			const { payload } = await jwtDecrypt(params.token, key, {
				clockTolerance: CLOCK_TOLERANCE,
				keyManagementAlgorithms: [ALG],
				contentEncryptionAlgorithms: [ENC],
				currentDate
			});
			return payload as JWT;
		} catch {
			// wrong key, tampered or expired: try the next secret
		}
	}
	return null;
}

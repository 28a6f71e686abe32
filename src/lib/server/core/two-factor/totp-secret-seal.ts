// Seals a TOTP secret for the database: a compact JWE (dir, A256CBC-HS512) under a key that HKDF
// derives from the app secret for this purpose alone, bound to the user it belongs to. Internal.

import { base64url } from '../crypto/bytes.js';
import { digest, hkdfSha256 } from '../crypto/hash.js';
import { decryptJwe, encryptJwe, readJweHeader } from '../crypto/jwe.js';

/** The sealing options: the app's secret (or rotation list, newest first) and the owner's user id. */
export interface TotpSealOptions {
	secret: string | string[];
	userId: string;
}

interface SealKey {
	key: Uint8Array;
	kid: string;
}

/** HKDF salt and info: a key for TOTP secrets opens no session cookie, and no cookie key opens a TOTP secret. */
const SALT = 'kitgate.totp-secret';
const INFO = 'kitgate TOTP secret encryption key';
const keyCache = new Map<string, SealKey>();

/** The 64-byte key for one app secret, derived once and cached (as the session keys are). */
function sealKey(secret: string): SealKey {
	let derived = keyCache.get(secret);
	if (!derived) {
		const key = hkdfSha256(secret, SALT, INFO, 64);
		derived = { key, kid: base64url(digest('sha256', key)).slice(0, 22) };
		keyCache.set(secret, derived);
	}
	return derived;
}

function secretsOf(secret: string | string[]): string[] {
	const secrets = (Array.isArray(secret) ? secret : [secret]).filter((value) => typeof value === 'string' && value !== '');
	if (secrets.length === 0) throw new TypeError('Sealing a TOTP secret needs the app secret.');
	return secrets;
}

/**
 * Encrypts a TOTP secret (base32) for storage with the first app secret, bound to `userId`: a
 * sealed value copied to another user's row does not open there.
 *
 * @example
 * await db.users.update(user.id, { totpSecret: await sealTotpSecret(secret, { secret: env.AUTH_SECRET, userId: user.id }) });
 */
export async function sealTotpSecret(totpSecret: string, options: TotpSealOptions): Promise<string> {
	if (typeof totpSecret !== 'string' || totpSecret === '') throw new TypeError('sealTotpSecret needs the TOTP secret as a string.');
	if (typeof options.userId !== 'string' || options.userId === '') throw new TypeError('sealTotpSecret needs the user id.');
	const { key, kid } = sealKey(secretsOf(options.secret)[0]);
	return encryptJwe({ totp: totpSecret, sub: options.userId }, key, { kid });
}

/**
 * The TOTP secret in a sealed value, or null when it was sealed for another user, under a secret
 * no longer configured, or tampered with. Every configured secret is tried (the one the header
 * names first), so sealed secrets survive a rotation while the old secret stays in the list.
 *
 * @example
 * const secret = await openTotpSecret(user.totpSecret, { secret: env.AUTH_SECRET, userId: user.id });
 */
export async function openTotpSecret(sealed: string, options: TotpSealOptions): Promise<string | null> {
	if (typeof sealed !== 'string') return null;
	const header = readJweHeader(sealed);
	if (!header) return null;
	const keys = secretsOf(options.secret).map(sealKey);
	// try the key the header names first
	keys.sort((a, b) => Number(b.kid === header.kid) - Number(a.kid === header.kid));
	for (const { key } of keys) {
		const payload = await decryptJwe(sealed, key);
		if (!payload) continue;
		return payload.sub === options.userId && typeof payload.totp === 'string' ? payload.totp : null;
	}
	return null;
}

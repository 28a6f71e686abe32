// Password hashing for a credentials provider's `authorize`: scrypt (node:crypto's where the runtime
// has it, else `@noble/hashes`', which gives the same bytes), and a check that costs the same whether
// or not the user exists. Re-exported from the root entry `kitgate`.

import { scryptAsync } from '@noble/hashes/scrypt.js';
import { base64url, bytesEqual, fromBase64url, utf8Bytes } from '../crypto/bytes.js';
import { nodeParts } from '../crypto/node-crypto.js';
import { randomBytes } from '../crypto/random.js';

/** scrypt cost: 2^15 × 8 × 1 (about 32 MB and tens of milliseconds per hash). */
const PARAMS = { logN: 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Stored hashes above these costs are refused, so a forged row cannot stall the server. */
const MAX_LOG_N = 20;
const MAX_R = 16;
const MAX_P = 4;

function derive(password: string, salt: Uint8Array, logN: number, r: number, p: number): Promise<Uint8Array> {
	const normalized = password.normalize('NFKC');
	const maxmem = 256 * 2 ** logN * r + 1024 * 1024;
	const node = nodeParts();
	if (!node) return scryptAsync(utf8Bytes(normalized), salt, { N: 2 ** logN, r, p, dkLen: KEY_BYTES, maxmem });
	return new Promise((resolve, reject) => {
		node.crypto.scrypt(normalized, salt, KEY_BYTES, { N: 2 ** logN, r, p, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
	});
}

/**
 * Hashes a password for storage: `scrypt$15$8$1$<salt>$<hash>` (base64url), a fresh salt each time.
 *
 * @example
 * import { hashPassword } from 'kitgate';
 * await db.users.update(id, { passwordHash: await hashPassword(form.password) });
 */
export async function hashPassword(password: string): Promise<string> {
	if (typeof password !== 'string') throw new TypeError('hashPassword needs the password as a string.');
	const salt = randomBytes(SALT_BYTES);
	const key = await derive(password, salt, PARAMS.logN, PARAMS.r, PARAMS.p);
	return ['scrypt', PARAMS.logN, PARAMS.r, PARAMS.p, base64url(salt), base64url(key)].join('$');
}

/** A stored hash read back, or undefined when it is not one `hashPassword` makes. */
function parseHash(stored: string): { logN: number; r: number; p: number; salt: Uint8Array; key: Uint8Array } | undefined {
	const parts = stored.split('$');
	if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
	const [logN, r, p] = parts.slice(1, 4).map(Number);
	if (![logN, r, p].every(Number.isInteger) || logN < 1 || logN > MAX_LOG_N || r < 1 || r > MAX_R || p < 1 || p > MAX_P) return undefined;
	const salt = fromBase64url(parts[4]);
	const key = fromBase64url(parts[5]);
	return salt && key && salt.length >= 8 && key.length === KEY_BYTES ? { logN, r, p, salt, key } : undefined;
}

/** Stands in for the hash of an unknown user: same cost, matches nothing. Its salt is made on first use (a Worker forbids randomness at load). */
let decoySalt: Uint8Array | undefined;

/**
 * True when `password` matches `stored` (from `hashPassword`). With no stored hash (unknown user)
 * or a malformed one it still computes a hash of the same cost and answers false, so "no such
 * user" takes as long as "wrong password". The comparison is constant-time.
 *
 * @example
 * import { verifyPassword } from 'kitgate';
 * authorize: async ({ email, password }) => {
 *   const user = await db.users.findByEmail(String(email));
 *   return (await verifyPassword(String(password), user?.passwordHash)) ? user : null;
 * }
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
	const parsed = typeof stored === 'string' ? parseHash(stored) : undefined;
	const typed = typeof password === 'string' ? password : '';
	if (!parsed) {
		await derive(typed, (decoySalt ??= randomBytes(SALT_BYTES)), PARAMS.logN, PARAMS.r, PARAMS.p);
		return false;
	}
	const key = await derive(typed, parsed.salt, parsed.logN, parsed.r, parsed.p);
	return bytesEqual(key, parsed.key) && typeof password === 'string';
}

// Password hashing for a credentials provider's `authorize`: scrypt (node:crypto's where the runtime
// has it, Cloudflare Workers with `nodejs_compat` included, else `@noble/hashes`', which gives the
// same bytes), and a check that costs the same whether or not the user exists. `passwordHashing()`
// sets the cost; `hashPassword` and `verifyPassword` are its default. Re-exported from `kitgate`.

import { scryptAsync } from '@noble/hashes/scrypt.js';
import { base64url, bytesEqual, fromBase64url, utf8Bytes } from '../crypto/bytes.js';
import type { NodeCrypto } from '../crypto/node-crypto.js';
import { randomBytes } from '../crypto/random.js';
import { nodeBuiltin } from '../util/runtime.js';

/** scrypt's block size and parallelism: the cost that varies is N = 2^logN. */
const R = 8;
const P = 1;
/** The default cost: 2^15 × 8 × 1 (about 32 MB and tens of milliseconds per hash on Node). */
const DEFAULT_LOG_N = 15;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Costs a stored hash may have: above, a forged row could stall the server; below, nothing kitgate writes. */
const MIN_LOG_N = 10;
const MAX_LOG_N = 20;
const MAX_R = 16;
const MAX_P = 4;

function derive(password: string, salt: Uint8Array, logN: number, r: number, p: number): Promise<Uint8Array> {
	const normalized = password.normalize('NFKC');
	const maxmem = 256 * 2 ** logN * r + 1024 * 1024;
	// node:crypto's scrypt wherever it is, Workers with nodejs_compat too: 2.3× cheaper there than the JavaScript one (measured)
	const node = nodeBuiltin<NodeCrypto>('node:crypto');
	if (!node) return scryptAsync(utf8Bytes(normalized), salt, { N: 2 ** logN, r, p, dkLen: KEY_BYTES, maxmem });
	return new Promise((resolve, reject) => {
		node.scrypt(normalized, salt, KEY_BYTES, { N: 2 ** logN, r, p, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
	});
}

/** A stored hash read back, or undefined when it is not one `hashPassword` makes. */
function parseHash(stored: string): { logN: number; r: number; p: number; salt: Uint8Array; key: Uint8Array } | undefined {
	const parts = stored.split('$');
	if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
	const [logN, r, p] = parts.slice(1, 4).map(Number);
	if (![logN, r, p].every(Number.isInteger) || logN < MIN_LOG_N || logN > MAX_LOG_N || r < 1 || r > MAX_R || p < 1 || p > MAX_P) return undefined;
	const salt = fromBase64url(parts[4]);
	const key = fromBase64url(parts[5]);
	return salt && key && salt.length >= 8 && key.length === KEY_BYTES ? { logN, r, p, salt, key } : undefined;
}

/** Options of {@link passwordHashing}. */
export interface PasswordHashingOptions {
	/**
	 * scrypt's cost as a power of two, 10 to 20 (default 15: N = 32,768, r = 8, p = 1). Each step
	 * down halves an attacker's work per guess, as it halves the server's; see
	 * docs/workers-costs.md for what fits Cloudflare Workers' CPU limits and what it costs.
	 */
	logN?: number;
}

/** Hashing and checking passwords at one cost. */
export interface PasswordHashing {
	/** Hashes a password for storage: `scrypt$<logN>$8$1$<salt>$<hash>` (base64url), a fresh salt each time. */
	hashPassword(password: string): Promise<string>;
	/**
	 * True when `password` matches `stored` (made at any cost this library accepts). With no stored
	 * hash (unknown user) or a malformed one it still hashes once at this cost and answers false,
	 * so "no such user" takes as long as "wrong password". The comparison is constant-time.
	 */
	verifyPassword(password: string, stored: string | null | undefined): Promise<boolean>;
	/** True when `stored` was made at another cost than this one's: hash the password again after a successful check. */
	needsRehash(stored: string): boolean;
}

/**
 * Password hashing at a cost of your choice (the root exports `hashPassword` and `verifyPassword`
 * are `passwordHashing()` at the default, 2^15). Throws a `RangeError` for a cost outside 10–20.
 *
 * @example
 * import { passwordHashing } from 'kitgate';
 * // Workers Free's 10 ms of CPU fit 2^10 only, at 32× less work per guess (docs/workers-costs.md)
 * const passwords = passwordHashing({ logN: 10 });
 * if (await passwords.verifyPassword(password, user.passwordHash) && passwords.needsRehash(user.passwordHash)) {
 *   await db.users.update(user.id, { passwordHash: await passwords.hashPassword(password) });
 * }
 */
export function passwordHashing(options: PasswordHashingOptions = {}): PasswordHashing {
	const logN = options.logN ?? DEFAULT_LOG_N;
	if (!Number.isInteger(logN) || logN < MIN_LOG_N || logN > MAX_LOG_N) {
		throw new RangeError(`passwordHashing: logN is a whole number from ${MIN_LOG_N} to ${MAX_LOG_N} (scrypt's N = 2^logN); got ${JSON.stringify(options.logN)}.`);
	}
	// stands in for the hash of an unknown user, at this cost; its salt is made on first use (a Worker forbids randomness at load)
	let decoySalt: Uint8Array | undefined;
	return {
		async hashPassword(password) {
			if (typeof password !== 'string') throw new TypeError('hashPassword needs the password as a string.');
			const salt = randomBytes(SALT_BYTES);
			const key = await derive(password, salt, logN, R, P);
			return ['scrypt', logN, R, P, base64url(salt), base64url(key)].join('$');
		},
		async verifyPassword(password, stored) {
			const parsed = typeof stored === 'string' ? parseHash(stored) : undefined;
			const typed = typeof password === 'string' ? password : '';
			if (!parsed) {
				await derive(typed, (decoySalt ??= randomBytes(SALT_BYTES)), logN, R, P);
				return false;
			}
			const key = await derive(typed, parsed.salt, parsed.logN, parsed.r, parsed.p);
			return bytesEqual(key, parsed.key) && typeof password === 'string';
		},
		needsRehash(stored) {
			const parsed = typeof stored === 'string' ? parseHash(stored) : undefined;
			return !parsed || parsed.logN !== logN || parsed.r !== R || parsed.p !== P;
		}
	};
}

let defaults: PasswordHashing | undefined;
const byDefault = () => (defaults ??= passwordHashing());

/**
 * Hashes a password for storage: `scrypt$15$8$1$<salt>$<hash>` (base64url), a fresh salt each time.
 *
 * @example
 * import { hashPassword } from 'kitgate';
 * await db.users.update(id, { passwordHash: await hashPassword(form.password) });
 */
export function hashPassword(password: string): Promise<string> {
	return byDefault().hashPassword(password);
}

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
export function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
	return byDefault().verifyPassword(password, stored);
}

// Recovery codes for a lost second factor: ten random codes shown once, stored only as keyed
// hashes (HMAC-SHA256 under a key HKDF derives from the app secret), each usable once. Internal.

import { base64url, stringsEqual } from '../crypto/bytes.js';
import { hkdfSha256, hmac } from '../crypto/hash.js';
import { randomInt } from '../crypto/random.js';

/** Codes made at enrolment and on regeneration. */
export const RECOVERY_CODE_COUNT = 10;
/** Crockford's base32 in lower case: no i, l, o or u, so nothing reads as another character. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** 12 characters of 5 bits: 60 bits per code, beyond guessing under any rate limit. */
const CODE_CHARACTERS = 12;
const GROUP = 4;
const NORMALISED = new RegExp(`^[${ALPHABET}]{${CODE_CHARACTERS}}$`);
/** HKDF salt and info: this key hashes recovery codes and nothing else. */
const SALT = 'kitgate.recovery-code';
const INFO = 'kitgate recovery code hash key';
const keyCache = new Map<string, Uint8Array>();

/** Recovery codes to show once (`codes`) and the hashes to store in their place (`hashes`, same order). */
export interface RecoveryCodeSet {
	codes: string[];
	hashes: string[];
}

/** The outcome of `verifyRecoveryCode`: which stored hash matched and what to store now, or why not. */
export type RecoveryCodeVerification =
	| { valid: true; index: number; remainingHashes: string[]; remaining: number }
	| { valid: false; reason: 'malformed' | 'no-match'; remaining: number };

function hashKey(secret: string): Uint8Array {
	let key = keyCache.get(secret);
	if (!key) {
		key = hkdfSha256(secret, SALT, INFO, 32);
		keyCache.set(secret, key);
	}
	return key;
}

function secretsOf(secret: string | string[]): string[] {
	const secrets = (Array.isArray(secret) ? secret : [secret]).filter((value) => typeof value === 'string' && value !== '');
	if (secrets.length === 0) throw new TypeError('Recovery codes need the app secret.');
	return secrets;
}

function hashWith(secret: string, normalised: string): string {
	return base64url(hmac('sha256', hashKey(secret), normalised));
}

/**
 * A typed recovery code in its canonical form (12 characters, lower case), or undefined when it
 * cannot be one. Case, spaces and dashes do not matter, and i, l and o read as 1, 1 and 0.
 *
 * @example
 * normalizeRecoveryCode(" K7M2-9XQ4-AB3D "); // "k7m29xq4ab3d"
 */
export function normalizeRecoveryCode(input: string): string | undefined {
	if (typeof input !== 'string' || input.length > 64) return undefined;
	const folded = input.toLowerCase().replace(/[\s-]+/g, '').replace(/[il]/g, '1').replace(/o/g, '0');
	return NORMALISED.test(folded) ? folded : undefined;
}

/**
 * Makes `count` (10) recovery codes from the system's CSPRNG, written `xxxx-xxxx-xxxx`, and their
 * hashes under the first app secret. Show the codes once; store only the hashes.
 *
 * @example
 * const { codes, hashes } = generateRecoveryCodes({ secret: env.AUTH_SECRET });
 * await db.users.update(user.id, { recoveryCodes: hashes });
 */
export function generateRecoveryCodes(options: { secret: string | string[]; count?: number }): RecoveryCodeSet {
	const count = options.count ?? RECOVERY_CODE_COUNT;
	if (!Number.isInteger(count) || count < 1 || count > 100) throw new RangeError('generateRecoveryCodes: count is a whole number from 1 to 100.');
	const secret = secretsOf(options.secret)[0];
	const codes: string[] = [];
	while (codes.length < count) {
		const characters = Array.from({ length: CODE_CHARACTERS }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
		const code = characters.match(new RegExp(`.{${GROUP}}`, 'g'))!.join('-');
		// a repeat is a 2^-60 event; skipping it keeps "each code is one of N" exact
		if (!codes.includes(code)) codes.push(code);
	}
	return { codes, hashes: codes.map((code) => hashWith(secret, normalizeRecoveryCode(code)!)) };
}

/**
 * Checks a typed recovery code against the stored hashes in constant time (every hash is
 * compared under every configured secret, whatever matched). On a match it returns the hashes
 * to store instead (the used one removed) and how many remain. Pure: the caller removes the code
 * from its store, atomically, before signing the user in.
 *
 * @example
 * const result = verifyRecoveryCode(form.code, user.recoveryCodes, { secret: env.AUTH_SECRET });
 * if (result.valid) await db.users.update(user.id, { recoveryCodes: result.remainingHashes });
 */
export function verifyRecoveryCode(input: string, storedHashes: readonly string[], options: { secret: string | string[] }): RecoveryCodeVerification {
	const secrets = secretsOf(options.secret);
	const hashes: readonly unknown[] = Array.isArray(storedHashes) ? storedHashes : [];
	const usable = hashes.filter((hash) => typeof hash === 'string').length;
	const normalised = normalizeRecoveryCode(input);
	if (normalised === undefined) return { valid: false, reason: 'malformed', remaining: usable };
	const candidates = secrets.map((secret) => hashWith(secret, normalised));
	let index = -1;
	for (let i = 0; i < hashes.length; i++) {
		const stored = hashes[i];
		for (const candidate of candidates) if (typeof stored === 'string' && stringsEqual(candidate, stored) && index === -1) index = i;
	}
	if (index === -1) return { valid: false, reason: 'no-match', remaining: usable };
	const remainingHashes = hashes.filter((hash, i): hash is string => i !== index && typeof hash === 'string');
	return { valid: true, index, remainingHashes, remaining: remainingHashes.length };
}

// checkPassword: NIST SP 800-63B rules for a password chosen at sign-up or changed: length in code
// points after NFKC, no composition rules, common and context words refused, an opt-in breach check.
// Re-exported from the root entry `kitgate`.

import { COMMON_PASSWORDS } from './common-passwords.js';
import { createLogger } from '../config/logger.js';
import { lookUpPwnedPassword, type PwnedPasswordsOptions } from './pwned-passwords.js';
import type { LoggerInstance } from '../types.js';

export type { PwnedPasswordsOptions } from './pwned-passwords.js';

/**
 * Why `checkPassword` refused a password; none is a composition rule. `too-short` / `too-long`:
 * outside `minLength`..`maxLength` code points; `common`: on the list of common passwords shipped
 * with kitgate (case does not matter); `context`: contains one of `contextWords`; `breached`:
 * found by the Pwned Passwords check (only when `pwnedPasswords` is on).
 */
export type PasswordProblem = 'too-short' | 'too-long' | 'common' | 'context' | 'breached';

/** Options of `checkPassword`. */
export interface PasswordCheckOptions {
	/** Fewest characters (code points after NFKC). Default 8, never less; 15 is NIST's advice for a password used alone. */
	minLength?: number;
	/** Most characters, to bound hashing work. Default 256; from 64 (NIST's floor) to 1024. */
	maxLength?: number;
	/**
	 * Words a password must not contain (4 characters or more, compared without case, spaces or
	 * punctuation): the service's name, the user's email address (its local part too) and name.
	 */
	contextWords?: readonly (string | null | undefined)[];
	/**
	 * Also ask Have I Been Pwned's range API (k-anonymity: 5 hex characters of the SHA-1 leave the
	 * server). Off unless set. When the service cannot be reached the password is not refused for it
	 * (`breachCheck: "unavailable"`) and a `pwned-passwords-unavailable` warning is logged.
	 */
	pwnedPasswords?: boolean | PwnedPasswordsOptions;
	/** Where the warning goes; `console.warn` by default (your config's `logger` fits). */
	logger?: Partial<LoggerInstance>;
}

/** The verdict of `checkPassword`. */
export interface PasswordCheck {
	/** True when nothing is wrong; `reasons` is then empty. */
	ok: boolean;
	/** Every problem found, in the order of `PasswordProblem`. */
	reasons: PasswordProblem[];
	/** The length that was checked: Unicode code points after NFKC normalisation. */
	length: number;
	/**
	 * The online check: `off` (not asked for), `skipped` (the password was refused already, so it
	 * was not sent), `passed`, `breached`, or `unavailable` (no answer: the password was accepted).
	 */
	breachCheck: 'off' | 'skipped' | 'passed' | 'breached' | 'unavailable';
}

const NIST_MIN_LENGTH = 8;
const NIST_MAX_FLOOR = 64;
const MAX_LENGTH_BOUND = 1024;
const DEFAULT_MAX_LENGTH = 256;
const MIN_CONTEXT_WORD = 4;

let commonPasswords: Set<string> | undefined;

/** True when `password` is on the shipped list of common passwords (NFKC, case-insensitive). Pure. */
export function isCommonPassword(password: string): boolean {
	commonPasswords ??= new Set(COMMON_PASSWORDS.split('\n'));
	return commonPasswords.has(password.normalize('NFKC').toLowerCase());
}

/** Lower case, NFKC, letters and digits only: "Example Shop!" and "example-shop" compare equal. */
function squash(value: string): string {
	return value.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** True when `password` contains one of the context words (or an email's local part). Pure. */
export function containsContextWord(password: string, contextWords: readonly (string | null | undefined)[]): boolean {
	const squashed = squash(password);
	const words = contextWords.flatMap((word) => (typeof word === 'string' ? [word, ...(word.includes('@') ? [word.slice(0, word.lastIndexOf('@'))] : [])] : []));
	return words.map(squash).some((word) => [...word].length >= MIN_CONTEXT_WORD && squashed.includes(word));
}

function checkedLengths(options: PasswordCheckOptions): { min: number; max: number } {
	const min = options.minLength ?? NIST_MIN_LENGTH;
	const max = options.maxLength ?? DEFAULT_MAX_LENGTH;
	if (!Number.isInteger(min) || min < NIST_MIN_LENGTH) throw new RangeError(`checkPassword: minLength must be a whole number of at least ${NIST_MIN_LENGTH} (NIST SP 800-63B).`);
	if (!Number.isInteger(max) || max < NIST_MAX_FLOOR || max > MAX_LENGTH_BOUND) {
		throw new RangeError(`checkPassword: maxLength must be a whole number from ${NIST_MAX_FLOOR} (NIST SP 800-63B) to ${MAX_LENGTH_BOUND}.`);
	}
	if (min > max) throw new RangeError('checkPassword: minLength is above maxLength.');
	return { min, max };
}

/**
 * Checks a new password (sign-up, password change) against NIST SP 800-63B: at least `minLength`
 * (8) and at most `maxLength` (256) characters, counted as code points after NFKC (the form
 * `hashPassword` stores); any characters allowed, no composition rules; not a common password;
 * not containing a context word; and, when `pwnedPasswords` is on, not in a known breach. Expected
 * refusals are values (`ok: false` with `reasons`), never exceptions; options out of range throw.
 *
 * @example
 * import { checkPassword, hashPassword } from 'kitgate';
 * const check = await checkPassword(form.password, { contextWords: ["Example Shop", form.email], pwnedPasswords: true });
 * if (!check.ok) return fail(400, { reasons: check.reasons });
 * await db.users.create({ email: form.email, passwordHash: await hashPassword(form.password) });
 */
export async function checkPassword(password: string, options: PasswordCheckOptions = {}): Promise<PasswordCheck> {
	const { min, max } = checkedLengths(options);
	const typed = typeof password === 'string' ? password : '';
	const normalised = typed.normalize('NFKC');
	const length = [...normalised].length;
	const reasons: PasswordProblem[] = [];
	if (length < min) reasons.push('too-short');
	if (length > max) reasons.push('too-long');
	// a too-long password is not looked at further: the point of the bound is to cap work
	if (length <= max && length >= NIST_MIN_LENGTH && isCommonPassword(normalised)) reasons.push('common');
	if (length <= max && containsContextWord(normalised, options.contextWords ?? [])) reasons.push('context');
	if (!options.pwnedPasswords) return { ok: reasons.length === 0, reasons, length, breachCheck: 'off' };
	// a refused password is not sent anywhere, not even as a hash prefix
	if (reasons.length > 0) return { ok: false, reasons, length, breachCheck: 'skipped' };
	const lookupOptions = options.pwnedPasswords === true ? {} : options.pwnedPasswords;
	// hashPassword stores the NFKC form; the breach corpus holds what people typed: ask for both when they differ
	const forms = normalised === typed ? [typed] : [normalised, typed];
	const lookups = await Promise.all(forms.map((form) => lookUpPwnedPassword(form, lookupOptions)));
	if (lookups.some((lookup) => lookup.status === 'found')) return { ok: false, reasons: ['breached'], length, breachCheck: 'breached' };
	const failed = lookups.find((lookup) => lookup.status === 'unavailable');
	if (failed) {
		createLogger(options.logger, false).warn(
			'pwned-passwords-unavailable',
			`The Pwned Passwords check could not be done (${failed.cause}); the password was checked offline only.`
		);
		return { ok: true, reasons, length, breachCheck: 'unavailable' };
	}
	return { ok: true, reasons, length, breachCheck: 'passed' };
}

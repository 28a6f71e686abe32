// Asks Have I Been Pwned's Pwned Passwords range API whether a password is in a known breach, by
// k-anonymity: only 5 hex characters of its SHA-1 leave the process. Internal (checkPassword uses it).

import { hex } from '../crypto/bytes.js';
import { digest } from '../crypto/hash.js';
import { stringsEqual } from '../crypto/bytes.js';

/** Where and how to ask. Every field has a default: `pwnedPasswords: true` is enough. */
export interface PwnedPasswordsOptions {
	/** The range endpoint; the 5-character prefix is appended. Default `https://api.pwnedpasswords.com/range/`. */
	url?: string;
	/** Milliseconds to wait for the whole answer before giving up (fail open). Default 3000. */
	timeoutMs?: number;
}

/** What the range API said about one password. */
export type PwnedLookup = { status: 'found'; count: number } | { status: 'not-found' } | { status: 'unavailable'; cause: string };

export const PWNED_PASSWORDS_URL = 'https://api.pwnedpasswords.com/range/';
const DEFAULT_TIMEOUT_MS = 3000;
/** A range answer is a few dozen kilobytes; anything far larger is not one. */
const MAX_ANSWER_CHARACTERS = 2_000_000;
const LINE = /^([0-9A-F]{35}):(\d+)$/;

/**
 * The SHA-1 of `password` (UTF-8) split as the range API wants it: the 5-character prefix that is
 * sent, and the 35-character suffix that stays here. Upper-case hex.
 *
 * @example
 * pwnedHashParts("password"); // { prefix: "5BAA6", suffix: "1E4C9B93F3F0682250B6CF8331B7EE68FD8" }
 */
export function pwnedHashParts(password: string): { prefix: string; suffix: string } {
	const hash = hex(digest('sha1', password)).toUpperCase();
	return { prefix: hash.slice(0, 5), suffix: hash.slice(5) };
}

/**
 * How often the range answer `body` lists `suffix`: 0 when it does not, or lists it only as
 * padding (count 0). Malformed lines are skipped. Pure.
 *
 * @example
 * breachCount("1E4C9B93F3F0682250B6CF8331B7EE68FD8:10434004\r\n…", "1E4C9B93F3F0682250B6CF8331B7EE68FD8"); // 10434004
 */
export function breachCount(body: string, suffix: string): number {
	let count = 0;
	for (const line of body.split('\n')) {
		const match = LINE.exec(line.trim().toUpperCase());
		// every line is compared, so the time does not say where (or whether) the suffix was
		if (match && stringsEqual(match[1], suffix) && count === 0) count = Number(match[2]);
	}
	return count;
}

/**
 * Looks one password up in the range API with the `Add-Padding` header (so the answer's size
 * says nothing either). Never throws: a network error, a timeout or an answer that is not a range
 * is `unavailable`, and the caller decides (checkPassword fails open).
 *
 * @example
 * const lookup = await lookUpPwnedPassword("correct horse battery staple", {});
 * if (lookup.status === "found") console.log(`seen ${lookup.count} times in breaches`);
 */
export async function lookUpPwnedPassword(password: string, options: PwnedPasswordsOptions): Promise<PwnedLookup> {
	const { prefix, suffix } = pwnedHashParts(password);
	const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	try {
		const response = await fetch(`${options.url ?? PWNED_PASSWORDS_URL}${prefix}`, {
			headers: { 'Add-Padding': 'true', 'User-Agent': 'kitgate' },
			redirect: 'error',
			signal: AbortSignal.timeout(timeoutMs)
		});
		if (response.status !== 200) {
			await response.body?.cancel();
			return { status: 'unavailable', cause: `HTTP ${response.status}` };
		}
		const body = await response.text();
		if (body.length > MAX_ANSWER_CHARACTERS || !LINE.test(body.split('\n', 1)[0].trim().toUpperCase())) {
			return { status: 'unavailable', cause: 'the answer is not a range of hash suffixes' };
		}
		const count = breachCount(body, suffix);
		return count > 0 ? { status: 'found', count } : { status: 'not-found' };
	} catch (error) {
		const { name, message, cause } = (error ?? {}) as Error & { cause?: { code?: string } };
		if (name === 'TimeoutError') return { status: 'unavailable', cause: `no answer within ${timeoutMs} ms` };
		return { status: 'unavailable', cause: cause?.code ? `${message} (${cause.code})` : String(message ?? error) };
	}
}

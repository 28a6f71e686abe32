// TOTP (RFC 6238) as a second factor on `otpauth`: a new secret, its otpauth:// URI for
// authenticator apps, and a pure check of a code that says which time step it matched. Internal.

import { Secret, TOTP } from 'otpauth';
import { stringsEqual } from '../crypto/bytes.js';

/** Seconds per time step: the RFC's default, and the only period every authenticator app honours. */
export const TOTP_PERIOD_SECONDS = 30;
/** Digits per code: six, the only length every authenticator app honours. */
export const TOTP_DIGITS = 6;
/** 160 bits: the HMAC-SHA-1 block the RFC recommends for a key (RFC 4226 §4, R6). */
const SECRET_BYTES = 20;
/** Steps accepted either side of the server's: ±1 absorbs clock drift and typing time. */
const WINDOW = 1;
/** RFC 4648 base32 without padding, as authenticator apps read it. */
const BASE32 = /^[A-Z2-7]+$/;

/** The outcome of `verifyTotp`: the step a code matched, or why it was refused. */
export type TotpVerification =
	| { valid: true; step: number }
	| { valid: false; reason: 'malformed' | 'wrong-code' | 'replayed' };

/** Options of `verifyTotp`. */
export interface VerifyTotpOptions {
	/** Steps this account has already signed in with (the caller's store); the latest is what counts. */
	usedSteps?: Iterable<number | null | undefined>;
	/** The time to check at, in milliseconds; the server's clock by default, never the client's. */
	now?: number;
}

function totpFor(secret: string, label = 'kitgate', issuer = ''): TOTP {
	if (typeof secret !== 'string' || !BASE32.test(secret)) throw new TypeError('A TOTP secret is a base32 string (A–Z, 2–7, no padding).');
	return new TOTP({ issuer, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
}

/**
 * A new TOTP secret: 20 bytes from the system's CSPRNG, in base32 (32 characters). Store it
 * sealed (`sealTotpSecret`), never in clear.
 *
 * @example
 * const secret = generateTotpSecret(); // "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
 */
export function generateTotpSecret(): string {
	return new Secret({ size: SECRET_BYTES }).base32;
}

/**
 * The `otpauth://totp/…` URI an authenticator app scans (SHA-1, 6 digits, 30 seconds). `issuer`
 * is the site's name and `accountName` the user's (an email address); neither may hold a colon,
 * which the URI format uses to separate them.
 *
 * @example
 * totpKeyUri({ secret, issuer: "Example Shop", accountName: "ann@example.com" });
 * // "otpauth://totp/Example%20Shop:ann%40example.com?issuer=Example%20Shop&secret=…&algorithm=SHA1&digits=6&period=30"
 */
export function totpKeyUri(options: { secret: string; issuer: string; accountName: string }): string {
	const { secret, issuer, accountName } = options;
	for (const [name, value] of [['issuer', issuer], ['accountName', accountName]] as const) {
		if (typeof value !== 'string' || value.trim() === '' || value.includes(':')) {
			throw new TypeError(`totpKeyUri: ${name} must be a non-empty string without ":".`);
		}
	}
	return totpFor(secret, accountName, issuer).toString();
}

/**
 * The time step at `now` (milliseconds): the counter RFC 6238 feeds to HOTP.
 *
 * @example
 * totpStep(Date.UTC(2026, 0, 1)); // 58908240
 */
export function totpStep(now: number = Date.now()): number {
	return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now });
}

/**
 * The code of `secret` for one time step. For tests and tools; sign-ins use `verifyTotp`.
 *
 * @example
 * totpCode(secret, totpStep()); // "492039"
 */
export function totpCode(secret: string, step: number): string {
	return totpFor(secret).generate({ timestamp: step * TOTP_PERIOD_SECONDS * 1000 });
}

/** The latest of the used steps; entries that are not numbers (a new account's `undefined`) count as none. */
function latestStep(usedSteps: Iterable<number | null | undefined> | undefined): number {
	let latest = -Infinity;
	for (const step of usedSteps ?? []) if (typeof step === 'number' && Number.isFinite(step) && step > latest) latest = step;
	return latest;
}

/**
 * Checks a typed code against the steps before, at and after `now`, each in constant time and
 * all three always, and says which step it matched. A code whose step is at or before the latest
 * of `usedSteps` is refused as `replayed` (RFC 6238 §5.2: a code is accepted once), so store the
 * returned `step` for the account when the sign-in succeeds. Spaces in the code are ignored.
 * Pure: no clock but `now`, no store. Throws only for a secret that is not base32 (a bug).
 *
 * @example
 * const result = verifyTotp(form.code, secret, { usedSteps: [user.lastTotpStep] });
 * if (result.valid) await db.users.update(user.id, { lastTotpStep: result.step });
 */
export function verifyTotp(code: string, secret: string, options: VerifyTotpOptions = {}): TotpVerification {
	const totp = totpFor(secret);
	const typed = typeof code === 'string' ? code.replace(/\s+/g, '') : '';
	if (!/^\d+$/.test(typed) || typed.length !== TOTP_DIGITS) return { valid: false, reason: 'malformed' };
	const current = totpStep(options.now);
	const latestUsed = latestStep(options.usedSteps);
	let fresh: number | undefined;
	let replayed = false;
	// no early exit: every candidate is computed and compared, whatever matched before
	for (let step = current - WINDOW; step <= current + WINDOW; step++) {
		const matches = stringsEqual(typed, totp.generate({ timestamp: step * TOTP_PERIOD_SECONDS * 1000 }));
		if (matches && step > latestUsed) fresh ??= step;
		else if (matches) replayed = true;
	}
	if (fresh !== undefined) return { valid: true, step: fresh };
	return { valid: false, reason: replayed ? 'replayed' : 'wrong-code' };
}

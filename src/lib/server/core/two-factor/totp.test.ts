import { TOTP, URI } from 'otpauth';
import { describe, expect, test } from 'vitest';
import { generateTotpSecret, totpCode, totpKeyUri, totpStep, TOTP_PERIOD_SECONDS, verifyTotp } from './totp.js';

/** RFC 6238 appendix B's SHA-1 key, "12345678901234567890", in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const OTHER_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const NOW = Date.UTC(2026, 5, 1, 12, 0, 10);

/** The code `secret` shows `steps` time steps away from NOW. */
const codeAt = (secret: string, steps: number) => totpCode(secret, totpStep(NOW) + steps);

describe('generateTotpSecret', () => {
	test('20 random bytes from the CSPRNG in base32: 32 characters, different every time', () => {
		const secrets = Array.from({ length: 50 }, generateTotpSecret);
		for (const secret of secrets) expect(secret).toMatch(/^[A-Z2-7]{32}$/);
		expect(new Set(secrets).size).toBe(50);
		expect(URI.parse(totpKeyUri({ secret: secrets[0], issuer: 'Shop', accountName: 'ann' })).secret.bytes.length).toBe(20);
	});
});

describe('totpKeyUri', () => {
	test('the otpauth:// URI an authenticator app reads: label, issuer, secret, SHA1, 6 digits, 30 s', () => {
		const secret = generateTotpSecret();
		const uri = totpKeyUri({ secret, issuer: 'Example Shop', accountName: 'ann@example.com' });
		expect(uri.startsWith('otpauth://totp/Example%20Shop:ann%40example.com?')).toBe(true);
		const url = new URL(uri);
		expect(Object.fromEntries(url.searchParams)).toEqual({ issuer: 'Example Shop', secret, algorithm: 'SHA1', digits: '6', period: '30' });
		const parsed = URI.parse(uri) as TOTP;
		expect(parsed).toBeInstanceOf(TOTP);
		expect([parsed.issuer, parsed.label, parsed.secret.base32, parsed.digits, parsed.period]).toEqual(['Example Shop', 'ann@example.com', secret, 6, 30]);
	});

	test('characters that mean something in a URI are escaped, and a colon (the separator) is refused', () => {
		const uri = totpKeyUri({ secret: RFC_SECRET, issuer: 'A&B ?Shop#', accountName: 'ann+x@example.com' });
		expect((URI.parse(uri) as TOTP).issuer).toBe('A&B ?Shop#');
		expect((URI.parse(uri) as TOTP).label).toBe('ann+x@example.com');
		expect(() => totpKeyUri({ secret: RFC_SECRET, issuer: 'Shop: EU', accountName: 'ann' })).toThrow(TypeError);
		expect(() => totpKeyUri({ secret: RFC_SECRET, issuer: 'Shop', accountName: 'a:b' })).toThrow(TypeError);
		expect(() => totpKeyUri({ secret: RFC_SECRET, issuer: ' ', accountName: 'ann' })).toThrow(TypeError);
		expect(() => totpKeyUri({ secret: 'not base32!', issuer: 'Shop', accountName: 'ann' })).toThrow(TypeError);
	});
});

describe('totpCode', () => {
	test('RFC 6238 appendix B test vectors (SHA-1), last six digits', () => {
		const vectors: [number, string][] = [
			[59, '287082'],
			[1111111109, '081804'],
			[1111111111, '050471'],
			[1234567890, '005924'],
			[2000000000, '279037'],
			[20000000000, '353130']
		];
		for (const [seconds, code] of vectors) expect(totpCode(RFC_SECRET, totpStep(seconds * 1000))).toBe(code);
	});

	test('a step is 30 seconds of Unix time', () => {
		expect(totpStep(0)).toBe(0);
		expect(totpStep(29_999)).toBe(0);
		expect(totpStep(30_000)).toBe(1);
		expect(TOTP_PERIOD_SECONDS).toBe(30);
	});
});

describe('verifyTotp', () => {
	test('the current code is accepted and reports the step it matched', () => {
		const secret = generateTotpSecret();
		expect(verifyTotp(codeAt(secret, 0), secret, { now: NOW })).toEqual({ valid: true, step: totpStep(NOW) });
	});

	test('a window of ±1 step: the previous and next codes pass with their own step, ±2 are wrong codes', () => {
		const secret = RFC_SECRET;
		const step = totpStep(NOW);
		expect(verifyTotp(codeAt(secret, -1), secret, { now: NOW })).toEqual({ valid: true, step: step - 1 });
		expect(verifyTotp(codeAt(secret, 1), secret, { now: NOW })).toEqual({ valid: true, step: step + 1 });
		for (const steps of [-2, 2, -20]) expect(verifyTotp(codeAt(secret, steps), secret, { now: NOW })).toEqual({ valid: false, reason: 'wrong-code' });
	});

	test('a TOTP code is accepted once: its step, or an earlier one, is refused as replayed', () => {
		// a fixed secret: with a random one, two neighbouring steps could (once in a million) share a code
		const secret = OTHER_SECRET;
		const step = totpStep(NOW);
		const first = verifyTotp(codeAt(secret, 0), secret, { now: NOW });
		expect(first).toEqual({ valid: true, step });
		// the same code again, within the same step or the next
		expect(verifyTotp(codeAt(secret, 0), secret, { now: NOW, usedSteps: [step] })).toEqual({ valid: false, reason: 'replayed' });
		expect(verifyTotp(codeAt(secret, 0), secret, { now: NOW + 30_000, usedSteps: [step] })).toEqual({ valid: false, reason: 'replayed' });
		// an older code still inside the window, seen after a newer one was used
		expect(verifyTotp(codeAt(secret, -1), secret, { now: NOW, usedSteps: [step] })).toEqual({ valid: false, reason: 'replayed' });
		// the next step's code is new
		expect(verifyTotp(codeAt(secret, 1), secret, { now: NOW, usedSteps: [step - 5, step] })).toEqual({ valid: true, step: step + 1 });
	});

	test('a TOTP code lives 30 seconds, plus one step either side for clock drift: never longer', () => {
		const secret = RFC_SECRET;
		const code = codeAt(secret, 0);
		const start = totpStep(NOW) * 30_000;
		expect(verifyTotp(code, secret, { now: start - 30_000 }).valid).toBe(true);
		expect(verifyTotp(code, secret, { now: start + 59_999 }).valid).toBe(true);
		for (const now of [start - 30_001, start + 60_000]) expect(verifyTotp(code, secret, { now })).toEqual({ valid: false, reason: 'wrong-code' });
	});

	test('used steps that are not numbers (a new account) count as none', () => {
		const secret = generateTotpSecret();
		expect(verifyTotp(codeAt(secret, 0), secret, { now: NOW, usedSteps: [undefined, null, Number.NaN] }).valid).toBe(true);
	});

	test('spaces are ignored; anything but six ASCII digits is malformed, never a throw', () => {
		const secret = RFC_SECRET;
		const code = codeAt(secret, 0);
		expect(verifyTotp(`${code.slice(0, 3)} ${code.slice(3)}`, secret, { now: NOW }).valid).toBe(true);
		expect(verifyTotp(` ${code}\n`, secret, { now: NOW }).valid).toBe(true);
		const fullWidth = [...code].map((digit) => String.fromCharCode(0xff10 + Number(digit))).join('');
		for (const typed of ['', code.slice(1), `${code}0`, 'abcdef', fullWidth, '12345e', '-12345', undefined, 123456, ['123456']]) {
			expect(verifyTotp(typed as string, secret, { now: NOW })).toEqual({ valid: false, reason: 'malformed' });
		}
	});

	test('a stored secret that is not base32 is a bug: it throws', () => {
		expect(() => verifyTotp('123456', 'abc$', { now: NOW })).toThrow(TypeError);
	});
});

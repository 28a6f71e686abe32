import { describe, expect, test } from 'vitest';
import { generateRecoveryCodes, normalizeRecoveryCode, RECOVERY_CODE_COUNT, verifyRecoveryCode } from './recovery-codes.js';

const SECRET = 'recovery-code-test-secret-0123456789abc';
const OTHER_SECRET = 'another-secret-0123456789abcdefghijklmn';

describe('generateRecoveryCodes', () => {
	test('ten distinct codes of 12 Crockford base32 characters (60 bits each), written xxxx-xxxx-xxxx', () => {
		const { codes, hashes } = generateRecoveryCodes({ secret: SECRET });
		expect(RECOVERY_CODE_COUNT).toBe(10);
		expect(codes).toHaveLength(10);
		expect(new Set(codes).size).toBe(10);
		for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$/);
		// 32 symbols ^ 12 characters
		expect(12 * Math.log2(32)).toBeGreaterThanOrEqual(50);
		expect(hashes).toHaveLength(10);
	});

	test('recovery codes are stored only as keyed hashes: no code appears in what is stored', () => {
		const { codes, hashes } = generateRecoveryCodes({ secret: SECRET });
		for (const hash of hashes) expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
		const stored = JSON.stringify(hashes);
		for (const code of codes) {
			expect(stored).not.toContain(code);
			expect(stored).not.toContain(code.replace(/-/g, ''));
		}
		// the same codes under another secret hash differently (a keyed hash, not a plain digest)
		expect(verifyRecoveryCode(codes[0], hashes, { secret: OTHER_SECRET }).valid).toBe(false);
	});

	test('every character of the alphabet is used, near evenly (CSPRNG, no modulo bias)', () => {
		const counts = new Map<string, number>();
		for (let i = 0; i < 40; i++) {
			for (const code of generateRecoveryCodes({ secret: SECRET, count: 100 }).codes) {
				for (const character of code.replace(/-/g, '')) counts.set(character, (counts.get(character) ?? 0) + 1);
			}
		}
		// 48,000 characters over 32 symbols: 1,500 each expected
		expect(counts.size).toBe(32);
		for (const count of counts.values()) expect(count).toBeGreaterThan(1_300);
	});

	test('a count outside 1..100 or no secret is a bug: it throws', () => {
		for (const count of [0, -1, 1.5, 101]) expect(() => generateRecoveryCodes({ secret: SECRET, count })).toThrow(RangeError);
		expect(() => generateRecoveryCodes({ secret: '' })).toThrow(TypeError);
	});
});

describe('normalizeRecoveryCode', () => {
	test('case, spaces and dashes do not matter; i, l, o read as 1, 1, 0', () => {
		expect(normalizeRecoveryCode(' K7M2-9XQ4-AB3D ')).toBe('k7m29xq4ab3d');
		expect(normalizeRecoveryCode('k7m2 9xq4 ab3d')).toBe('k7m29xq4ab3d');
		expect(normalizeRecoveryCode('k7m2--9xq4\tab3d')).toBe('k7m29xq4ab3d');
		expect(normalizeRecoveryCode('OIL0-0000-0000')).toBe('011000000000');
	});

	test('anything else is not a code', () => {
		for (const input of ['', 'k7m2-9xq4-ab3', 'k7m2-9xq4-ab3d-e', 'u7m2-9xq4-ab3d', 'k7m2_9xq4_ab3d', 'ｋ7m2-9xq4-ab3d', 'x'.repeat(65), undefined, 42]) {
			expect(normalizeRecoveryCode(input as string)).toBeUndefined();
		}
	});
});

describe('verifyRecoveryCode', () => {
	test('a recovery code signs in once: the match is removed from what is stored, and how many remain is told', () => {
		const { codes, hashes } = generateRecoveryCodes({ secret: SECRET });
		const first = verifyRecoveryCode(codes[3], hashes, { secret: SECRET });
		expect(first).toEqual({ valid: true, index: 3, remainingHashes: hashes.filter((_, i) => i !== 3), remaining: 9 });
		if (!first.valid) throw new Error('unreachable');
		expect(verifyRecoveryCode(codes[3], first.remainingHashes, { secret: SECRET })).toEqual({ valid: false, reason: 'no-match', remaining: 9 });
		let stored = first.remainingHashes;
		for (const code of codes.filter((_, i) => i !== 3)) {
			const result = verifyRecoveryCode(code, stored, { secret: SECRET });
			if (!result.valid) throw new Error(`code ${code} refused`);
			stored = result.remainingHashes;
		}
		expect(stored).toEqual([]);
		expect(verifyRecoveryCode(codes[0], stored, { secret: SECRET })).toEqual({ valid: false, reason: 'no-match', remaining: 0 });
	});

	test('a code typed in capitals, with spaces or without dashes is the same code', () => {
		const { codes, hashes } = generateRecoveryCodes({ secret: SECRET });
		for (const typed of [codes[0].toUpperCase(), codes[0].replace(/-/g, ' '), codes[0].replace(/-/g, ''), ` ${codes[0]} `]) {
			expect(verifyRecoveryCode(typed, hashes, { secret: SECRET })).toMatchObject({ valid: true, index: 0 });
		}
	});

	test('a wrong or malformed code is refused without a throw, and the count stays', () => {
		const { hashes } = generateRecoveryCodes({ secret: SECRET });
		expect(verifyRecoveryCode('0000-0000-0000', hashes, { secret: SECRET })).toEqual({ valid: false, reason: 'no-match', remaining: 10 });
		expect(verifyRecoveryCode('nope', hashes, { secret: SECRET })).toEqual({ valid: false, reason: 'malformed', remaining: 10 });
		expect(verifyRecoveryCode(undefined as unknown as string, hashes, { secret: SECRET })).toMatchObject({ valid: false, reason: 'malformed' });
		expect(verifyRecoveryCode('0000-0000-0000', null as unknown as string[], { secret: SECRET })).toEqual({ valid: false, reason: 'no-match', remaining: 0 });
		const withJunk = [42, ...hashes, null] as unknown as string[];
		expect(verifyRecoveryCode('0000-0000-0000', withJunk, { secret: SECRET }).remaining).toBe(10);
	});

	test('a secret rotation: codes hashed under the old secret still verify while it stays in the list', () => {
		const { codes, hashes } = generateRecoveryCodes({ secret: OTHER_SECRET });
		expect(verifyRecoveryCode(codes[1], hashes, { secret: [SECRET, OTHER_SECRET] })).toMatchObject({ valid: true, index: 1, remaining: 9 });
		expect(verifyRecoveryCode(codes[1], hashes, { secret: SECRET }).valid).toBe(false);
	});
});

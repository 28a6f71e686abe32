import { describe, expect, test } from 'vitest';
import { hashPassword, verifyPassword } from './password-hashing.js';

describe('hashPassword / verifyPassword', () => {
	test('a hash verifies its password and no other; two hashes of one password differ (salt)', async () => {
		const hash = await hashPassword('correct horse');
		expect(hash).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]{43}$/);
		expect(hash).not.toContain('correct');
		expect(await verifyPassword('correct horse', hash)).toBe(true);
		expect(await verifyPassword('correct hors', hash)).toBe(false);
		expect(await verifyPassword('', hash)).toBe(false);
		expect(await hashPassword('correct horse')).not.toBe(hash);
	});

	test('a password is verified as typed: no truncation of long passwords, no change of case', async () => {
		const long = 'x'.repeat(199);
		const hash = await hashPassword(`${long}A`);
		expect(await verifyPassword(`${long}A`, hash)).toBe(true);
		// bcrypt would have stopped at 72 bytes; scrypt reads every byte
		expect(await verifyPassword(`${long}B`, hash)).toBe(false);
		expect(await verifyPassword(`${long}a`, hash)).toBe(false);
		expect(await verifyPassword(long, hash)).toBe(false);
	});

	test('unicode is compared after NFKC normalisation', async () => {
		const hash = await hashPassword('café');
		expect(await verifyPassword('cafe\u0301', hash)).toBe(true);
	});

	test('no stored hash (unknown user), a malformed or an over-costly one: false, never a throw', async () => {
		for (const stored of [undefined, null, '', 'plain-text', 'scrypt$15$8$1$abc$def', 'scrypt$30$8$1$AAAAAAAAAAA$' + 'A'.repeat(43), 'bcrypt$2b$10$x']) {
			expect(await verifyPassword('anything', stored)).toBe(false);
		}
		expect(await verifyPassword(undefined as unknown as string, await hashPassword(''))).toBe(false);
	});

});

// scrypt password hashes: what verifies, what never throws, the same bytes on both scrypt paths
// (node:crypto's and @noble/hashes'), and a cost of the app's choosing (passwordHashing).

import { afterEach, describe, expect, test, vi } from 'vitest';
import { hashPassword, passwordHashing, verifyPassword } from './password-hashing.js';

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

describe("passwordHashing: a cost of the app's choosing", () => {
	afterEach(() => vi.unstubAllGlobals());

	test('hashes carry their cost; each cost verifies the others\' hashes; needsRehash names the hashes of another cost', async () => {
		const low = passwordHashing({ logN: 10 });
		const hash = await low.hashPassword('correct horse');
		expect(hash).toMatch(/^scrypt\$10\$8\$1\$/);
		expect(await low.verifyPassword('correct horse', hash)).toBe(true);
		// the stored cost decides, whoever checks: an app moving between costs keeps its users
		expect(await verifyPassword('correct horse', hash)).toBe(true);
		expect(await low.verifyPassword('correct horse', await hashPassword('correct horse'))).toBe(true);
		expect(low.needsRehash(hash)).toBe(false);
		expect(passwordHashing().needsRehash(hash)).toBe(true);
		expect(low.needsRehash('not a hash')).toBe(true);
	});

	test('a cost outside 10–20 is a RangeError; a stored hash below 2^10 is no hash', async () => {
		for (const logN of [9, 21, 15.5, Number.NaN]) expect(() => passwordHashing({ logN })).toThrow(RangeError);
		const weak = (await passwordHashing({ logN: 10 }).hashPassword('pw')).replace('scrypt$10$', 'scrypt$4$');
		expect(await verifyPassword('pw', weak)).toBe(false);
	});

	test('an unknown user is hashed at the cost of this hashing, not the default one (the decoy follows the cost)', async () => {
		// a node:crypto that records the N it is asked for (this module's unit test: scrypt's cost is what is checked)
		const asked: number[] = [];
		const recording = { scrypt: (_p: unknown, _s: unknown, length: number, options: { N: number }, done: (error: null, key: Uint8Array) => void) => (asked.push(options.N), done(null, new Uint8Array(length))) };
		vi.stubGlobal('process', { ...process, getBuiltinModule: (id: string) => (id === 'node:crypto' ? recording : undefined) });
		await passwordHashing({ logN: 10 }).verifyPassword('x', undefined);
		await passwordHashing({ logN: 12 }).verifyPassword('x', 'not a hash');
		await verifyPassword('x', null);
		expect(asked).toEqual([2 ** 10, 2 ** 12, 2 ** 15]);
	});

	test('without node:crypto (a Worker without nodejs_compat) @noble/hashes makes the same hash', async () => {
		const hash = await hashPassword('the same bytes');
		vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
		expect(await verifyPassword('the same bytes', hash)).toBe(true);
		expect(await verifyPassword('other bytes', hash)).toBe(false);
		const portable = await passwordHashing({ logN: 10 }).hashPassword('made without node');
		vi.unstubAllGlobals();
		expect(await verifyPassword('made without node', portable)).toBe(true);
	});
});

// The JWE code must be interchangeable with jose on both of its paths (node:crypto, and Web Crypto
// as on Workers): tokens cross-decrypt every way, and every tampered or non-standard token is refused.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { CompactEncrypt, EncryptJWT, compactDecrypt, jwtDecrypt } from 'jose';
import { decryptJwe, encryptJwe, readJweHeader } from './jwe.js';
import { useCryptoPath } from './node-crypto.js';
import { deriveKey } from './jwt.js';

const { key } = deriveKey('jwe-sync-test-secret-jwe-sync-test-secret', 'kitgate.session-token');
const { key: otherKey } = deriveKey('another-secret-another-secret-another-secret', 'kitgate.session-token');

function flip(segment: string): string {
	const bytes = Buffer.from(segment, 'base64url');
	bytes[bytes.length - 1] ^= 0x01;
	return bytes.toString('base64url');
}

function withSegment(token: string, index: number, value: string): string {
	const parts = token.split('.');
	parts[index] = value;
	return parts.join('.');
}

describe.each(['auto', 'portable'] as const)('%s path', (path) => {
	beforeAll(() => useCryptoPath(path));
	afterAll(() => useCryptoPath('auto'));

	describe('the encryption context kept open across tokens', () => {
		test('every token, whatever its length (all paddings 1 to 16, multi-byte text), decrypts with jose in order made', async () => {
			const payloads = Array.from({ length: 40 }, (_, i) => ({ n: i, text: 'é'.repeat(i) + 'x'.repeat(i % 7) }));
			const tokens = await Promise.all(payloads.map(async (payload) => encryptJwe(payload, key, { kid: 'k' })));
			// decrypted out of order and one by one: no token depends on another
			for (const index of [39, 0, 17, 3, 38, 1]) expect((await jwtDecrypt(tokens[index], key)).payload).toEqual(payloads[index]);
			for (const [index, token] of tokens.entries()) expect(await decryptJwe(token, key)).toEqual(payloads[index]);
		});

		test('the same payload twice: another IV and another ciphertext each time; IVs never repeat', async () => {
			const ivs = new Set<string>();
			let previous = '';
			for (let i = 0; i < 500; i++) {
				const token = await encryptJwe({ sub: 'same' }, key);
				const [, , iv, ciphertext] = token.split('.');
				expect(ivs.has(iv)).toBe(false);
				ivs.add(iv);
				expect(ciphertext).not.toBe(previous);
				previous = ciphertext;
			}
		});

		test("an IV is not the previous token's last ciphertext block (nothing a reader of one token can predict)", async () => {
			const first = (await encryptJwe({ sub: 'a' }, key)).split('.');
			const second = (await encryptJwe({ sub: 'b' }, key)).split('.');
			const lastBlock = Buffer.from(first[3], 'base64url').subarray(-16).toString('base64url');
			expect(second[2]).not.toBe(lastBlock);
		});

		test('two keys keep contexts of their own: tokens of one never decrypt under the other', async () => {
			const mine = await encryptJwe({ sub: 'mine' }, key);
			const theirs = await encryptJwe({ sub: 'theirs' }, otherKey);
			expect(await decryptJwe(mine, otherKey)).toBeNull();
			expect(await decryptJwe(theirs, key)).toBeNull();
			expect(await decryptJwe(mine, key)).toEqual({ sub: 'mine' });
		});
	});

	describe('interoperability with jose', () => {
		test('a token made by jose decrypts synchronously', async () => {
			const token = await new EncryptJWT({ sub: 'u1', name: 'Ada' })
				.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512', kid: 'k1' })
				.setIssuedAt()
				.encrypt(key);
			expect(await decryptJwe(token, key)).toMatchObject({ sub: 'u1', name: 'Ada' });
		});

		test('a token made synchronously decrypts with jose', async () => {
			const token = await encryptJwe({ sub: 'u2', roles: ['a', 'b'] }, key, { kid: 'k2' });
			const { payload, protectedHeader } = await jwtDecrypt(token, key);
			expect(payload).toEqual({ sub: 'u2', roles: ['a', 'b'] });
			expect(protectedHeader).toEqual({ alg: 'dir', enc: 'A256CBC-HS512', kid: 'k2' });
		});

		test('any JSON payload round-trips both ways (property)', async () => {
			await fc.assert(
				fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), async (payload) => {
					const ours = await encryptJwe(payload, key);
					const { plaintext } = await compactDecrypt(ours, key);
					expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual(JSON.parse(JSON.stringify(payload)));
					const theirs = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
						.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' })
						.encrypt(key);
					expect(await decryptJwe(theirs, key)).toEqual(JSON.parse(JSON.stringify(payload)));
				}),
				{ numRuns: 100 }
			);
		});
	});

	describe('tampering is refused by both implementations', () => {
		const cases: [string, (token: string) => string][] = [
			['tag', (t) => withSegment(t, 4, flip(t.split('.')[4]))],
			['ciphertext', (t) => withSegment(t, 3, flip(t.split('.')[3]))],
			['iv', (t) => withSegment(t, 2, flip(t.split('.')[2]))],
			['header (kid changed)', (t) => withSegment(t, 0, Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256CBC-HS512', kid: 'x' })).toString('base64url'))],
			['encrypted key not empty', (t) => withSegment(t, 1, 'AAAA')],
			['tag truncated', (t) => withSegment(t, 4, t.split('.')[4].slice(0, 20))],
			['segment missing', (t) => t.split('.').slice(0, 4).join('.')],
			['ciphertext emptied', (t) => withSegment(t, 3, '')]
		];
		test.each(cases)('%s', async (_name, tamper) => {
			const token = tamper(await encryptJwe({ sub: 'u1' }, key, { kid: 'k' }));
			expect(await decryptJwe(token, key)).toBeNull();
			await expect(jwtDecrypt(token, key)).rejects.toThrow();
		});

		test('another key is refused', async () => {
			expect(await decryptJwe(await encryptJwe({ sub: 'u1' }, key), otherKey)).toBeNull();
		});

		test('headers that change processing (zip, crit, other alg/enc) are refused', async () => {
			const zipped = await new CompactEncrypt(new TextEncoder().encode('{"a":1}'))
				.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512', zip: 'DEF' } as never)
				.encrypt(key);
			expect(readJweHeader(zipped)).toBeNull();
			expect(await decryptJwe(zipped, key)).toBeNull();
			const gcm = await new CompactEncrypt(new TextEncoder().encode('{"a":1}'))
				.setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
				.encrypt(key.subarray(0, 32));
			expect(await decryptJwe(gcm, key)).toBeNull();
			expect(readJweHeader(Buffer.from('{"alg":"dir","enc":"A256CBC-HS512","crit":["x"],"x":1}').toString('base64url') + '....')).toBeNull();
		});

		test('garbage never throws', async () => {
			for (const garbage of ['', '.', '....', 'a.b.c.d.e', '%%%.%%.%%.%%.%%', 'x'.repeat(10_000), 'eyJhbGciOiJkaXIifQ....']) {
				expect(await decryptJwe(garbage, key)).toBeNull();
			}
		});

		test('non-canonical base64url (trailing bits) is refused, as jose does', async () => {
			const token = await encryptJwe({ sub: 'u1' }, key);
			const iv = token.split('.')[2];
			// 16 bytes encode to 22 chars with 4 spare bits: set one of them
			const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
			const changed = iv.slice(0, -1) + last[(last.indexOf(iv.at(-1)!) | 1) % 64];
			if (changed !== iv) {
				const variant = withSegment(token, 2, changed);
				expect(await decryptJwe(variant, key)).toBeNull();
			}
		});
	});
});

// Hashes, HMACs and HKDF give node:crypto's bytes on both paths (node:crypto itself, and
// `@noble/hashes` as on Workers), for text and bytes, ASCII and not.

import { createHash, createHmac, hkdfSync } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { hex } from './bytes.js';
import { digest, hkdfSha256, hmac } from './hash.js';
import { useCryptoPath } from './node-crypto.js';

afterEach(() => useCryptoPath('auto'));

describe.each(['auto', 'portable'] as const)('%s path', (path) => {
	test('digests are node:crypto\'s, for SHA-1, SHA-256 and SHA-512, text and bytes, in parts', () => {
		useCryptoPath(path);
		fc.assert(
			fc.property(fc.constantFrom('sha1', 'sha256', 'sha512' as const), fc.string(), fc.uint8Array(), (name, text, bytes) => {
				const expected = createHash(name).update(text).update(bytes).digest('hex');
				return hex(digest(name, text, bytes)) === expected;
			})
		);
	});

	test('HMACs are createHmac\'s with the secret string, including non-ASCII secrets; different secrets differ', () => {
		useCryptoPath(path);
		for (const secret of ['kitgate-test-secret-0123456789abcdefghij', 'ünïcödé-secret-with-more-than-32-chars-ok', 'x'.repeat(200)]) {
			for (const name of ['sha1', 'sha256', 'sha512'] as const) {
				const message = `message for ${secret.length}`;
				expect(hex(hmac(name, secret, message))).toBe(createHmac(name, secret).update(message).digest('hex'));
				expect(hex(hmac(name, secret, 'mess', 'age'))).toBe(createHmac(name, secret).update('message').digest('hex'));
			}
		}
		const key = new Uint8Array([1, 2, 3]);
		expect(hex(hmac('sha256', key, 'm'))).toBe(createHmac('sha256', key).update('m').digest('hex'));
		expect(hex(hmac('sha256', 'secret-a-0123456789abcdefghijklmnopq', 'm'))).not.toBe(hex(hmac('sha256', 'secret-b-0123456789abcdefghijklmnopq', 'm')));
	});

	test('HKDF-SHA256 is hkdfSync\'s', () => {
		useCryptoPath(path);
		for (const length of [16, 32, 64]) {
			const expected = Buffer.from(hkdfSync('sha256', 'the secret', 'the salt', 'the info (é)', length)).toString('hex');
			expect(hex(hkdfSha256('the secret', 'the salt', 'the info (é)', length))).toBe(expected);
		}
	});
});

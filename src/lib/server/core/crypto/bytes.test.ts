// Bytes and their text forms on both crypto paths (node:crypto's Buffer and the portable one):
// UTF-8, strict base64url, hex, and the comparisons that take the same time wherever they differ.

import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { base64, base64url, bytesEqual, concatBytes, fromBase64, fromBase64url, hex, stringsEqual, utf8Bytes, utf8Text } from './bytes.js';
import { useCryptoPath } from './node-crypto.js';

afterEach(() => useCryptoPath('auto'));

describe.each(['auto', 'portable'] as const)('%s path', (path) => {
	test('base64url round-trips any bytes, and only the canonical text decodes', () => {
		useCryptoPath(path);
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
				const text = base64url(bytes);
				return /^[A-Za-z0-9_-]*$/.test(text) && Buffer.from(bytes).toString('base64url') === text && bytesEqual(fromBase64url(text)!, bytes);
			})
		);
		expect([...fromBase64url('-_8')!]).toEqual([251, 255]);
		for (const text of ['-_9', '-_8=', 'a+b/', 'abcde', 'ab cd']) expect(fromBase64url(text), text).toBeNull();
	});

	test('hex and UTF-8', () => {
		useCryptoPath(path);
		expect(hex(new Uint8Array([0, 1, 171, 255]))).toBe('0001abff');
		expect(utf8Text(utf8Bytes('é ☃ 😀'))).toBe('é ☃ 😀');
		expect(() => utf8Text(new Uint8Array([0xff]))).toThrow(TypeError);
		expect(concatBytes(new Uint8Array([1]), new Uint8Array(), new Uint8Array([2, 3]))).toEqual(new Uint8Array([1, 2, 3]));
	});
});

describe('bytesEqual', () => {
	test('same bytes only', () => {
		expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
		expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
		expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).toBe(false);
	});
});

describe('stringsEqual', () => {
	test('equal strings are equal', () => {
		expect(stringsEqual('abc', 'abc')).toBe(true);
		expect(stringsEqual('', '')).toBe(true);
	});

	test('different strings of the same length are not', () => {
		expect(stringsEqual('abc', 'abd')).toBe(false);
	});

	test('strings of different lengths are not equal, and it does not throw', () => {
		expect(stringsEqual('abc', 'abcd')).toBe(false);
		expect(stringsEqual('abcd', 'abc')).toBe(false);
		expect(stringsEqual('', 'a')).toBe(false);
	});

	test('different characters differ, whatever their UTF-8 length', () => {
		expect(stringsEqual('é', 'e')).toBe(false);
	});
});

const decodeBase64 = (text: string) => fromBase64(text) ?? undefined;
const decodeBase64Url = (text: string) => fromBase64url(text) ?? undefined;

describe('standard base64 and strict base64url', () => {
	test('round trips every byte value, and lengths 0 to 5', () => {
		const all = Uint8Array.from({ length: 256 }, (_, i) => i);
		expect(decodeBase64(base64(all))).toEqual(all);
		for (let length = 0; length <= 5; length++) {
			const bytes = all.subarray(250, 250 + length);
			const text = base64(bytes);
			expect(decodeBase64(text)).toEqual(bytes);
			expect(decodeBase64Url(text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))).toEqual(bytes);
		}
		// more than one chunk of String.fromCharCode
		const large = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 31) % 256);
		expect(decodeBase64(base64(large))).toEqual(large);
	});

	test('strict: the other alphabet, wrong padding, whitespace and impossible lengths are refused', () => {
		for (const text of ['AQI', 'AQ=', 'AQ==AQ==', 'A Q I D', '-_8=', 'AQID\n']) expect(decodeBase64(text), text).toBeUndefined();
		for (const text of ['AQID+/8', 'AQ==', 'A', 'AQIDB', 'AQ ID']) expect(decodeBase64Url(text), text).toBeUndefined();
		expect(decodeBase64Url('AQID-_8')).toEqual(Uint8Array.of(1, 2, 3, 251, 255));
		expect(decodeBase64Url('')).toEqual(new Uint8Array(0));
	});
});

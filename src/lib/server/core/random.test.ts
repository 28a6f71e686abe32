import { describe, expect, test } from 'vitest';
import { randomBytesPooled, randomToken } from './random.js';

describe('random bytes from the pool', () => {
	test('tokens have the asked length and encoding, and never repeat (across refills of the 4 KB pool)', () => {
		const seen = new Set<string>();
		// 300 tokens of 32 bytes: more than two refills
		for (let i = 0; i < 300; i++) {
			const hex = randomToken(32, 'hex');
			expect(hex).toMatch(/^[0-9a-f]{64}$/);
			expect(seen.has(hex)).toBe(false);
			seen.add(hex);
		}
		expect(randomToken(16, 'base64url')).toMatch(/^[A-Za-z0-9_-]{22}$/);
	});

	test('buffers are fresh copies: changing one changes no other draw', () => {
		const first = randomBytesPooled(16);
		const copy = Buffer.from(first);
		first.fill(0);
		const second = randomBytesPooled(16);
		expect(second.equals(copy)).toBe(false);
		expect(second.equals(Buffer.alloc(16))).toBe(false);
	});

	test('bytes look uniform (a coarse check: every byte value appears, the mean is near 127.5)', () => {
		const counts = new Array<number>(256).fill(0);
		let sum = 0;
		for (let i = 0; i < 2000; i++) {
			for (const byte of randomBytesPooled(32)) {
				counts[byte]++;
				sum += byte;
			}
		}
		expect(counts.every((count) => count > 0)).toBe(true);
		expect(Math.abs(sum / 64000 - 127.5)).toBeLessThan(3);
	});

	test('more than 256 bytes at once is refused (use randomBytes)', () => {
		expect(() => randomBytesPooled(257)).toThrow(RangeError);
		expect(() => randomToken(257, 'hex')).toThrow(RangeError);
	});
});

import { describe, expect, test } from 'vitest';
import { randomInto, randomToken } from './random.js';

function drawn(size: number): Buffer {
	const buffer = Buffer.alloc(size);
	randomInto(buffer, 0, size);
	return buffer;
}

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

	test('bytes are written where asked, and each draw is new', () => {
		const target = Buffer.alloc(48);
		randomInto(target, 16, 16);
		expect(target.subarray(0, 16).equals(Buffer.alloc(16))).toBe(true);
		expect(target.subarray(32).equals(Buffer.alloc(16))).toBe(true);
		expect(target.subarray(16, 32).equals(Buffer.alloc(16))).toBe(false);
		expect(drawn(16).equals(target.subarray(16, 32))).toBe(false);
	});

	test('bytes look uniform (a coarse check: every byte value appears, the mean is near 127.5)', () => {
		const counts = new Array<number>(256).fill(0);
		let sum = 0;
		for (let i = 0; i < 2000; i++) {
			for (const byte of drawn(32)) {
				counts[byte]++;
				sum += byte;
			}
		}
		expect(counts.every((count) => count > 0)).toBe(true);
		expect(Math.abs(sum / 64000 - 127.5)).toBeLessThan(3);
	});

	test('more than 256 bytes at once is refused (use randomBytes)', () => {
		expect(() => randomInto(Buffer.alloc(300), 0, 257)).toThrow(RangeError);
		// a negative or fractional size would hand out bytes twice
		for (const size of [0, -16, 1.5, Number.NaN]) expect(() => randomToken(size, 'hex')).toThrow(RangeError);
		expect(() => randomToken(257, 'hex')).toThrow(RangeError);
	});
});

// Random bytes for tokens, ids and IVs, the same on every runtime: Web Crypto's CSPRNG
// (`crypto.getRandomValues`) refills a 4 KB pool, as Node's own `randomUUID` does, so hot paths
// (CSRF tokens, JWE IVs) do not ask the system for a few bytes at a time. Each byte is used once.
// The pool is made and filled on first use: a Worker forbids randomness at module load.

import { base64url, hex } from './bytes.js';

const POOL_BYTES = 4096;
let pool: Uint8Array<ArrayBuffer> | undefined;
let offset = POOL_BYTES;

/** A draw is a whole number of bytes from 1 to 256 (a larger one: `randomBytes`). */
function checkSize(size: number): void {
	if (!Number.isInteger(size) || size < 1 || size > 256) throw new RangeError(`A draw from the random pool is 1 to 256 whole bytes; got ${size}.`);
}

/** Moves the pool on by `size` bytes (refilled when too few are left) and returns them (a view, zeroed by the caller). */
function take(size: number): Uint8Array {
	if (!pool) pool = new Uint8Array(POOL_BYTES);
	if (offset + size > POOL_BYTES) {
		crypto.getRandomValues(pool);
		offset = 0;
	}
	const drawn = pool.subarray(offset, offset + size);
	offset += size;
	return drawn;
}

/**
 * `size` fresh random bytes (1 to 256) written as text (`hex` or `base64url`).
 *
 * @example
 * const token = randomToken(32, 'hex'); // 64 hex digits
 */
export function randomToken(size: number, encoding: 'hex' | 'base64url'): string {
	checkSize(size);
	const drawn = take(size);
	const text = encoding === 'hex' ? hex(drawn) : base64url(drawn);
	drawn.fill(0);
	return text;
}

/**
 * Writes `size` fresh random bytes (1 to 256) into `target` at `offset`.
 *
 * @example
 * randomInto(block, 0, 16);
 */
export function randomInto(target: Uint8Array, offset: number, size: number): void {
	checkSize(size);
	const drawn = take(size);
	target.set(drawn, offset);
	drawn.fill(0);
}

/**
 * `size` fresh random bytes in an array of their own (any size).
 *
 * @example
 * const salt = randomBytes(16);
 */
export function randomBytes(size: number): Uint8Array<ArrayBuffer> {
	const bytes = new Uint8Array(size);
	// getRandomValues fills at most 65,536 bytes per call
	for (let start = 0; start < size; start += 65_536) crypto.getRandomValues(bytes.subarray(start, start + 65_536));
	return bytes;
}

/**
 * A uniformly random whole number from 0 to `max - 1` (`max` from 1 to 2^32), without modulo bias.
 *
 * @example
 * const digit = randomInt(10);
 */
export function randomInt(max: number): number {
	if (!Number.isInteger(max) || max < 1 || max > 2 ** 32) throw new RangeError(`randomInt takes a whole number from 1 to 2^32; got ${max}.`);
	// values at or above the largest multiple of max below 2^32 are drawn again
	const limit = 2 ** 32 - (2 ** 32 % max);
	const word = new Uint32Array(1);
	for (;;) {
		crypto.getRandomValues(word);
		if (word[0] < limit) return word[0] % max;
	}
}

/**
 * A random UUID (version 4), from the runtime's Web Crypto.
 *
 * @example
 * const id = randomUuid();
 */
export function randomUuid(): string {
	return crypto.randomUUID();
}

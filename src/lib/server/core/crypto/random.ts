// Random bytes for tokens made on hot paths (CSRF tokens, session ids, JWE IVs): drawn from a pool
// that node:crypto's CSPRNG refills 4 KB at a time, as Node's own `randomUUID` does. Each byte is used once.

import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let offset = POOL_BYTES;

/** A draw is a whole number of bytes from 1 to 256 (a larger one: `randomBytes`). */
function checkSize(size: number): void {
	if (!Number.isInteger(size) || size < 1 || size > 256) throw new RangeError(`A draw from the random pool is 1 to 256 whole bytes; got ${size}.`);
}

/** Moves the pool on by `size` bytes (refilled when too few are left) and returns where they start. */
function take(size: number): number {
	if (offset + size > POOL_BYTES) {
		randomFillSync(pool);
		offset = 0;
	}
	const start = offset;
	offset += size;
	return start;
}

/**
 * `size` fresh random bytes written as text (`hex` or `base64url`).
 *
 * @example
 * const token = randomToken(32, 'hex'); // 64 hex digits
 */
export function randomToken(size: number, encoding: 'hex' | 'base64url'): string {
	checkSize(size);
	const start = take(size);
	const text = pool.toString(encoding, start, start + size);
	pool.fill(0, start, start + size);
	return text;
}

/**
 * Writes `size` fresh random bytes (at most 256) into `target` at `offset`, without a buffer of their own.
 *
 * @example
 * randomInto(block, 0, 16);
 */
export function randomInto(target: Buffer, offset: number, size: number): void {
	checkSize(size);
	const start = take(size);
	pool.copy(target, offset, start, start + size);
	pool.fill(0, start, start + size);
}

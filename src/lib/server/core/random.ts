// Random bytes for tokens made on hot paths (CSRF tokens, session ids, JWE IVs): drawn from a pool
// that node:crypto's CSPRNG refills 4 KB at a time, as Node's own `randomUUID` does. Each byte is used once.

import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let offset = POOL_BYTES;

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
 * `size` fresh random bytes (at most 256) in a new buffer; a one-call `randomBytes` costs a trip
 * into OpenSSL per token, the pool one per 4 KB.
 *
 * @example
 * const iv = randomBytesPooled(16);
 */
export function randomBytesPooled(size: number): Buffer {
	if (size > 256) throw new RangeError('randomBytesPooled draws at most 256 bytes; use randomBytes.');
	const start = take(size);
	const bytes = Buffer.allocUnsafe(size);
	pool.copy(bytes, 0, start, start + size);
	// a byte handed out is never handed out again
	pool.fill(0, start, start + size);
	return bytes;
}

/**
 * `size` fresh random bytes written as text (`hex` or `base64url`).
 *
 * @example
 * const token = randomToken(32, 'hex'); // 64 hex digits
 */
export function randomToken(size: number, encoding: 'hex' | 'base64url'): string {
	if (size > 256) throw new RangeError('randomToken draws at most 256 bytes.');
	const start = take(size);
	const text = pool.toString(encoding, start, start + size);
	pool.fill(0, start, start + size);
	return text;
}

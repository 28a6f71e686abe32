// Hashes, HMACs and HKDF, synchronous on every runtime: node:crypto where the runtime has it (the
// fast path), else `@noble/hashes` (audited, pure JavaScript). Web Crypto has no synchronous
// digest, and these run where a promise would make every caller async (CSRF tokens, cache keys,
// key derivation once per secret).

import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac as nobleHmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { utf8Bytes } from './bytes.js';
import { nodeParts } from './node-crypto.js';
import type { KeyObject } from 'node:crypto';

/** The hashes kitgate uses: SHA-256 and SHA-512, and SHA-1 where a protocol asks for it (OAuth 1.0a, HIBP, Redis scripts). */
export type HashName = 'sha1' | 'sha256' | 'sha512';

/** What is hashed: bytes, or text as UTF-8. */
export type HashInput = string | Uint8Array;

const NOBLE = { sha1, sha256, sha512 };

function asBytes(data: HashInput): Uint8Array {
	return typeof data === 'string' ? utf8Bytes(data) : data;
}

/**
 * The `name` digest of `parts`, one after another.
 *
 * @example
 * hex(digest('sha256', 'kitgate', bytes));
 */
export function digest(name: HashName, ...parts: HashInput[]): Uint8Array {
	const node = nodeParts();
	if (node) {
		const hash = node.crypto.createHash(name);
		for (const part of parts) hash.update(part);
		return hash.digest();
	}
	const hash = NOBLE[name].create();
	for (const part of parts) hash.update(asBytes(part));
	return hash.digest();
}

/** Secrets come from the configuration, so they are few; the bound only guards against misuse. */
const MAX_KEYS = 64;
// node:crypto imports a string key on every createHmac call, a KeyObject only once
const nodeKeys = new Map<string, KeyObject>();

function nodeKey(secret: string): KeyObject {
	let key = nodeKeys.get(secret);
	if (!key) {
		if (nodeKeys.size >= MAX_KEYS) nodeKeys.clear();
		key = nodeParts()!.crypto.createSecretKey(utf8Bytes(secret));
		nodeKeys.set(secret, key);
	}
	return key;
}

/**
 * The `name` HMAC of `parts`, one after another, under `key` (a string key is its UTF-8 bytes,
 * as `createHmac(name, key)` takes it).
 *
 * @example
 * hex(hmac('sha256', secret, token)); // the same as createHmac('sha256', secret).update(token).digest('hex')
 */
export function hmac(name: HashName, key: string | Uint8Array, ...parts: HashInput[]): Uint8Array {
	const node = nodeParts();
	if (node) {
		const mac = node.crypto.createHmac(name, typeof key === 'string' ? nodeKey(key) : key);
		for (const part of parts) mac.update(part);
		return mac.digest();
	}
	const mac = nobleHmac.create(NOBLE[name], asBytes(key));
	for (const part of parts) mac.update(asBytes(part));
	return mac.digest();
}

/**
 * HKDF-SHA256 (RFC 5869) of `secret` with `salt` and `info`, `length` bytes.
 *
 * @example
 * const key = hkdfSha256(secret, 'kitgate.session-token', 'kitgate session encryption key (kitgate.session-token)', 64);
 */
export function hkdfSha256(secret: HashInput, salt: HashInput, info: HashInput, length: number): Uint8Array {
	const node = nodeParts();
	if (node) return new Uint8Array(node.crypto.hkdfSync('sha256', secret, salt, info, length));
	return hkdf(sha256, asBytes(secret), asBytes(salt), asBytes(info), length);
}

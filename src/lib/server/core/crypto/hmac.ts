// HMAC under the configured secrets with their key objects made once: node:crypto imports a
// string key on every `createHmac` call, a `KeyObject` only once.

import { createHmac, createSecretKey, type Hmac, type KeyObject } from 'node:crypto';

/** Secrets come from the configuration, so they are few; the bound only guards against misuse. */
const MAX_KEYS = 64;
const keys = new Map<string, KeyObject>();

/** The key object of `secret`, imported on first use. */
function keyOf(secret: string): KeyObject {
	let key = keys.get(secret);
	if (!key) {
		if (keys.size >= MAX_KEYS) keys.clear();
		key = createSecretKey(Buffer.from(secret, 'utf8'));
		keys.set(secret, key);
	}
	return key;
}

/**
 * An HMAC (`sha256` unless said) keyed by `secret`, ready for `update`; the same bytes as
 * `createHmac(algorithm, secret)`.
 *
 * @example
 * const mac = secretHmac(secret).update(token).digest('hex');
 */
export function secretHmac(secret: string, algorithm: 'sha256' | 'sha512' = 'sha256'): Hmac {
	return createHmac(algorithm, keyOf(secret));
}

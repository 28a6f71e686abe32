// Which JWS algorithm a `private_key_jwt` key signs with, read from the key alone at start-up
// (node:crypto only: checking a configuration loads no OAuth library).

import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { CryptoKey, JWK } from 'jose';

/** A private key as `client.private_key` takes it: a private JWK, a PEM string or a `CryptoKey`. */
export type PrivateKeyInput = JWK | string | CryptoKey;

const CURVE_ALGORITHMS: Record<string, string> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };
const RSA_ALGORITHMS = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']);

/**
 * The JWS algorithm `key` signs `private_key_jwt` assertions with: RSA `RS256` (or the JWK's
 * `alg`, e.g. `PS256`), EC `ES256`/`ES384`/`ES512` by curve, `Ed25519` (`EdDSA` when the JWK says
 * so); a `CryptoKey` by its algorithm. Throws an `Error` saying what is wrong (a public or symmetric key, an unreadable
 * PEM, an RSA key under 2048 bits, another key type). Synchronous, for start-up checks.
 *
 * @example
 * privateKeySigningAlgorithm(process.env.AUTH_IDP_PRIVATE_KEY); // "RS256"
 */
export function privateKeySigningAlgorithm(key: unknown): string {
	if (isCryptoKey(key)) return cryptoKeyAlgorithm(key);
	if (typeof key === 'string') {
		if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) throw new Error('a string must be a PEM private key ("-----BEGIN PRIVATE KEY-----" …)');
		return keyObjectAlgorithm(readKey(() => createPrivateKey(key)), undefined);
	}
	if (typeof key !== 'object' || key === null || Array.isArray(key)) {
		throw new Error('give a private JWK (an object), a PEM string or a CryptoKey');
	}
	const jwk = key as JWK;
	if (jwk.kty === 'oct') throw new Error('a symmetric ("oct") key cannot sign private_key_jwt assertions; use client_secret_jwt with `clientSecret`');
	if (typeof jwk.d !== 'string') throw new Error('this JWK is a public key: give the private key (with "d"), and register the public one with the identity provider');
	return keyObjectAlgorithm(readKey(() => createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' })), jwk.alg);
}

function keyObjectAlgorithm(key: KeyObject, jwkAlg: string | undefined): string {
	const expect = (allowed: (alg: string) => boolean, fallback: string) => {
		if (jwkAlg === undefined) return fallback;
		if (!allowed(jwkAlg)) throw new Error(`the JWK's "alg" ${JSON.stringify(jwkAlg)} does not fit its ${key.asymmetricKeyType} key`);
		return jwkAlg;
	};
	switch (key.asymmetricKeyType) {
		case 'rsa':
			if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new Error('an RSA key must have at least 2048 bits');
			return expect((alg) => RSA_ALGORITHMS.has(alg), 'RS256');
		case 'ec': {
			const alg = CURVE_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''];
			if (!alg) throw new Error('an EC key must be on P-256, P-384 or P-521');
			return expect((given) => given === alg, alg);
		}
		case 'ed25519':
			return expect((alg) => alg === 'Ed25519' || alg === 'EdDSA', 'Ed25519');
		default:
			throw new Error(`a ${key.asymmetricKeyType} key cannot sign private_key_jwt assertions; use an RSA, EC (P-256/384/521) or Ed25519 key`);
	}
}

function cryptoKeyAlgorithm(key: CryptoKey): string {
	if (key.type !== 'private' || !key.usages.includes('sign')) throw new Error('the CryptoKey must be a private key with the "sign" usage');
	const algorithm = key.algorithm as { name: string; hash?: { name: string }; namedCurve?: string; modulusLength?: number };
	const bits = algorithm.hash?.name.slice(4);
	switch (algorithm.name) {
		case 'RSASSA-PKCS1-v1_5':
		case 'RSA-PSS':
			if ((algorithm.modulusLength ?? 0) < 2048) throw new Error('an RSA key must have at least 2048 bits');
			if (!['256', '384', '512'].includes(bits ?? '')) throw new Error('an RSA CryptoKey must use SHA-256, SHA-384 or SHA-512');
			return `${algorithm.name === 'RSA-PSS' ? 'PS' : 'RS'}${bits}`;
		case 'ECDSA': {
			const alg = CURVE_ALGORITHMS[{ 'P-256': 'prime256v1', 'P-384': 'secp384r1', 'P-521': 'secp521r1' }[algorithm.namedCurve ?? ''] ?? ''];
			if (!alg) throw new Error('an EC key must be on P-256, P-384 or P-521');
			return alg;
		}
		case 'Ed25519':
			return 'Ed25519';
		default:
			throw new Error(`a ${algorithm.name} CryptoKey cannot sign private_key_jwt assertions; use RSASSA-PKCS1-v1_5, RSA-PSS, ECDSA or Ed25519`);
	}
}

/** True for a WebCrypto `CryptoKey` (where the runtime has the class). */
export function isCryptoKey(value: unknown): value is CryptoKey {
	return typeof globalThis.CryptoKey === 'function' && value instanceof globalThis.CryptoKey;
}

function readKey(read: () => KeyObject): KeyObject {
	try {
		return read();
	} catch (error) {
		throw new Error(`it cannot be read as a private key (${(error as Error).message}); an encrypted PEM must be decrypted first`, { cause: error });
	}
}

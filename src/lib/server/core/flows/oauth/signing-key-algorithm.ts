// Which JWS algorithm a `private_key_jwt` key signs with, read from the key alone at start-up
// (a JWK's members, a PEM's DER: no node:crypto, and checking a configuration loads no OAuth library).

import type { CryptoKey, JWK } from 'jose';
import { fromBase64url } from '../../crypto/bytes.js';
import { bitLength, readPrivateKeyPem } from './private-key-der.js';

/** A private key as `client.private_key` takes it: a private JWK, a PEM string or a `CryptoKey`. */
export type PrivateKeyInput = JWK | string | CryptoKey;

/** What decides a key's algorithm: its type as Node names it (`rsa`, `ec`, `ed25519`, `x25519` …), its size or curve. */
interface KeyShape {
	type: string | undefined;
	/** The algorithm's OID, for a PEM key of an unknown type. */
	algorithm?: string;
	modulusLength?: number;
	namedCurve?: string;
}

// Maps, not objects: a JWK's "crv" is the user's string ("constructor" must find nothing)
const CURVE_ALGORITHMS = new Map([
	['P-256', 'ES256'],
	['P-384', 'ES384'],
	['P-521', 'ES512']
]);
/** The length in bytes of a private key and of a coordinate on each curve (RFC 7518 §6.2). */
const CURVE_BYTES = new Map([
	['P-256', 32],
	['P-384', 48],
	['P-521', 66]
]);
const RSA_ALGORITHMS = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']);
const RSA_PRIVATE_MEMBERS = ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi'] as const;
/** OKP curves that are not Ed25519, by the names Node gives their keys. */
const OTHER_OKP_CURVES = new Map([
	['X25519', 'x25519'],
	['Ed448', 'ed448'],
	['X448', 'x448']
]);

/**
 * The JWS algorithm `key` signs `private_key_jwt` assertions with: RSA `RS256` (or the JWK's
 * `alg`, e.g. `PS256`), EC `ES256`/`ES384`/`ES512` by curve, `Ed25519` (`EdDSA` when the JWK says
 * so); a `CryptoKey` by its algorithm. Throws an `Error` saying what is wrong (a public or symmetric key, an unreadable
 * PEM, an RSA key under 2048 bits, another key type). Synchronous, for start-up checks; a JWK is
 * read by its members and a PEM (PKCS#8, PKCS#1, SEC1) by its DER, the same on every runtime.
 *
 * @example
 * privateKeySigningAlgorithm(process.env.AUTH_IDP_PRIVATE_KEY); // "RS256"
 */
export function privateKeySigningAlgorithm(key: unknown): string {
	if (isCryptoKey(key)) return cryptoKeyAlgorithm(key);
	if (typeof key === 'string') {
		if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) throw new Error('a string must be a PEM private key ("-----BEGIN PRIVATE KEY-----" …)');
		return shapeAlgorithm(readPem(key), undefined);
	}
	if (typeof key !== 'object' || key === null || Array.isArray(key)) {
		throw new Error('give a private JWK (an object), a PEM string or a CryptoKey');
	}
	const jwk = key as JWK;
	if (jwk.kty === 'oct') throw new Error('a symmetric ("oct") key cannot sign private_key_jwt assertions; use client_secret_jwt with `clientSecret`');
	if (typeof jwk.d !== 'string') throw new Error('this JWK is a public key: give the private key (with "d"), and register the public one with the identity provider');
	return shapeAlgorithm(jwkShape(jwk), jwk.alg);
}

function shapeAlgorithm(key: KeyShape, jwkAlg: string | undefined): string {
	const expect = (allowed: (alg: string) => boolean, fallback: string) => {
		if (jwkAlg === undefined) return fallback;
		if (!allowed(jwkAlg)) throw new Error(`the JWK's "alg" ${JSON.stringify(jwkAlg)} does not fit its ${key.type} key`);
		return jwkAlg;
	};
	switch (key.type) {
		case 'rsa':
			if ((key.modulusLength ?? 0) < 2048) throw new Error('an RSA key must have at least 2048 bits');
			return expect((alg) => RSA_ALGORITHMS.has(alg), 'RS256');
		case 'ec': {
			const alg = CURVE_ALGORITHMS.get(key.namedCurve ?? '');
			if (!alg) throw new Error('an EC key must be on P-256, P-384 or P-521');
			return expect((given) => given === alg, alg);
		}
		case 'ed25519':
			return expect((alg) => alg === 'Ed25519' || alg === 'EdDSA', 'Ed25519');
		default: {
			const what = key.type === undefined ? `a key of algorithm ${key.algorithm}` : `a ${key.type} key`;
			throw new Error(`${what} cannot sign private_key_jwt assertions; use an RSA, EC (P-256/384/521) or Ed25519 key`);
		}
	}
}

/** A PEM private key's shape, from its DER; an `Error` naming why when it cannot be read. */
function readPem(pem: string): KeyShape {
	try {
		return readPrivateKeyPem(pem);
	} catch (error) {
		throw new Error(`it cannot be read as a private key (${(error as Error).message}); an encrypted PEM must be decrypted first`, { cause: error });
	}
}

/**
 * A private JWK's shape, from its members (RFC 7518 §6): each member its key type needs present as
 * base64url, a curve's members of the curve's length. Never puts a member's value in an error.
 */
function jwkShape(jwk: JWK): KeyShape {
	const member = (name: string, bytes?: number): Uint8Array => {
		const value = (jwk as Record<string, unknown>)[name];
		const decoded = typeof value === 'string' && value !== '' ? fromBase64url(value) ?? undefined : undefined;
		if (!decoded) throw unreadable(`its "${name}" must be a base64url string`);
		if (bytes !== undefined && decoded.length !== bytes) throw unreadable(`its "${name}" must be ${bytes} bytes for ${jwk.crv}, not ${decoded.length}`);
		return decoded;
	};
	switch (jwk.kty) {
		case 'RSA': {
			const [n] = RSA_PRIVATE_MEMBERS.map((name) => member(name));
			return { type: 'rsa', modulusLength: bitLength(n) };
		}
		case 'EC': {
			const bytes = CURVE_BYTES.get(typeof jwk.crv === 'string' ? jwk.crv : '');
			if (bytes === undefined) return { type: 'ec', namedCurve: undefined };
			for (const name of ['x', 'y', 'd']) member(name, bytes);
			return { type: 'ec', namedCurve: jwk.crv };
		}
		case 'OKP': {
			if (jwk.crv === 'Ed25519') {
				for (const name of ['x', 'd']) member(name, 32);
				return { type: 'ed25519' };
			}
			const type = OTHER_OKP_CURVES.get(typeof jwk.crv === 'string' ? jwk.crv : '');
			if (!type) throw unreadable('its "crv" must be Ed25519 for an OKP key');
			return { type };
		}
		default:
			throw unreadable(typeof jwk.kty === 'string' ? `its "kty" ${JSON.stringify(jwk.kty)} is not "RSA", "EC" or "OKP"` : 'it has no "kty"');
	}
}

function unreadable(reason: string): Error {
	return new Error(`it cannot be read as a private key (${reason})`);
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
			const alg = CURVE_ALGORITHMS.get(algorithm.namedCurve ?? '');
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

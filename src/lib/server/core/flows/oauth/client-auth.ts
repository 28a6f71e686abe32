// How an OAuth client proves itself at the token endpoint: HTTP Basic credentials that servers
// which percent-decode them and servers which do not both accept, and the private_key_jwt key.

import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { importJWK, type CryptoKey, type JWK } from 'jose';
import * as oauth from 'oauth4webapi';

/**
 * One half of HTTP Basic client credentials, encoded so that servers that percent-decode them
 * (RFC 6749 §2.3.1) and servers that compare them as sent both read `value`, for every value where
 * one string can do both. Percent-encoded (UTF-8): `%` and `+` (a decoder would change them), `:`
 * in the user-id (RFC 7617: it ends the user-id) and anything outside printable ASCII (outside
 * RFC 6749's VSCHAR, read differently by different servers). Everything else is sent as it is:
 * unreserved `A-Za-z0-9-._~`, spaces, and a `:` in the password, which ends nothing. Pure.
 *
 * @example
 * basicCredential('my-client', 'user-id'); // "my-client" (oauth4webapi sends "my%2Dclient")
 * basicCredential('tenant:app', 'user-id'); // "tenant%3Aapp"
 * basicCredential('p:ss word+1', 'password'); // "p:ss word%2B1"
 */
export function basicCredential(value: string, part: 'user-id' | 'password'): string {
	const mustEncode = part === 'user-id' ? /[%+:]|[^\x20-\x7e]/gu : /[%+]|[^\x20-\x7e]/gu;
	return value.replace(mustEncode, percentEncode);
}

/**
 * The `Authorization` header value of `client_secret_basic`: `Basic base64(id:secret)`, each part
 * encoded by `basicCredential`. Pure.
 *
 * @example
 * basicAuthorization('my-client', 's3cret'); // "Basic bXktY2xpZW50OnMzY3JldA=="
 */
export function basicAuthorization(clientId: string, clientSecret: string): string {
	return `Basic ${btoa(`${basicCredential(clientId, 'user-id')}:${basicCredential(clientSecret, 'password')}`)}`;
}

/**
 * `client_secret_basic` as an oauth4webapi `ClientAuth`, with `basicAuthorization`'s encoding
 * instead of oauth4webapi's `ClientSecretBasic` (which encodes `-._~` too, so servers that do not
 * decode refuse ids such as `my-client`).
 *
 * @example
 * await oauth.authorizationCodeGrantRequest(as, client, clientSecretBasic(secret), params, redirectUri, verifier);
 */
export function clientSecretBasic(clientSecret: string): oauth.ClientAuth {
	return (_as, client, _body, headers) => {
		headers.set('authorization', basicAuthorization(client.client_id, clientSecret));
	};
}

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

interface SigningKey {
	key: CryptoKey;
	kid?: string;
	alg: string;
}

/** Private keys imported for signing, per `client` options object (providers are normalised once). */
const importedKeys = new WeakMap<object, Promise<SigningKey>>();

/**
 * `private_key_jwt` as an oauth4webapi `ClientAuth`: signs the client assertion with
 * `client.private_key` (checked at start-up by `privateKeySigningAlgorithm`), with
 * `client.private_key_kid` (or the JWK's `kid`) as its `kid`. The key is imported once.
 *
 * @example
 * const auth = privateKeyJwt({ private_key: jwk, private_key_kid: 'key-1' });
 */
export function privateKeyJwt(client: { private_key?: unknown; private_key_kid?: unknown }): oauth.ClientAuth {
	return async (as, oauthClient, body, headers) => {
		let imported = importedKeys.get(client);
		if (!imported) {
			imported = importPrivateKey(client.private_key, typeof client.private_key_kid === 'string' ? client.private_key_kid : undefined);
			importedKeys.set(client, imported);
			imported.catch(() => importedKeys.delete(client));
		}
		const { key, kid, alg } = await imported;
		// the header's alg as the key says (oauth4webapi would write "Ed25519" for an "EdDSA" JWK)
		const sign = oauth.PrivateKeyJwt({ key, kid }, { [oauth.modifyAssertion]: (header) => void (header.alg = alg) });
		await sign(as, oauthClient, body, headers);
	};
}

async function importPrivateKey(value: unknown, kid: string | undefined): Promise<SigningKey> {
	const alg = privateKeySigningAlgorithm(value);
	if (isCryptoKey(value)) return { key: value, kid, alg };
	const jwk = (typeof value === 'string' ? createPrivateKey(value).export({ format: 'jwk' }) : value) as JWK;
	// only the key material: a JWK's use, key_ops or ext must not stop a signing import
	const material = Object.fromEntries(KEY_MEMBERS.filter((name) => jwk[name] !== undefined).map((name) => [name, jwk[name]]));
	const key = (await importJWK(material as JWK, alg, { extractable: false })) as CryptoKey;
	return { key, kid: kid ?? (typeof jwk.kid === 'string' ? jwk.kid : undefined), alg };
}

const KEY_MEMBERS = ['kty', 'crv', 'n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'x', 'y'] as const;

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

function isCryptoKey(value: unknown): value is CryptoKey {
	return typeof globalThis.CryptoKey === 'function' && value instanceof globalThis.CryptoKey;
}

function readKey(read: () => KeyObject): KeyObject {
	try {
		return read();
	} catch (error) {
		throw new Error(`it cannot be read as a private key (${(error as Error).message}); an encrypted PEM must be decrypted first`, { cause: error });
	}
}

function percentEncode(char: string): string {
	return Array.from(new TextEncoder().encode(char), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

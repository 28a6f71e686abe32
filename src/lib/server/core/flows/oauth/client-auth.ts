// How an OAuth client proves itself at the token endpoint: HTTP Basic credentials that servers
// which percent-decode them and servers which do not both accept, and the private_key_jwt key.

import { importJWK, importPKCS8, type CryptoKey, type JWK } from 'jose';
import * as oauth from 'oauth4webapi';
import { pkcs8Pem, readPrivateKeyPem } from './private-key-der.js';
import { isCryptoKey, privateKeySigningAlgorithm } from './signing-key-algorithm.js';

export { privateKeySigningAlgorithm, type PrivateKeyInput } from './signing-key-algorithm.js';

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
	if (typeof value === 'string') {
		// PKCS#1 and SEC1 re-wrapped as PKCS#8: the one PEM format Web Crypto imports
		const { pkcs8 } = readPrivateKeyPem(value);
		if (!pkcs8) throw new Error('unreachable: privateKeySigningAlgorithm accepts only keys that come as PKCS#8');
		return { key: await importPKCS8(pkcs8Pem(pkcs8), alg, { extractable: false }), kid, alg };
	}
	const jwk = value as JWK;
	// only the key material: a JWK's use, key_ops or ext must not stop a signing import
	const material = Object.fromEntries(KEY_MEMBERS.filter((name) => jwk[name] !== undefined).map((name) => [name, jwk[name]]));
	const key = (await importJWK(material as JWK, alg, { extractable: false })) as CryptoKey;
	return { key, kid: kid ?? (typeof jwk.kid === 'string' ? jwk.kid : undefined), alg };
}

const KEY_MEMBERS = ['kty', 'crv', 'n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'x', 'y'] as const;

function percentEncode(char: string): string {
	return Array.from(new TextEncoder().encode(char), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

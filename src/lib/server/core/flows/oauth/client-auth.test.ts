import { generateKeyPairSync } from 'node:crypto';
import { createPublicKey } from 'node:crypto';
import { decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { describe, expect, test } from 'vitest';
import { basicAuthorization, basicCredential, clientSecretBasic, privateKeyJwt, privateKeySigningAlgorithm } from './client-auth.js';

/** What a server that percent-decodes Basic credentials reads (oidc-provider's decoding). */
const decoded = (sent: string) => decodeURIComponent(sent.replace(/\+/g, '%20'));

describe('basicCredential (pure)', () => {
	test('unreserved characters, spaces and most punctuation go through as they are', () => {
		for (const value of ['my-client', 'a.b_c~d', 'ABCxyz0189', 'a pass phrase', "!*'()/?#&=@$,;[]{}<>\"\\^`|"]) {
			expect(basicCredential(value, 'user-id')).toBe(value);
			expect(basicCredential(value, 'password')).toBe(value);
		}
	});

	test('"%" and "+" are percent-encoded in both parts; ":" only in the user-id', () => {
		expect(basicCredential('50%+off', 'user-id')).toBe('50%25%2Boff');
		expect(basicCredential('50%+off', 'password')).toBe('50%25%2Boff');
		expect(basicCredential('tenant:app', 'user-id')).toBe('tenant%3Aapp');
		expect(basicCredential('pass:word', 'password')).toBe('pass:word');
		expect(basicCredential('%3A', 'user-id')).toBe('%253A');
	});

	test('characters outside printable ASCII are percent-encoded as UTF-8, lone surrogates as U+FFFD', () => {
		expect(basicCredential('Zoë\t€😀', 'password')).toBe('Zo%C3%AB%09%E2%82%AC%F0%9F%98%80');
		expect(basicCredential('\u007f\u0000', 'user-id')).toBe('%7F%00');
		expect(basicCredential('a\ud800b', 'user-id')).toBe('a%EF%BF%BDb');
	});

	test('a server that decodes reads back every printable-ASCII value (property over all of them)', () => {
		const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));
		const values = [printable.join(''), ...printable, ...printable.map((c) => `${c}${c}x${c}`), '%41', '+%2B', 'a:b:c'];
		for (const value of values) {
			expect(decoded(basicCredential(value, 'user-id'))).toBe(value);
			expect(decoded(basicCredential(value, 'password'))).toBe(value);
			// the user-id ends at the first colon: it never holds one
			expect(basicCredential(value, 'user-id')).not.toContain(':');
		}
	});

	test('a server that does not decode reads the value itself whenever it has no "%" or "+" (nor ":" in the id)', () => {
		const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).filter((c) => !'%+:'.includes(c));
		for (const c of printable) expect(basicCredential(`x${c}y`, 'user-id')).toBe(`x${c}y`);
		expect(basicCredential('x:y', 'password')).toBe('x:y');
	});
});

describe('basicAuthorization and clientSecretBasic', () => {
	test('Basic base64(id:secret), each part encoded', () => {
		expect(basicAuthorization('my-client', 's3cret')).toBe(`Basic ${btoa('my-client:s3cret')}`);
		expect(basicAuthorization('tenant:app', 'p:ss w%rd+')).toBe(`Basic ${btoa('tenant%3Aapp:p:ss w%25rd%2B')}`);
	});

	test("differs from oauth4webapi's ClientSecretBasic only where that one over-encodes", async () => {
		const as = { issuer: 'https://idp.example' };
		const sent = async (auth: oauth.ClientAuth, clientId: string) => {
			const headers = new Headers();
			await auth(as, { client_id: clientId }, new URLSearchParams(), headers);
			return atob((headers.get('authorization') as string).slice(6));
		};
		expect(await sent(clientSecretBasic('se-cret'), 'my-client')).toBe('my-client:se-cret');
		expect(await sent(oauth.ClientSecretBasic('se-cret'), 'my-client')).toBe('my%2Dclient:se%2Dcret');
		// a decoding server reads the same values from either
		const [id, secret] = (await sent(clientSecretBasic('a b%'), 'x:y')).split(':').map(decoded);
		expect([id, secret]).toEqual(['x:y', 'a b%']);
	});
});

describe('privateKeySigningAlgorithm', () => {
	test('RSA: RS256 by default, the JWK alg when it names an RSA one; EC by curve; Ed25519', async () => {
		const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
		const rsaJwk = rsa.privateKey.export({ format: 'jwk' });
		expect(privateKeySigningAlgorithm(rsaJwk)).toBe('RS256');
		expect(privateKeySigningAlgorithm({ ...rsaJwk, alg: 'PS256' })).toBe('PS256');
		expect(privateKeySigningAlgorithm(rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string)).toBe('RS256');
		expect(privateKeySigningAlgorithm(rsa.privateKey.export({ format: 'pem', type: 'pkcs1' }) as string)).toBe('RS256');
		for (const [namedCurve, alg] of [['P-256', 'ES256'], ['P-384', 'ES384'], ['P-521', 'ES512']]) {
			const ec = generateKeyPairSync('ec', { namedCurve });
			expect(privateKeySigningAlgorithm(ec.privateKey.export({ format: 'jwk' }))).toBe(alg);
			expect(privateKeySigningAlgorithm(ec.privateKey.export({ format: 'pem', type: 'sec1' }) as string)).toBe(alg);
		}
		const ed = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
		expect(privateKeySigningAlgorithm(ed)).toBe('Ed25519');
		expect(privateKeySigningAlgorithm({ ...ed, alg: 'EdDSA' })).toBe('EdDSA');
	});

	test('CryptoKeys by their algorithm', async () => {
		expect(privateKeySigningAlgorithm((await generateKeyPair('PS384')).privateKey)).toBe('PS384');
		expect(privateKeySigningAlgorithm((await generateKeyPair('ES256')).privateKey)).toBe('ES256');
		expect(privateKeySigningAlgorithm((await generateKeyPair('Ed25519')).privateKey)).toBe('Ed25519');
	});

	test('refuses what cannot sign an assertion, saying why', async () => {
		const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
		const publicJwk = await exportJWK(publicKey);
		expect(() => privateKeySigningAlgorithm(publicJwk)).toThrow(/public key: give the private key/);
		expect(() => privateKeySigningAlgorithm(publicKey)).toThrow(/private key with the "sign" usage/);
		const privateJwk = await exportJWK(privateKey);
		expect(() => privateKeySigningAlgorithm({ ...privateJwk, alg: 'RS256' })).toThrow(/"alg" "RS256" does not fit its ec key/);
		expect(() => privateKeySigningAlgorithm({ kty: 'oct', k: 'c2VjcmV0' })).toThrow(/use client_secret_jwt/);
		expect(() => privateKeySigningAlgorithm('not a key')).toThrow(/PEM private key/);
		expect(() => privateKeySigningAlgorithm('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----')).toThrow(/cannot be read as a private key/);
		expect(() => privateKeySigningAlgorithm(42)).toThrow(/a private JWK \(an object\), a PEM string or a CryptoKey/);
		const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'jwk' });
		expect(() => privateKeySigningAlgorithm(small)).toThrow(/at least 2048 bits/);
		const sha1 = await crypto.subtle.generateKey(
			{ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-1' },
			false,
			['sign', 'verify']
		);
		expect(() => privateKeySigningAlgorithm(sha1.privateKey)).toThrow(/SHA-256, SHA-384 or SHA-512/);
		const x25519 = generateKeyPairSync('x25519').privateKey.export({ format: 'jwk' });
		expect(() => privateKeySigningAlgorithm(x25519)).toThrow(/x25519 key cannot sign/);
	});
});

describe('privateKeyJwt', () => {
	const as = { issuer: 'https://idp.example', token_endpoint: 'https://idp.example/token' };
	async function assertion(client: Parameters<typeof privateKeyJwt>[0]): Promise<string> {
		const body = new URLSearchParams();
		await privateKeyJwt(client)(as, { client_id: 'app' }, body, new Headers());
		expect(body.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
		expect(body.get('client_id')).toBe('app');
		return body.get('client_assertion') as string;
	}

	test('a PKCS#1 RSA PEM signs RS256 with private_key_kid; the signature verifies with the public key', async () => {
		const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
		const jwt = await assertion({ private_key: privateKey.export({ format: 'pem', type: 'pkcs1' }) as string, private_key_kid: 'k-1' });
		expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'RS256', kid: 'k-1' });
		const { payload } = await jwtVerify(jwt, publicKey, { issuer: 'app', subject: 'app', audience: as.issuer });
		expect(payload.exp! - payload.iat!).toBe(60);
	});

	test("a JWK's kid and alg are used (EdDSA header for an EdDSA JWK); use/key_ops/ext do not get in the way", async () => {
		const { privateKey } = generateKeyPairSync('ed25519');
		const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'ed', alg: 'EdDSA', use: 'sig', key_ops: ['verify'], ext: false };
		const jwt = await assertion({ private_key: jwk });
		expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'EdDSA', kid: 'ed' });
		await jwtVerify(jwt, createPublicKey(privateKey), { issuer: 'app', audience: as.issuer });
		expect(decodeProtectedHeader(await assertion({ private_key: jwk, private_key_kid: 'other' })).kid).toBe('other');
	});

	test('a CryptoKey signs by its algorithm (ES256), no kid unless given; every assertion is fresh', async () => {
		const { privateKey, publicKey } = await generateKeyPair('ES256');
		const client = { private_key: privateKey };
		const [first, second] = [await assertion(client), await assertion(client)];
		expect(first).not.toBe(second); // a fresh jti and signature each time
		for (const jwt of [first, second]) await jwtVerify(jwt, publicKey, { issuer: 'app', audience: as.issuer });
		expect(decodeProtectedHeader(first)).toEqual({ alg: 'ES256' });
	});
});

import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { InvalidConfiguration } from '../../errors.js';
import type { OAuthConfig } from '../../types.js';
import { normalizeOAuthProvider } from './oauth-provider.js';

const base: OAuthConfig = { id: 'idp', name: 'IdP', type: 'oidc', issuer: 'https://idp.example.com', clientId: 'app', clientSecret: 's' };

function rejects(overrides: Partial<OAuthConfig>, message: RegExp) {
	const run = () => normalizeOAuthProvider({ ...base, ...overrides } as OAuthConfig);
	expect(run).toThrow(InvalidConfiguration);
	expect(run).toThrow(message);
}

describe('normalizeOAuthProvider', () => {
	test('defaults: checks pkce + state (+ nonce for OIDC), client_secret_basic with a secret, none without, idToken true for OIDC', () => {
		expect(normalizeOAuthProvider(base)).toMatchObject({ checks: ['pkce', 'state', 'nonce'], client: { token_endpoint_auth_method: 'client_secret_basic' }, idToken: true });
		expect(normalizeOAuthProvider({ ...base, type: 'oauth', userinfo: 'https://idp.example.com/me' }).checks).toEqual(['pkce', 'state']);
		const publicClient = normalizeOAuthProvider({ ...base, clientSecret: undefined });
		expect(publicClient.client).toEqual({ token_endpoint_auth_method: 'none' });
		expect(normalizeOAuthProvider({ ...base, idToken: false }).idToken).toBe(false);
	});

	test('checks: deduplicated; unknown, empty, "none" combined and nonce for oauth are refused', () => {
		expect(normalizeOAuthProvider({ ...base, checks: ['state', 'pkce', 'state'] }).checks).toEqual(['state', 'pkce']);
		rejects({ checks: ['pkce', 'csrf' as never] }, /unknown check "csrf"/);
		rejects({ checks: [] }, /non-empty array/);
		rejects({ checks: ['none', 'pkce'] }, /cannot be combined/);
		rejects(
			{ type: 'oauth', issuer: undefined, authorization: 'https://a.example/authorize', token: 'https://a.example/token', userinfo: 'https://a.example/me', checks: ['nonce'] },
			/"nonce" check needs an ID token/
		);
	});

	test('clientId and a way to find the endpoints are required', () => {
		rejects({ clientId: undefined }, /`clientId` is required/);
		rejects({ issuer: undefined }, /set `issuer` \(or `wellKnown`\)/);
		rejects({ type: 'oauth', issuer: undefined, authorization: 'https://a.example/authorize' }, /`token` endpoint/);
		rejects(
			{ type: 'oauth', issuer: undefined, authorization: 'https://a.example/authorize', token: 'https://a.example/token' },
			/`userinfo` endpoint/
		);
		rejects({ issuer: undefined, authorization: 'https://a.example/authorize', token: 'https://a.example/token' }, /"oidc" provider needs `issuer`/);
		rejects({ authorization: { request: () => 'x' } }, /`authorization.request` is not supported/);
	});

	test('endpoints must be https; plain http only on loopback', () => {
		rejects({ issuer: 'http://idp.example.com' }, /must use https \(plain http is allowed only for 127.0.0.1\/localhost\)/);
		rejects({ token: 'not a url' }, /`token` must be an absolute URL/);
		expect(() => normalizeOAuthProvider({ ...base, issuer: 'http://127.0.0.1:9090' })).not.toThrow();
		expect(() => normalizeOAuthProvider({ ...base, issuer: 'http://localhost:9090' })).not.toThrow();
		rejects({ redirectProxyUrl: 'ftp://proxy.example' }, /redirectProxyUrl/);
	});

	test('client authentication: supported methods only; secret methods need clientSecret', () => {
		rejects({ client: { token_endpoint_auth_method: 'tls_client_auth' as never } }, /"tls_client_auth" is not supported; use one of .*"private_key_jwt", "none"/);
		for (const method of ['client_secret_basic', 'client_secret_post', 'client_secret_jwt'] as const) {
			rejects({ clientSecret: undefined, client: { token_endpoint_auth_method: method } }, /OAuth provider "idp": .* needs `clientSecret`/);
		}
		expect(normalizeOAuthProvider({ ...base, client: { token_endpoint_auth_method: 'client_secret_post' } }).client).toEqual({
			token_endpoint_auth_method: 'client_secret_post'
		});
	});

	test('private_key_jwt: needs a usable client.private_key, and is the default when one is set', () => {
		const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
		const jwk = privateKey.export({ format: 'jwk' });
		const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
		const method = (client: OAuthConfig['client'], clientSecret?: string) =>
			normalizeOAuthProvider({ ...base, clientSecret, client }).client?.token_endpoint_auth_method;
		expect(method({ private_key: jwk })).toBe('private_key_jwt');
		expect(method({ private_key: pem, private_key_kid: 'k1' }, 's')).toBe('private_key_jwt');
		expect(method({ token_endpoint_auth_method: 'private_key_jwt', private_key: jwk })).toBe('private_key_jwt');

		rejects({ client: { token_endpoint_auth_method: 'private_key_jwt' } }, /OAuth provider "idp": .*"private_key_jwt" needs `client.private_key`: your private key as a JWK, a PEM string or a CryptoKey/);
		rejects({ client: { private_key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } } }, /OAuth provider "idp": client.private_key: this JWK is a public key/);
		rejects({ client: { private_key: 'secret' } }, /client.private_key: a string must be a PEM private key/);
		rejects({ client: { private_key: pem, private_key_kid: 42 as never } }, /client.private_key_kid must be a non-empty string/);
		rejects({ client: { token_endpoint_auth_method: 'client_secret_basic', private_key: pem } }, /private_key is used only by "private_key_jwt", not "client_secret_basic"/);
		// the key is never part of the error
		expect(() => normalizeOAuthProvider({ ...base, client: { private_key: { ...jwk, crv: 'P-384' } } })).toThrow(
			expect.objectContaining({ message: expect.not.stringContaining(String(jwk.d)) })
		);
	});

	test('refresh and timeout are checked', () => {
		rejects({ refresh: 'yes' as never }, /`refresh` must be/);
		rejects({ refresh: { skewSeconds: -1 } }, /`refresh` must be/);
		rejects({ timeout: 0 }, /`timeout` must be/);
		expect(normalizeOAuthProvider({ ...base, refresh: { skewSeconds: 120 }, timeout: 5000 })).toMatchObject({ refresh: { skewSeconds: 120 } });
	});

	test('OAuth 1.0a providers are checked by their own rules', () => {
		const legacy = { ...base, type: 'oauth' as const, version: '1.0a', clientId: undefined };
		expect(() => normalizeOAuthProvider(legacy)).toThrow(/OAuth 1.0a provider "idp"/);
	});
});

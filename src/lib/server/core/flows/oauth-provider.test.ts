import { describe, expect, test } from 'vitest';
import { InvalidConfiguration } from '../errors.js';
import type { OAuthConfig } from '../types.js';
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
		rejects({ client: { token_endpoint_auth_method: 'private_key_jwt' } }, /not supported/);
		rejects({ clientSecret: undefined, client: { token_endpoint_auth_method: 'client_secret_post' } }, /needs `clientSecret`/);
		expect(normalizeOAuthProvider({ ...base, client: { token_endpoint_auth_method: 'client_secret_post' } }).client).toEqual({
			token_endpoint_auth_method: 'client_secret_post'
		});
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

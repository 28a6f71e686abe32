import { describe, expect, test } from 'vitest';
import { OAuthCallbackError } from '../../errors.js';
import type { OAuthConfig } from '../../types.js';
import { isAllowedEndpoint, isLoopbackHost } from './oauth-http.js';
import { accountFields, defaultUser, tokenSetFrom, userFromProfile } from './oauth-profile.js';

const provider: OAuthConfig = { id: 'idp', name: 'IdP', type: 'oidc', issuer: 'https://idp.example.com', clientId: 'app' };

describe('token set and account fields', () => {
	test('expires_at from expires_in and the clock; token_type lowercased', () => {
		const tokens = tokenSetFrom({ access_token: 'a', token_type: 'Bearer', expires_in: 3600 }, 1_700_000_000_500);
		expect(tokens).toMatchObject({ token_type: 'bearer', expires_at: 1_700_003_600 });
		expect(tokenSetFrom({ access_token: 'a', token_type: 'DPoP' }, 0).expires_at).toBeUndefined();
	});

	test('default stored fields, and account() choosing others', () => {
		const tokens = { access_token: 'a', id_token: 'i', refresh_token: 'r', expires_at: 5, scope: 's', token_type: 'bearer', expires_in: 3600, extra: 'x' };
		expect(accountFields(provider, tokens)).toEqual({ access_token: 'a', id_token: 'i', refresh_token: 'r', expires_at: 5, scope: 's', token_type: 'bearer' });
		expect(accountFields({ ...provider, account: (t) => ({ access_token: t.access_token, token_type: 'MAC' }) }, tokens)).toEqual({
			access_token: 'a',
			token_type: 'mac'
		});
	});
});

describe('profile mapping', () => {
	test('default: id from sub or id; name from name, nickname, preferred_username; image from picture', () => {
		expect(defaultUser({ sub: 's1', nickname: 'nick', email: 'a@b.c', picture: 'https://p' })).toEqual({ id: 's1', name: 'nick', email: 'a@b.c', image: 'https://p' });
		expect(defaultUser({ id: 42 as never, preferred_username: 'pref' })).toEqual({ id: '42', name: 'pref', email: null, image: null });
	});

	test('profile() result is used; an id is required; a throwing profile() is OAuthCallbackError', async () => {
		expect(await userFromProfile({ ...provider, profile: (p) => ({ id: `x-${p.sub}` }) }, { sub: '1' }, {})).toEqual({ id: 'x-1' });
		await expect(userFromProfile(provider, { email: 'no-id@example.com' }, {})).rejects.toThrow(OAuthCallbackError);
		const throwing = { ...provider, profile: () => { throw new Error('boom'); } };
		await expect(userFromProfile(throwing, { sub: '1' }, {})).rejects.toThrow(/profile\(\) of provider "idp" threw/);
	});
});

describe('loopback rule', () => {
	test('only loopback hosts may use plain http', () => {
		for (const host of ['127.0.0.1', '127.10.0.1', 'localhost', 'app.localhost', '[::1]']) expect(isLoopbackHost(host)).toBe(true);
		for (const host of ['10.0.0.1', 'example.com', 'localhost.example.com', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
		expect(isAllowedEndpoint('http://127.0.0.1:9090/token')).toBe(true);
		expect(isAllowedEndpoint('http://example.com/token')).toBe(false);
		expect(isAllowedEndpoint('https://example.com/token')).toBe(true);
		expect(isAllowedEndpoint('ftp://127.0.0.1/')).toBe(false);
	});
});

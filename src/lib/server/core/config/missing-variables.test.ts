// A start-up without its environment variables names every missing one, exactly (`AUTH_GITHUB_ID`,
// not "`clientId` is required"), in one error: not one variable per restart.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import Email from '../../providers/email.js';
import GitHub from '../../providers/github.js';
import Google from '../../providers/google.js';
import Keycloak from '../../providers/keycloak.js';
import OIDC from '../../providers/oidc.js';
import Twitter from '../../providers/twitter.js';
import { AuthError, InvalidConfiguration, MissingSecret, UntrustedHost } from '../errors.js';
import { normalizeOAuthProvider } from '../flows/oauth/oauth-provider.js';
import type { AuthConfig, OAuthConfig, Provider } from '../types.js';
import { MISSING_VARIABLES, type AuthEnv } from './env.js';
import { resolveConfig } from './resolve-config.js';
import { thrown } from '../test/thrown.js';

const SECRET = 'missing-variables-test-secret-0123456789';
const quiet = { warn: () => {}, error: () => {}, debug: () => {} };

function config(providers: Provider[], overrides: Partial<AuthConfig> = {}): AuthConfig {
	return { secret: SECRET, trustHost: true, adapter: MemoryAdapter(), logger: quiet, providers, ...overrides };
}


/** The variables an error lists (its first line). */
function listed(error: AuthError): string[] {
	const first = error.message.split('\n')[0];
	return first.replace(/^Missing environment variables? /, '').replace(/\.$/, '').split(', ');
}

describe('a provider without its variables', () => {
	test('GitHub() names AUTH_GITHUB_ID and AUTH_GITHUB_SECRET, and building the app does not throw', () => {
		const provider = GitHub();
		const error = thrown(() => resolveConfig(config([provider]), {}));
		expect(error).toBeInstanceOf(InvalidConfiguration);
		expect(listed(error)).toEqual(['AUTH_GITHUB_ID', 'AUTH_GITHUB_SECRET']);
		expect(error.message).toMatch(/^- AUTH_GITHUB_ID: .*"github".*`clientId`/m);
		expect(error.message).toMatch(/^- AUTH_GITHUB_SECRET: .*`clientSecret`/m);
		// set them, and it starts
		expect(() => resolveConfig(config([GitHub()]), { AUTH_GITHUB_ID: 'id', AUTH_GITHUB_SECRET: 'secret' })).not.toThrow();
	});

	test('an id set without the secret of a provider that has no public clients names the secret', () => {
		const error = thrown(() => resolveConfig(config([Google()]), { AUTH_GOOGLE_ID: 'id' }));
		expect(listed(error)).toEqual(['AUTH_GOOGLE_SECRET']);
	});

	test('a provider object of the app’s own names AUTH_<ID>_ID; an OAuth 1.0a one its secret too', () => {
		const acme: OAuthConfig = { id: 'acme-sso', name: 'Acme', type: 'oidc', issuer: 'https://sso.acme.test' };
		expect(listed(thrown(() => resolveConfig(config([acme]), {})))).toEqual(['AUTH_ACME_SSO_ID']);
		const legacy: OAuthConfig = {
			id: 'legacy',
			name: 'Legacy',
			type: 'oauth',
			version: '1.0a',
			requestToken: 'https://legacy.test/request_token',
			authorization: 'https://legacy.test/authorize',
			token: 'https://legacy.test/access_token',
			userinfo: 'https://legacy.test/me'
		};
		expect(listed(thrown(() => resolveConfig(config([legacy]), {})))).toEqual(['AUTH_LEGACY_ID', 'AUTH_LEGACY_SECRET']);
		expect(listed(thrown(() => resolveConfig(config([Twitter()]), {})))).toEqual(['AUTH_TWITTER_ID', 'AUTH_TWITTER_SECRET']);
	});

	test('the checks of one provider name the variable too', () => {
		const provider: OAuthConfig = { id: 'corp', name: 'Corp', type: 'oidc', issuer: 'https://sso.corp.test' };
		expect(() => normalizeOAuthProvider(provider)).toThrow(/`clientId` is required.*AUTH_CORP_ID/);
		const basic = { ...provider, clientId: 'a', client: { token_endpoint_auth_method: 'client_secret_post' as const } };
		expect(() => normalizeOAuthProvider(basic)).toThrow(/needs `clientSecret`.*AUTH_CORP_SECRET/);
	});
});

describe('every missing variable at once', () => {
	test('production with nothing set: the secret, the URL and every provider’s variables in one error', () => {
		const env: AuthEnv = { NODE_ENV: 'production' };
		const everything = config([GitHub(), Keycloak(), OIDC({ id: 'corporate-sso' }), Email()], { secret: undefined, trustHost: undefined });
		const error = thrown(() => resolveConfig(everything, env));
		// the class of the first of them, as when the secret alone stopped the start-up
		expect(error).toBeInstanceOf(MissingSecret);
		expect(listed(error)).toEqual([
			'AUTH_SECRET',
			'AUTH_URL',
			'AUTH_GITHUB_ID',
			'AUTH_GITHUB_SECRET',
			'AUTH_KEYCLOAK_ID',
			'AUTH_KEYCLOAK_ISSUER',
			'AUTH_CORPORATE_SSO_ID',
			'AUTH_CORPORATE_SSO_ISSUER',
			'AUTH_EMAIL_SERVER'
		]);
		// what each one holds, and where to set them
		expect(error.message).toMatch(/^- AUTH_SECRET: at least 32 random characters/m);
		expect(error.message).toMatch(/^- AUTH_URL: the public URL of the app/m);
		expect(error.message).toMatch(/^- AUTH_KEYCLOAK_ISSUER: .*e\.g\. https:\/\/kc\.example\.com\/realms\/myrealm/m);
		expect(error.message).toMatch(/\.env in development.*environment variables in production/);
		expect((error as unknown as Record<symbol, unknown>)[MISSING_VARIABLES]).toHaveLength(9);
	});

	test('with the secret set, the URL and the providers’ variables together (UntrustedHost)', () => {
		const error = thrown(() => resolveConfig(config([GitHub()], { trustHost: undefined }), { NODE_ENV: 'production' }));
		expect(error).toBeInstanceOf(UntrustedHost);
		expect(listed(error)).toEqual(['AUTH_URL', 'AUTH_GITHUB_ID', 'AUTH_GITHUB_SECRET']);
	});

	test('an email provider in production on a trusted platform without AUTH_URL: named with the others', () => {
		const error = thrown(() => resolveConfig(config([Email(), GitHub()], { trustHost: undefined }), { NODE_ENV: 'production', VERCEL: '1' }));
		expect(error).toBeInstanceOf(UntrustedHost);
		expect(listed(error)).toEqual(['AUTH_URL', 'AUTH_EMAIL_SERVER', 'AUTH_GITHUB_ID', 'AUTH_GITHUB_SECRET']);
		expect(error.message).toContain('email provider "email" mails sign-in links');
	});

	test('a missing variable is reported before another mistake, as the secret was before', () => {
		const error = thrown(() => resolveConfig(config([GitHub()], { secret: undefined, session: { strategy: 'nonsense' as never } }), {}));
		expect(error).toBeInstanceOf(MissingSecret);
		expect(listed(error)).toEqual(['AUTH_SECRET']);
	});
});

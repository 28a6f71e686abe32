import { describe, test, expect } from 'vitest';
import { resolveConfig, type AuthEnv } from './resolve-config.js';
import {
	DuplicateProviderId,
	ExperimentalFeatureNotEnabled,
	InvalidConfiguration,
	MissingAdapter,
	MissingSecret,
	UnsupportedStrategy,
	UntrustedHost
} from '../errors.js';
import type { AuthConfig, CredentialsConfig, EmailConfig, Provider, WebAuthnConfig } from '../types.js';
import { thrown } from '../test/thrown.js';

const SECRET = 'config-test-secret-0123456789abcdef';
const quietLogger = { warn: () => {}, error: () => {}, debug: () => {} };

function credentials(id = 'credentials'): CredentialsConfig {
	return { id, name: 'Password', type: 'credentials', credentials: {}, authorize: () => null };
}

function email(id = 'email'): EmailConfig {
	return { id, name: 'Email', type: 'email', sendVerificationRequest: async () => {} };
}

function webauthn(id = 'passkey'): WebAuthnConfig {
	return { id, name: 'Passkey', type: 'webauthn' };
}

/** A fresh config object: the resolver caches by object identity. */
function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
	return { providers: [credentials()], secret: SECRET, logger: quietLogger, ...overrides };
}


const devEnv = (): AuthEnv => ({});

describe('resolveConfig: secret', () => {
	test('a missing secret is MissingSecret mentioning AUTH_SECRET', () => {
		const error = thrown(() => resolveConfig(config({ secret: undefined }), devEnv()));
		expect(error).toBeInstanceOf(MissingSecret);
		expect(error.type).toBe('MissingSecret');
		expect(error.message).toContain('AUTH_SECRET');
	});

	test('an empty secret array is MissingSecret', () => {
		expect(thrown(() => resolveConfig(config({ secret: [] }), devEnv()))).toBeInstanceOf(MissingSecret);
	});

	test('a 31-character secret is refused, 32 characters accepted', () => {
		const error = thrown(() => resolveConfig(config({ secret: 'x'.repeat(31) }), devEnv()));
		expect(error).toBeInstanceOf(MissingSecret);
		expect(error.message).toContain('31');
		expect(resolveConfig(config({ secret: 'x'.repeat(32) }), devEnv()).secrets).toEqual(['x'.repeat(32)]);
	});

	test('AUTH_SECRET_1, _2 and _3 join the rotation as Auth.js reads them: the highest number signs, AUTH_SECRET last', () => {
		const [s1, s2, s3] = ['1', '2', '3'].map((n) => `${SECRET}-${n}`);
		const resolved = resolveConfig(config({ secret: undefined }), { AUTH_SECRET: SECRET, AUTH_SECRET_1: s1, AUTH_SECRET_2: s2, AUTH_SECRET_3: s3 });
		expect(resolved.secrets).toEqual([s3, s2, s1, SECRET]);
		expect(resolveConfig(config({ secret: undefined }), { AUTH_SECRET_1: s1, AUTH_SECRET: '' }).secrets).toEqual([s1]);
		// an explicit `secret` wins over the environment, as before
		expect(resolveConfig(config(), { AUTH_SECRET_1: s1 }).secrets).toEqual([SECRET]);
	});

	test('the secret is read from env.AUTH_SECRET', () => {
		const resolved = resolveConfig(config({ secret: undefined }), { AUTH_SECRET: SECRET });
		expect(resolved.secrets).toEqual([SECRET]);
	});

	test('the config secret wins over AUTH_SECRET', () => {
		const other = 'y'.repeat(40);
		expect(resolveConfig(config({ secret: other }), { AUTH_SECRET: SECRET }).secrets).toEqual([other]);
	});

	test('an env secret that is too short is refused', () => {
		expect(thrown(() => resolveConfig(config({ secret: undefined }), { AUTH_SECRET: 'short' }))).toBeInstanceOf(MissingSecret);
	});

	test('rotated secrets keep their order; a short one is named by index', () => {
		const older = 'z'.repeat(32);
		expect(resolveConfig(config({ secret: [SECRET, older] }), devEnv()).secrets).toEqual([SECRET, older]);
		const error = thrown(() => resolveConfig(config({ secret: [SECRET, 'short'] }), devEnv()));
		expect(error).toBeInstanceOf(MissingSecret);
		expect(error.message).toContain('index 1');
	});
});

describe('resolveConfig: providers', () => {
	test('duplicate provider ids are DuplicateProviderId', () => {
		const error = thrown(() => resolveConfig(config({ providers: [credentials('login'), credentials('login')] }), devEnv()));
		expect(error).toBeInstanceOf(DuplicateProviderId);
		expect(error.message).toContain('login');
	});

	test('an unknown provider type is an error that lists the allowed types', () => {
		const odd = { id: 'odd', name: 'Odd', type: 'saml' } as unknown as Provider;
		const error = thrown(() => resolveConfig(config({ providers: [odd] }), devEnv()));
		expect(error).toBeInstanceOf(InvalidConfiguration);
		expect(error.message).toContain('saml');
		for (const type of ['oidc', 'oauth', 'email', 'credentials', 'webauthn']) expect(error.message).toContain(`"${type}"`);
	});

	test('providers must be an array', () => {
		const error = thrown(() => resolveConfig(config({ providers: undefined as unknown as Provider[] }), devEnv()));
		expect(error).toBeInstanceOf(InvalidConfiguration);
	});

	test('an invalid provider id is refused', () => {
		const error = thrown(() => resolveConfig(config({ providers: [credentials('has space')] }), devEnv()));
		expect(error).toBeInstanceOf(InvalidConfiguration);
		expect(error.message).toContain('has space');
	});

	test('a credentials provider without authorize is refused', () => {
		const broken = { id: 'c', name: 'C', type: 'credentials' } as unknown as Provider;
		expect(thrown(() => resolveConfig(config({ providers: [broken] }), devEnv()))).toBeInstanceOf(InvalidConfiguration);
	});

	test('an email provider without an adapter is MissingAdapter', () => {
		const error = thrown(() => resolveConfig(config({ providers: [email()] }), devEnv()));
		expect(error).toBeInstanceOf(MissingAdapter);
		expect(error.type).toBe('MissingAdapter');
	});

	test('an email provider with an adapter is accepted', () => {
		const resolved = resolveConfig(config({ providers: [email()], adapter: {} }), devEnv());
		expect(resolved.providerById.get('email')?.type).toBe('email');
	});

	test('webauthn without experimental.enableWebAuthn is ExperimentalFeatureNotEnabled', () => {
		const error = thrown(() => resolveConfig(config({ providers: [webauthn()], adapter: {} }), devEnv()));
		expect(error).toBeInstanceOf(ExperimentalFeatureNotEnabled);
		expect(error.message).toContain('enableWebAuthn');
		const off = thrown(() =>
			resolveConfig(config({ providers: [webauthn()], adapter: {}, experimental: { enableWebAuthn: false } }), devEnv())
		);
		expect(off).toBeInstanceOf(ExperimentalFeatureNotEnabled);
	});

	test('webauthn with the flag and an adapter is accepted', () => {
		const resolved = resolveConfig(
			config({ providers: [webauthn()], adapter: {}, experimental: { enableWebAuthn: true } }),
			devEnv()
		);
		expect(resolved.experimental.enableWebAuthn).toBe(true);
		expect(resolved.providerById.has('passkey')).toBe(true);
	});

	test('webauthn with the flag but no adapter is MissingAdapter', () => {
		const error = thrown(() =>
			resolveConfig(config({ providers: [webauthn()], experimental: { enableWebAuthn: true } }), devEnv())
		);
		expect(error).toBeInstanceOf(MissingAdapter);
	});

	test('a provider without a name is named after its id', () => {
		const unnamed = { ...credentials('pw'), name: undefined } as unknown as Provider;
		expect(resolveConfig(config({ providers: [unnamed] }), devEnv()).providers[0].name).toBe('pw');
	});
});

describe('resolveConfig: session strategy and defaults', () => {
	test('the database strategy without an adapter is UnsupportedStrategy', () => {
		const error = thrown(() => resolveConfig(config({ session: { strategy: 'database' } }), devEnv()));
		expect(error).toBeInstanceOf(UnsupportedStrategy);
		expect(error.type).toBe('UnsupportedStrategy');
	});

	test('an unknown strategy is UnsupportedStrategy', () => {
		const session = { strategy: 'cookie' } as unknown as AuthConfig['session'];
		expect(thrown(() => resolveConfig(config({ session }), devEnv()))).toBeInstanceOf(UnsupportedStrategy);
	});

	test('defaults: basePath /auth, 30-day maxAge, 1-day updateAge, jwt strategy', () => {
		const resolved = resolveConfig(config(), devEnv());
		expect(resolved.basePath).toBe('/auth');
		expect(resolved.session.maxAge).toBe(2592000);
		expect(resolved.session.updateAge).toBe(86400);
		expect(resolved.session.strategy).toBe('jwt');
		expect(resolved.jwt.maxAge).toBe(2592000);
		expect(resolved.adapter).toBeUndefined();
		expect(resolved.trustHost).toBe(true);
		expect(resolved.authUrl).toBeUndefined();
		expect(resolved.skipCSRFCheck).toBe(false);
		expect(resolved.cookies.secure.sessionToken.name).toBe('__Secure-kitgate.session-token');
		expect(resolved.cookies.insecure.sessionToken.name).toBe('kitgate.session-token');
	});

	test('the strategy defaults to database when an adapter is given', () => {
		const resolved = resolveConfig(config({ adapter: {} }), devEnv());
		expect(resolved.session.strategy).toBe('database');
		expect(resolved.adapter).toBeDefined();
	});

	test('the jwt strategy can be forced with an adapter', () => {
		expect(resolveConfig(config({ adapter: {}, session: { strategy: 'jwt' } }), devEnv()).session.strategy).toBe('jwt');
	});

	test('jwt.maxAge follows session.maxAge unless set', () => {
		expect(resolveConfig(config({ session: { maxAge: 600 } }), devEnv()).jwt.maxAge).toBe(600);
		expect(resolveConfig(config({ session: { maxAge: 600 }, jwt: { maxAge: 60 } }), devEnv()).jwt.maxAge).toBe(60);
	});

	test('updateAge 0 is allowed', () => {
		expect(resolveConfig(config({ session: { updateAge: 0 } }), devEnv()).session.updateAge).toBe(0);
	});

	test('a negative or non-finite maxAge is an error', () => {
		const negative = thrown(() => resolveConfig(config({ session: { maxAge: -1 } }), devEnv()));
		expect(negative).toBeInstanceOf(InvalidConfiguration);
		expect(negative.message).toContain('session.maxAge');
		expect(thrown(() => resolveConfig(config({ session: { maxAge: Number.NaN } }), devEnv()))).toBeInstanceOf(InvalidConfiguration);
		expect(thrown(() => resolveConfig(config({ session: { updateAge: -5 } }), devEnv()))).toBeInstanceOf(InvalidConfiguration);
		expect(thrown(() => resolveConfig(config({ jwt: { maxAge: -1 } }), devEnv()))).toBeInstanceOf(InvalidConfiguration);
	});

	test('cookie overrides merge with the defaults', () => {
		const resolved = resolveConfig(
			config({ cookies: { sessionToken: { name: 'my-session', options: { sameSite: 'strict' } } } }),
			devEnv()
		);
		expect(resolved.cookies.secure.sessionToken.name).toBe('my-session');
		expect(resolved.cookies.secure.sessionToken.options).toMatchObject({ sameSite: 'strict', httpOnly: true, path: '/', secure: true });
		expect(resolved.cookies.secure.csrfToken.name).toBe('__Host-kitgate.csrf-token');
	});
});

describe('resolveConfig: basePath and AUTH_URL', () => {
	test('basePath is normalised', () => {
		expect(resolveConfig(config({ basePath: 'auth/' }), devEnv()).basePath).toBe('/auth');
		expect(resolveConfig(config({ basePath: '/api/auth/' }), devEnv()).basePath).toBe('/api/auth');
		expect(resolveConfig(config({ basePath: 'api/auth' }), devEnv()).basePath).toBe('/api/auth');
	});

	test('basePath "/", "", "//x" and paths with odd characters are refused', () => {
		for (const basePath of ['/', '', '//x', '/a//b', '/auth?x=1', '/a b', 'https://x.com/auth']) {
			expect(thrown(() => resolveConfig(config({ basePath }), devEnv()))).toBeInstanceOf(InvalidConfiguration);
		}
	});

	test('AUTH_URL with a path sets basePath', () => {
		const resolved = resolveConfig(config(), { AUTH_URL: 'https://example.com/api/auth' });
		expect(resolved.basePath).toBe('/api/auth');
		expect(resolved.authUrl?.origin).toBe('https://example.com');
	});

	test('AUTH_URL without a path keeps /auth; an explicit basePath wins over AUTH_URL', () => {
		expect(resolveConfig(config(), { AUTH_URL: 'https://example.com' }).basePath).toBe('/auth');
		expect(resolveConfig(config({ basePath: '/login' }), { AUTH_URL: 'https://example.com/api/auth' }).basePath).toBe('/login');
	});

	test('an invalid AUTH_URL is an error naming AUTH_URL', () => {
		for (const AUTH_URL of ['not a url', 'example.com', 'ftp://example.com', 'javascript:alert(1)']) {
			const error = thrown(() => resolveConfig(config(), { AUTH_URL }));
			expect(error).toBeInstanceOf(InvalidConfiguration);
			expect(error.message).toContain('AUTH_URL');
		}
	});
});

describe('resolveConfig: trustHost', () => {
	test('AUTH_TRUST_HOST=true trusts the host in production', () => {
		const resolved = resolveConfig(config(), { NODE_ENV: 'production', AUTH_TRUST_HOST: 'true' });
		expect(resolved.trustHost).toBe(true);
	});

	test('production without trustHost or AUTH_URL is UntrustedHost naming trustHost and AUTH_TRUST_HOST', () => {
		const error = thrown(() => resolveConfig(config(), { NODE_ENV: 'production' }));
		expect(error).toBeInstanceOf(UntrustedHost);
		expect(error.type).toBe('UntrustedHost');
		expect(error.message).toContain('trustHost');
		expect(error.message).toContain('AUTH_TRUST_HOST');
	});

	test('production with AUTH_URL is fine and does not trust the host', () => {
		const resolved = resolveConfig(config(), { NODE_ENV: 'production', AUTH_URL: 'https://example.com' });
		expect(resolved.trustHost).toBe(false);
		expect(resolved.authUrl?.href).toBe('https://example.com/');
	});

	test('trustHost: true in the config works in production', () => {
		expect(resolveConfig(config({ trustHost: true }), { NODE_ENV: 'production' }).trustHost).toBe(true);
	});

	test('the config trustHost wins over AUTH_TRUST_HOST', () => {
		const error = thrown(() => resolveConfig(config({ trustHost: false }), { AUTH_TRUST_HOST: 'true' }));
		expect(error).toBeInstanceOf(UntrustedHost);
	});

	test('AUTH_TRUST_HOST=false outside production without AUTH_URL is UntrustedHost', () => {
		expect(thrown(() => resolveConfig(config(), { AUTH_TRUST_HOST: 'false' }))).toBeInstanceOf(UntrustedHost);
	});

	test('hosting platforms are trusted in production', () => {
		expect(resolveConfig(config(), { NODE_ENV: 'production', VERCEL: '1' }).trustHost).toBe(true);
	});
});

describe('resolveConfig: caching', () => {
	test('the same config object resolves to the same object', () => {
		const shared = config();
		const first = resolveConfig(shared, devEnv());
		expect(resolveConfig(shared, devEnv())).toBe(first);
	});

	test('another config object with the same content resolves anew', () => {
		expect(resolveConfig(config(), devEnv())).not.toBe(resolveConfig(config(), devEnv()));
	});

	test('a failing config is not cached: it fails every time', () => {
		const bad = config({ secret: 'short' });
		expect(thrown(() => resolveConfig(bad, devEnv()))).toBeInstanceOf(MissingSecret);
		expect(thrown(() => resolveConfig(bad, devEnv()))).toBeInstanceOf(MissingSecret);
	});

	test('a non-object config is InvalidConfiguration', () => {
		expect(thrown(() => resolveConfig(null as unknown as AuthConfig, devEnv()))).toBeInstanceOf(InvalidConfiguration);
	});
});

// Attacks: OAuth code loaded on the first OAuth request (a7f47c0). `oauthFlow()` imports
// the sign-in steps (oauth.ts) on the first sign-in, callback or link; token-refresh.ts imports the
// refresh-token grant (token-refresh-request.ts) on the first refresh; the start-up checks live in
// endpoint-rules.ts and signing-key-algorithm.ts, free of oauth4webapi and jose. Each test starts
// from a fresh module graph (`vi.resetModules()` and re-registered `vi.doMock` factories: as in a
// new process, nothing OAuth is loaded yet) and drives `Auth()` against an OAuth 2 / 1.0a identity
// provider that answers kitgate's `fetch` in process. The pass-through factories record which
// modules load and can make one import fail as a real one can (EMFILE under load, a file replaced
// by a redeploy while the old process runs). Tests named "(fails before the fix)" performed an
// attack that worked when they were written: a failed import of the refresh module rejects the
// single-flight promise, which `refreshOnce` neither catches nor forgets, so the session read
// answers 503, the rejection is unhandled, and that refresh token stays poisoned for the life of
// the process. The others pin properties that held. Unit: no socket, no process.

import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { AuthConfig, JWT, OAuthConfig } from '../../types.js';

/** Modules imported since the last `freshEngine()`, and imports made to fail. */
const loads = { modules: [] as string[], failImport: new Set<string>() };

/** Pass-through factories that record each import (once per fresh engine) and can fail one. */
function recording(name: string) {
	return async (importOriginal: () => Promise<unknown>) => {
		loads.modules.push(name);
		if (loads.failImport.has(name)) throw new Error(`EMFILE: too many open files, open ${name}`);
		return importOriginal();
	};
}

const ORIGIN = 'http://localhost:3000';
const IDP = 'https://idp.example.test';

/** A logger that keeps what it is given. */
function keptLogger() {
	const errors: Error[] = [];
	const warnings: string[] = [];
	return { errors, warnings, logger: { error: (_code: string, error?: unknown) => void errors.push(error as Error), warn: (...parts: unknown[]) => void warnings.push(parts.join(' ')), debug: () => {} } };
}

/** The engine imported afresh, as in a new process: no OAuth module loaded yet. */
async function freshEngine() {
	vi.resetModules();
	// re-registered, so that the next import of each runs its factory again (a mocked module stays cached otherwise)
	vi.doMock('oauth4webapi', recording('oauth4webapi'));
	vi.doMock('jose', recording('jose'));
	vi.doMock('../../flows/oauth/oauth.js', recording('oauth.ts'));
	vi.doMock('../../flows/oauth/token-refresh-request.js', recording('token-refresh-request.ts'));
	loads.modules.length = 0;
	const client = await import('../client.js');
	const jwt = await import('../../crypto/jwt.js');
	const config = await import('../../config/resolve-config.js');
	const { default: Credentials } = await import('../../../providers/credentials.js');
	const { MemoryAdapter } = await import('../../../adapters/memory.js');
	return { ...client, ...jwt, resolveConfig: config.resolveConfig, Credentials, MemoryAdapter };
}

// ---------------------------------------------------------------------------------------------
// An identity provider that answers kitgate's fetch calls in process: OAuth 2 (authorization code
// with PKCE, refresh tokens, userinfo) and the request-token step of OAuth 1.0a.

interface FakeIdp {
	/** Token endpoint requests, in order (form bodies). */
	tokenRequests: URLSearchParams[];
	/** Request-token requests of OAuth 1.0a. */
	requestTokens: number;
	/** How long the token endpoint takes to answer a refresh. */
	refreshDelayMs: number;
	/** What the user's browser does at the authorization endpoint: the redirect back, with a code for `user`. */
	authorize(location: string, user: string): string;
}

function fakeIdp(): FakeIdp {
	const codes = new Map<string, { challenge: string | null; user: string; redirectUri: string }>();
	let issued = 0;
	const idp: FakeIdp = {
		tokenRequests: [],
		requestTokens: 0,
		refreshDelayMs: 0,
		authorize(location, user) {
			const url = new URL(location);
			expect(`${url.origin}${url.pathname}`).toBe(`${IDP}/authorize`);
			const code = `code-${randomUUID()}`;
			const redirectUri = url.searchParams.get('redirect_uri') as string;
			codes.set(code, { challenge: url.searchParams.get('code_challenge'), user, redirectUri });
			const back = new URL(redirectUri);
			back.searchParams.set('code', code);
			const state = url.searchParams.get('state');
			if (state) back.searchParams.set('state', state);
			return back.href;
		}
	};
	const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
	vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
		const request = new Request(input, init);
		const url = new URL(request.url);
		if (url.origin !== IDP) throw new TypeError(`fetch failed: ${url.origin} is not the fake identity provider`);
		if (url.pathname === '/token' && request.method === 'POST') {
			const body = new URLSearchParams(await request.text());
			idp.tokenRequests.push(body);
			if (body.get('grant_type') === 'authorization_code') {
				const entry = codes.get(body.get('code') ?? '');
				codes.delete(body.get('code') ?? '');
				if (!entry || entry.redirectUri !== body.get('redirect_uri')) return json(400, { error: 'invalid_grant' });
				const challenge = createHash('sha256').update(body.get('code_verifier') ?? '').digest('base64url');
				if (entry.challenge !== challenge) return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
				const n = ++issued;
				return json(200, { access_token: `at-${entry.user}-${n}`, token_type: 'Bearer', expires_in: 3600, refresh_token: `rt-${entry.user}-${n}` });
			}
			if (body.get('grant_type') === 'refresh_token') {
				await new Promise((resolve) => setTimeout(resolve, idp.refreshDelayMs));
				const n = ++issued;
				return json(200, { access_token: `at-refreshed-${n}`, token_type: 'Bearer', expires_in: 3600, refresh_token: `rt-refreshed-${n}` });
			}
			return json(400, { error: 'unsupported_grant_type' });
		}
		if (url.pathname === '/userinfo') {
			const user = (request.headers.get('authorization') ?? '').replace(/^Bearer at-/, '').replace(/-\d+$/, '');
			return json(200, { sub: user, email: `${user}@example.com`, name: user });
		}
		if (url.pathname === '/oauth1/request_token' && request.method === 'POST') {
			idp.requestTokens++;
			const form = new URLSearchParams({ oauth_token: `rq-${randomUUID()}`, oauth_token_secret: 'rq-secret', oauth_callback_confirmed: 'true' });
			return new Response(form.toString(), { status: 200, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
		}
		return json(404, { error: 'not_found' });
	});
	return idp;
}

/** An OAuth 2 provider on the fake identity provider (PKCE and state, the defaults). */
function fakeProvider(id: string, overrides: Partial<OAuthConfig> = {}): OAuthConfig {
	return {
		id,
		name: id,
		type: 'oauth',
		clientId: `client-${id}`,
		clientSecret: `secret-${id}-secret-${id}`,
		authorization: `${IDP}/authorize`,
		token: `${IDP}/token`,
		userinfo: `${IDP}/userinfo`,
		profile: (profile) => ({ id: String(profile.sub), email: String(profile.email), name: String(profile.name) }),
		...overrides
	};
}

/** An OAuth 1.0a provider on the fake identity provider. */
function fakeOAuth1Provider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
	return {
		id: 'legacy',
		name: 'Legacy',
		type: 'oauth',
		version: '1.0a',
		clientId: 'consumer-key',
		clientSecret: 'consumer-secret',
		requestToken: `${IDP}/oauth1/request_token`,
		authorization: `${IDP}/oauth1/authorize`,
		token: `${IDP}/oauth1/access_token`,
		userinfo: `${IDP}/oauth1/verify_credentials`,
		profile: (profile) => ({ id: String(profile.id), name: String(profile.name) }),
		...overrides
	};
}

function redirectOf(response: Response): URL {
	expect(response.status, `a redirect, not ${response.status}`).toBe(302);
	return new URL(response.headers.get('location') as string);
}

afterEach(() => {
	vi.unstubAllGlobals();
	loads.failImport.clear();
});

// ---------------------------------------------------------------------------------------------

describe('what an app loads before its first OAuth request', () => {
	test('a credentials-only app signs in, reads and ends sessions without loading oauth4webapi, jose or the OAuth steps', async () => {
		const { testClient, TEST_SECRET, Credentials } = await freshEngine();
		const config: AuthConfig = {
			secret: TEST_SECRET,
			trustHost: true,
			providers: [Credentials({ credentials: { username: {} }, authorize: (c) => (c.username === 'ada' ? { id: 'ada', name: 'Ada' } : null) })],
			logger: keptLogger().logger
		};
		const client = testClient(config, ORIGIN);
		const csrfToken = await client.csrfToken();
		expect(redirectOf(await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada' } })).pathname).toBe('/');
		expect(((await (await client.request('/auth/session')).json()) as { user?: { name?: string } }).user?.name).toBe('Ada');
		expect((await client.request('/auth/signin')).status).toBe(200);
		expect((await client.request('/auth/providers')).status).toBe(200);
		await client.request('/auth/signout', { form: { csrfToken: await client.csrfToken() } });
		expect(await (await client.request('/auth/session')).json()).toBeNull();
		expect(loads.modules).toEqual([]);
	});

	test('an app with OAuth 2, OIDC and OAuth 1.0a providers checks them at start-up and serves pages and sessions without loading any OAuth module', async () => {
		const { testClient, TEST_SECRET } = await freshEngine();
		const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
		const config: AuthConfig = {
			secret: TEST_SECRET,
			trustHost: true,
			providers: [
				fakeProvider('a', { refresh: true }),
				{ id: 'corp', name: 'Corp', type: 'oidc', issuer: IDP, clientId: 'corp', client: { private_key: privateKey.export({ format: 'jwk' }) as never } },
				fakeOAuth1Provider()
			],
			logger: keptLogger().logger
		};
		const client = testClient(config, ORIGIN);
		await client.csrfToken();
		expect((await client.request('/auth/signin')).status).toBe(200);
		expect(await (await client.request('/auth/session')).json()).toBeNull();
		expect(Object.keys((await (await client.request('/auth/providers')).json()) as object).sort()).toEqual(['a', 'corp', 'legacy']);
		expect(loads.modules).toEqual([]);
	});
});

describe('misconfigured providers still fail at start-up, with the same messages, loading no OAuth library', () => {
	const rsa1024 = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
	const ec256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
	const secp256k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey;
	const cases: [string, Partial<OAuthConfig>, string][] = [
		['an http token endpoint off loopback', { token: 'http://idp.example.com/token' }, 'OAuth provider "x": `token` must use https (plain http is allowed only for 127.0.0.1/localhost); got http://idp.example.com/token.'],
		['an http issuer on a name that only starts like 127.0.0.1', { issuer: 'http://127.0.0.1.nip.io' }, '`issuer` must use https'],
		['an http endpoint on localhost.evil.com', { authorization: 'http://localhost.evil.com/authorize' }, '`authorization` must use https'],
		['a public JWK', { client: { private_key: ec256.publicKey.export({ format: 'jwk' }) as never } }, 'client.private_key: this JWK is a public key: give the private key (with "d"), and register the public one with the identity provider.'],
		['a symmetric JWK', { client: { private_key: { kty: 'oct', k: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0' } as never } }, 'client.private_key: a symmetric ("oct") key cannot sign private_key_jwt assertions; use client_secret_jwt with `clientSecret`.'],
		['a 1024-bit RSA key (PEM)', { client: { private_key: rsa1024.export({ format: 'pem', type: 'pkcs8' }) as string } }, 'client.private_key: an RSA key must have at least 2048 bits.'],
		['a 1024-bit RSA key (JWK)', { client: { private_key: rsa1024.export({ format: 'jwk' }) as never } }, 'client.private_key: an RSA key must have at least 2048 bits.'],
		['a PEM that does not parse', { client: { private_key: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----' } }, 'client.private_key: it cannot be read as a private key ('],
		['a public PEM', { client: { private_key: ec256.publicKey.export({ format: 'pem', type: 'spki' }) as string } }, 'client.private_key: a string must be a PEM private key'],
		['a secp256k1 key', { client: { private_key: secp256k1.export({ format: 'jwk' }) as never } }, 'client.private_key: an EC key must be on P-256, P-384 or P-521.'],
		['a JWK whose alg does not fit its key', { client: { private_key: { ...(ec256.privateKey.export({ format: 'jwk' }) as object), alg: 'RS256' } as never } }, 'client.private_key: the JWK\'s "alg" "RS256" does not fit its ec key.']
	];
	test.each(cases)('%s', async (_name, overrides, message) => {
		const { resolveConfig, TEST_SECRET } = await freshEngine();
		const provider = fakeProvider('x', overrides);
		expect(() => resolveConfig({ secret: TEST_SECRET, trustHost: true, providers: [provider] }, {})).toThrow(message);
		expect(loads.modules).toEqual([]);
	});

	test('a public CryptoKey, and an OAuth 1.0a provider with an http endpoint off loopback', async () => {
		const { resolveConfig, TEST_SECRET } = await freshEngine();
		const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
		const configOf = (provider: OAuthConfig): AuthConfig => ({ secret: TEST_SECRET, trustHost: true, providers: [provider] });
		expect(() => resolveConfig(configOf(fakeProvider('x', { client: { private_key: pair.publicKey as never } })), {})).toThrow(
			'client.private_key: the CryptoKey must be a private key with the "sign" usage.'
		);
		expect(() => resolveConfig(configOf(fakeOAuth1Provider({ requestToken: 'http://api.example.com/request_token' })), {})).toThrow(
			'OAuth 1.0a provider "legacy": `requestToken` must use https (plain http only on 127.0.0.1/localhost); got http://api.example.com/request_token.'
		);
		// the loopback exception still holds, without loading anything either
		expect(() => resolveConfig(configOf(fakeProvider('y', { token: 'http://127.0.0.1:9/token', userinfo: 'http://[::1]:9/me' })), {})).not.toThrow();
		expect(loads.modules).toEqual([]);
	});
});

describe('the first OAuth requests of a process', () => {
	test('eight browsers starting their first sign-ins at once each get their own state and PKCE, and each signs in as themself', async () => {
		const { testClient, TEST_SECRET } = await freshEngine();
		const idp = fakeIdp();
		const log = keptLogger();
		const config: AuthConfig = { secret: TEST_SECRET, trustHost: true, providers: [fakeProvider('a')], logger: log.logger };
		const users = Array.from({ length: 8 }, (_, i) => `user${i}`);
		const browsers = users.map(() => testClient(config, ORIGIN));
		const victim = testClient(config, ORIGIN);
		const csrf = await Promise.all(browsers.map((browser) => browser.csrfToken()));
		expect(loads.modules).toEqual([]);

		const victimCsrf = await victim.csrfToken();
		const [victimStarted, ...started] = await Promise.all([
			victim.request('/auth/signin/a', { form: { csrfToken: victimCsrf, callbackUrl: '/dashboard' } }),
			...browsers.map((browser, i) => browser.request('/auth/signin/a', { form: { csrfToken: csrf[i], callbackUrl: '/dashboard' } }))
		]);
		redirectOf(victimStarted);
		const authorizations = started.map(redirectOf);
		expect(new Set(authorizations.map((url) => url.searchParams.get('state'))).size).toBe(8);
		expect(new Set(authorizations.map((url) => url.searchParams.get('code_challenge'))).size).toBe(8);
		// one import shared by all eight
		expect(loads.modules.filter((name) => name === 'oauth.ts')).toEqual(['oauth.ts']);

		const back = authorizations.map((url, i) => idp.authorize(url.href, users[i]));
		// a browser in its own sign-in handed another's redirect (login CSRF) is refused with the stable code, not a 500
		const swapped = await victim.request(back[1]);
		expect(redirectOf(swapped).searchParams.get('error')).toBe('InvalidCheck');

		const finished = await Promise.all(browsers.map((browser, i) => browser.request(back[i])));
		expect(finished.map((response) => `${response.status} ${response.headers.get('location')}`)).toEqual(users.map(() => `302 ${ORIGIN}/dashboard`));
		const names = await Promise.all(browsers.map(async (browser) => ((await (await browser.request('/auth/session')).json()) as { user?: { name?: string } }).user?.name));
		expect(names).toEqual(users);
		expect(log.errors).toEqual([]);
	});

	test('a first request that fails in the lazily loaded steps still answers with its stable error code', async () => {
		const { testClient, TEST_SECRET } = await freshEngine();
		const idp = fakeIdp();
		const config: AuthConfig = { secret: TEST_SECRET, trustHost: true, providers: [fakeProvider('a')], logger: keptLogger().logger };
		// a callback with no sign-in started (no check cookies): the first OAuth request of the process
		const stray = await testClient(config, ORIGIN).request('/auth/callback/a?code=forged&state=forged');
		expect(redirectOf(stray).searchParams.get('error')).toBe('InvalidCheck');
		expect(loads.modules).toContain('oauth.ts');
		// a code the identity provider refuses
		const browser = testClient(config, ORIGIN);
		const started = redirectOf(await browser.request('/auth/signin/a', { form: { csrfToken: await browser.csrfToken(), callbackUrl: '/dashboard' } }));
		const back = new URL(idp.authorize(started.href, 'mallory'));
		back.searchParams.set('code', 'not-issued');
		expect(redirectOf(await browser.request(back.href)).searchParams.get('error')).toBe('OAuthCallbackError');
	});

	test('the first OAuth request of a process can be an account link (link.ts): it connects the account to the signed-in user', async () => {
		const { testClient, TEST_SECRET, Credentials, MemoryAdapter } = await freshEngine();
		const idp = fakeIdp();
		const adapter = MemoryAdapter();
		const ada = await adapter.createUser({ id: '', email: 'ada@example.com', emailVerified: null, name: 'Ada' });
		const config: AuthConfig = {
			secret: TEST_SECRET,
			trustHost: true,
			adapter,
			session: { strategy: 'jwt' },
			providers: [Credentials({ credentials: { username: {} }, authorize: (c) => (c.username === 'ada' ? ada : null) }), fakeProvider('b')],
			logger: keptLogger().logger
		};
		const browser = testClient(config, ORIGIN);
		redirectOf(await browser.request('/auth/callback/credentials', { form: { csrfToken: await browser.csrfToken(), username: 'ada' } }));
		expect(loads.modules).toEqual([]);
		const started = await browser.request('/auth/account/link', { form: { csrfToken: await browser.csrfToken(), provider: 'b', callbackUrl: '/dashboard' } });
		const back = idp.authorize(redirectOf(started).href, 'bob');
		expect(redirectOf(await browser.request(back)).href).toBe(`${ORIGIN}/dashboard?account=linked`);
		expect((await adapter.getAccount('bob', 'b'))?.userId).toBe(ada.id);
	});

	test('two browsers starting OAuth 1.0a sign-ins as the first OAuth requests each get their own request token', async () => {
		const { testClient, TEST_SECRET } = await freshEngine();
		const idp = fakeIdp();
		// an OAuth 1.0a sign-in starts only where the app's URL is configured
		const config = { secret: TEST_SECRET, trustHost: true, url: ORIGIN, providers: [fakeOAuth1Provider()], logger: keptLogger().logger } as AuthConfig;
		const browsers = [testClient(config, ORIGIN), testClient(config, ORIGIN)];
		const csrf = await Promise.all(browsers.map((browser) => browser.csrfToken()));
		const started = await Promise.all(browsers.map((browser, i) => browser.request('/auth/signin/legacy', { form: { csrfToken: csrf[i], callbackUrl: '/' } })));
		const tokens = started.map((response) => redirectOf(response).searchParams.get('oauth_token'));
		expect(tokens.every(Boolean) && tokens[0] !== tokens[1]).toBe(true);
		expect(idp.requestTokens).toBe(2);
		// the second browser comes back with the first one's request token: refused, not signed in
		const swapped = await browsers[1].request(`/auth/callback/legacy?oauth_token=${encodeURIComponent(tokens[0] as string)}&oauth_verifier=v`);
		expect(redirectOf(swapped).searchParams.get('error')).toBe('InvalidCheck');
	});

	test('a first sign-in whose import of the OAuth steps fails (EMFILE) is answered, and the next sign-in imports them again and works', async () => {
		const { testClient, TEST_SECRET } = await freshEngine();
		const idp = fakeIdp();
		const log = keptLogger();
		const config: AuthConfig = { secret: TEST_SECRET, trustHost: true, providers: [fakeProvider('a')], logger: log.logger };
		const browser = testClient(config, ORIGIN);
		loads.failImport.add('oauth.ts');
		const failed = await browser.request('/auth/signin/a', { form: { csrfToken: await browser.csrfToken(), callbackUrl: '/dashboard' } });
		// what any unexpected failure gets: the error page, the cause in the log
		expect(redirectOf(failed).href).toBe(`${ORIGIN}/auth/error?error=Configuration`);
		expect(log.errors).toHaveLength(1);
		loads.failImport.clear();
		const started = await browser.request('/auth/signin/a', { form: { csrfToken: await browser.csrfToken(), callbackUrl: '/dashboard' } });
		const back = idp.authorize(redirectOf(started).href, 'ada');
		expect(redirectOf(await browser.request(back)).href).toBe(`${ORIGIN}/dashboard`);
	});
});

// ---------------------------------------------------------------------------------------------
// Upstream token refresh: the grant is imported inside `refreshOnce` on the first refresh.

describe('the first upstream token refresh of a process', () => {
	const SESSION_COOKIE = 'kitgate.session-token';

	/** A JWT session cookie for `sub` whose upstream tokens (provider "a") expired ten seconds ago. */
	async function expiredUpstreamSession(encodeJwt: (params: { token: JWT; secret: string; salt: string; maxAge: number }) => Promise<string>, secret: string, refreshToken: string) {
		const now = Math.floor(Date.now() / 1000);
		return encodeJwt({
			token: {
				sub: 'ada',
				name: 'Ada',
				email: 'ada@example.com',
				'kitgate.upstream': { provider: 'a', providerAccountId: 'ada', access_token: 'at-old', refresh_token: refreshToken, expires_at: now - 10, token_type: 'bearer' }
			},
			secret,
			salt: SESSION_COOKIE,
			maxAge: 3600
		});
	}

	/** The upstream access token the response's re-issued session cookie carries. */
	async function upstreamAccessToken(decodeJwt: (params: { token: string; secret: string; salt: string }) => Promise<JWT | null>, secret: string, response: Response) {
		const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
		if (!line) return undefined;
		const token = await decodeJwt({ token: line.slice(SESSION_COOKIE.length + 1).split(';')[0], secret, salt: SESSION_COOKIE });
		return (token?.['kitgate.upstream'] as { access_token?: string } | undefined)?.access_token;
	}

	test('two reads at once with the same refresh token, before the refresh module is loaded, spend it once and both get the new token', async () => {
		const { testClient, TEST_SECRET, encodeJwt, decodeJwt } = await freshEngine();
		const idp = fakeIdp();
		idp.refreshDelayMs = 50;
		const config: AuthConfig = { secret: TEST_SECRET, trustHost: true, providers: [fakeProvider('a', { refresh: true })], logger: keptLogger().logger };
		const cookie = await expiredUpstreamSession(encodeJwt, TEST_SECRET, `rt-${randomUUID()}`);
		const tabs = [testClient(config, ORIGIN), testClient(config, ORIGIN), testClient(config, ORIGIN)];
		for (const tab of tabs) tab.jar.set(SESSION_COOKIE, cookie);
		expect(loads.modules).toEqual([]);

		const reads = await Promise.all(tabs.map((tab) => tab.request('/auth/session')));
		expect(reads.map((response) => response.status)).toEqual([200, 200, 200]);
		expect(idp.tokenRequests.filter((body) => body.get('grant_type') === 'refresh_token')).toHaveLength(1);
		const fresh = await Promise.all(reads.map((response) => upstreamAccessToken(decodeJwt, TEST_SECRET, response)));
		expect(new Set(fresh).size).toBe(1);
		expect(fresh[0]).toMatch(/^at-refreshed-/);
		expect(loads.modules.filter((name) => name === 'token-refresh-request.ts')).toHaveLength(1);
	});

	describe('a refresh whose import of the refresh module fails once (EMFILE under load, a redeploy that replaced the file)', () => {
		/** Reads the session once with the import failing, then once more with it working. */
		async function failOnceThenRead() {
			const { testClient, TEST_SECRET, encodeJwt, decodeJwt } = await freshEngine();
			const idp = fakeIdp();
			const log = keptLogger();
			const config: AuthConfig = { secret: TEST_SECRET, trustHost: true, providers: [fakeProvider('a', { refresh: true })], logger: log.logger };
			const cookie = await expiredUpstreamSession(encodeJwt, TEST_SECRET, `rt-${randomUUID()}`);
			const unhandled: unknown[] = [];
			const onUnhandled = (reason: unknown) => void unhandled.push(reason);
			process.on('unhandledRejection', onUnhandled);
			try {
				const browser = testClient(config, ORIGIN);
				browser.jar.set(SESSION_COOKIE, cookie);
				loads.failImport.add('token-refresh-request.ts');
				const first = await browser.request('/auth/session');
				const firstBody = await first.clone().text();
				loads.failImport.clear();
				browser.jar.set(SESSION_COOKIE, cookie);
				const second = await browser.request('/auth/session');
				// unhandled rejections are reported after the microtask queue drains
				await new Promise((resolve) => setTimeout(resolve, 20));
				return {
					first: { status: first.status, body: firstBody },
					second: { status: second.status, accessToken: await upstreamAccessToken(decodeJwt, TEST_SECRET, second) },
					refreshRequests: idp.tokenRequests.filter((body) => body.get('grant_type') === 'refresh_token').length,
					unhandled
				};
			} finally {
				process.off('unhandledRejection', onUnhandled);
			}
		}

		test('(fails before the fix) the read that hit the failure still shows the session, with the old tokens kept, as any failed refresh does', async () => {
			const { first } = await failOnceThenRead();
			expect(first.status, first.body).toBe(200);
			expect((JSON.parse(first.body) as { user?: { name?: string }; error?: string }).user?.name).toBe('Ada');
		});

		test('(fails before the fix) the failure leaves no unhandled promise rejection (which ends a Node process by default)', async () => {
			const { unhandled } = await failOnceThenRead();
			expect(unhandled.map(String)).toEqual([]);
		});

		test('(fails before the fix) the failed attempt is not remembered: the next read refreshes the token once the module loads', async () => {
			const { second, refreshRequests } = await failOnceThenRead();
			expect(second.status).toBe(200);
			expect(refreshRequests).toBe(1);
			expect(second.accessToken).toMatch(/^at-refreshed-/);
		});
	});

	test('(fails before the fix) database sessions: a read whose refresh-module import fails still shows the session, and the next read refreshes', async () => {
		const { testClient, TEST_SECRET, MemoryAdapter } = await freshEngine();
		const idp = fakeIdp();
		const adapter = MemoryAdapter();
		// due at once: the tokens the sign-in got expire within the skew
		const config: AuthConfig = { secret: TEST_SECRET, trustHost: true, adapter, providers: [fakeProvider('a', { refresh: { skewSeconds: 7200 } })], logger: keptLogger().logger };
		const browser = testClient(config, ORIGIN);
		const started = await browser.request('/auth/signin/a', { form: { csrfToken: await browser.csrfToken(), callbackUrl: '/dashboard' } });
		expect(redirectOf(await browser.request(idp.authorize(redirectOf(started).href, 'ada'))).href).toBe(`${ORIGIN}/dashboard`);
		expect(loads.modules).not.toContain('token-refresh-request.ts');

		loads.failImport.add('token-refresh-request.ts');
		const unhandled: unknown[] = [];
		const onUnhandled = (reason: unknown) => void unhandled.push(reason);
		process.on('unhandledRejection', onUnhandled);
		let first: Response;
		try {
			first = await browser.request('/auth/session');
			await new Promise((resolve) => setTimeout(resolve, 20));
		} finally {
			process.off('unhandledRejection', onUnhandled);
		}
		loads.failImport.clear();
		const second = await browser.request('/auth/session');
		expect({
			first: `${first.status} ${((await first.json()) as { user?: { name?: string } } | null)?.user?.name}`,
			unhandled: unhandled.length,
			second: second.status,
			refreshRequests: idp.tokenRequests.filter((body) => body.get('grant_type') === 'refresh_token').length,
			stored: (await adapter.getAccount('ada', 'a'))?.access_token?.startsWith('at-refreshed-')
		}).toEqual({ first: '200 ada', unhandled: 0, second: 200, refreshRequests: 1, stored: true });
	});
});

test('the fixture sees what loads: an OAuth sign-in start loads oauth.ts, oauth4webapi and jose, each once per fresh engine', async () => {
	// guards the "loads nothing" tests above against recording factories that silently stopped seeing imports
	for (let round = 0; round < 2; round++) {
		const { testClient, TEST_SECRET } = await freshEngine();
		fakeIdp();
		const browser = testClient({ secret: TEST_SECRET, trustHost: true, providers: [fakeProvider('a')], logger: keptLogger().logger }, ORIGIN);
		redirectOf(await browser.request('/auth/signin/a', { form: { csrfToken: await browser.csrfToken(), callbackUrl: '/' } }));
		expect([...loads.modules].sort()).toEqual(['jose', 'oauth.ts', 'oauth4webapi']);
	}
});

// OAuth 2 / OIDC sign-in through `Auth()` against a real oidc-provider on 127.0.0.1: checks,
// discovery, userinfo mode, client authentication, explicit endpoints, redirect proxy, failures.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { Auth } from '../auth.js';
import { decodeJwt } from '../crypto/jwt.js';
import type { Account, JWT, OAuthConfig, Profile, Session } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { loginAtIdp, loginAtIdpFormPost } from './idp-browser.js';
import { CLIENTS, ORIGIN, PROXY_ORIGIN, authorizationUrl, expectErrorRedirect, idpProvider, oauthConfig, quietLogger, setsSession, signInThroughIdp, startRecordingProxy, startSignIn, startTestIdp, testIdpWorld } from './oauth-fixtures.js';

const world = testIdpWorld();

/** A config whose `jwt` callback records what each sign-in handed it. */
function recording(provider: OAuthConfig, extra: Parameters<typeof oauthConfig>[1] = {}) {
	const seen: { account: Account | null; profile?: Profile; trigger?: string; token: JWT }[] = [];
	const config = oauthConfig([provider], {
		callbacks: {
			jwt: ({ token, account, profile, trigger }) => {
				if (trigger) seen.push({ account, profile, trigger, token });
				return token;
			}
		},
		...extra
	});
	return { config, seen };
}

async function sessionOf(client: ReturnType<typeof testClient>): Promise<Session | null> {
	return (await (await client.request('/auth/session')).json()) as Session | null;
}

describe('authorization code flow', () => {
	test('PKCE, state and nonce (the OIDC default): code_challenge S256, a session, tokens on the account, check cookies cleared', async () => {
		const { config, seen } = recording(idpProvider(world.idp.issuer));
		const client = testClient(config);
		const started = await startSignIn(client, 'idp');
		const url = authorizationUrl(started);
		expect(url.origin).toBe(world.idp.issuer);
		expect(url.searchParams.get('code_challenge_method')).toBe('S256');
		expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
		expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
		expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
		expect(url.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/auth/callback/idp`);
		expect(url.searchParams.get('scope')).toBe('openid profile email');
		// the check values live in httpOnly cookies whose contents are encrypted
		const setCookies = started.headers.getSetCookie();
		const verifierCookie = setCookies.find((c) => c.startsWith('kitgate.pkce.code_verifier='));
		expect(verifierCookie).toMatch(/HttpOnly/i);
		expect(verifierCookie).toMatch(/Max-Age=900/i);
		expect(setCookies.find((c) => c.startsWith('kitgate.callback-url='))).not.toContain('dashboard');

		const back = await loginAtIdp(url.href);
		const before = Date.now();
		const done = await client.request(back);
		expect(done.status).toBe(302);
		expect(done.headers.get('location')).toBe(`${ORIGIN}/dashboard`);
		expect(setsSession(done)).toBe(true);
		const cleared = done.headers.getSetCookie().filter((c) => /max-age=0/i.test(c)).map((c) => c.split('=')[0]);
		expect(cleared).toEqual(expect.arrayContaining(['kitgate.pkce.code_verifier', 'kitgate.state', 'kitgate.nonce', 'kitgate.callback-url']));

		expect(await sessionOf(client)).toMatchObject({ user: { name: 'Demo User', email: 'demo@kitgate.dev' } });
		const [signIn] = seen;
		expect(signIn.trigger).toBe('signIn');
		expect(signIn.token.sub).toBe('demo');
		expect(signIn.account).toMatchObject({ provider: 'idp', type: 'oidc', providerAccountId: 'demo', token_type: 'bearer' });
		expect(signIn.account?.access_token).toEqual(expect.any(String));
		expect(signIn.account?.id_token?.split('.')).toHaveLength(3);
		expect(signIn.account?.expires_at).toBeGreaterThanOrEqual(Math.floor(before / 1000) + 3600 - 5);
		expect(signIn.account?.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
		expect(signIn.profile).toMatchObject({ sub: 'demo', iss: world.idp.issuer, aud: CLIENTS.basic.client_id });
	});

	test('state: sent, checked, and the flow completes', async () => {
		const client = testClient(oauthConfig([idpProvider(world.idp.issuer, { checks: ['state'] })]));
		const started = await startSignIn(client, 'idp');
		const url = authorizationUrl(started);
		expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
		expect(url.searchParams.get('code_challenge')).toBeNull();
		const done = await client.request(await loginAtIdp(url.href));
		expect(done.headers.get('location')).toBe(`${ORIGIN}/dashboard`);
		expect(setsSession(done)).toBe(true);
	});

	test('nonce: sent and matched against the ID token', async () => {
		const { config, seen } = recording(idpProvider(world.idp.issuer, { checks: ['pkce', 'nonce', 'state'] }));
		const client = testClient(config);
		const url = authorizationUrl(await startSignIn(client, 'idp'));
		const nonce = url.searchParams.get('nonce');
		expect(nonce).toMatch(/^[\w-]{43}$/);
		const done = await client.request(await loginAtIdp(url.href));
		expect(setsSession(done)).toBe(true);
		expect(seen[0].profile?.nonce).toBe(nonce);
	});

	test('checks: ["none"] sends no check at all, warns once, and still signs in', async () => {
		const log = quietLogger();
		const client = testClient(oauthConfig([idpProvider(world.idp.issuer, { id: 'plain', checks: ['none'] })], { logger: log.logger }));
		const url = authorizationUrl(await startSignIn(client, 'plain'));
		for (const name of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(name)).toBeNull();
		expect(setsSession(await client.request(await loginAtIdp(url.href)))).toBe(true);
		expect(log.warnings.filter((w) => w.startsWith('oauth-checks-none'))).toHaveLength(1);
	});

	test('discovery is fetched once and reused by later sign-ins', async () => {
		const proxy = await startRecordingProxy(world.idp.issuer);
		try {
			const provider = idpProvider(world.idp.issuer, { id: 'wk', issuer: undefined, wellKnown: `${proxy.url}/.well-known/openid-configuration` });
			const client = testClient(oauthConfig([provider]));
			await signInThroughIdp(client, 'wk');
			await signInThroughIdp(client, 'wk');
			expect(proxy.requests.filter((r) => r.path === '/.well-known/openid-configuration')).toHaveLength(1);
		} finally {
			await proxy.close();
		}
	});

	test('response_mode=form_post: the callback arrives as a POST and completes', async () => {
		const provider = idpProvider(world.idp.issuer, { checks: ['pkce', 'state', 'nonce'], authorization: { params: { response_mode: 'form_post' } } });
		const client = testClient(oauthConfig([provider]));
		const url = authorizationUrl(await startSignIn(client, 'idp'));
		const { action, fields } = await loginAtIdpFormPost(url.href);
		expect(action).toBe(`${ORIGIN}/auth/callback/idp`);
		expect(Object.keys(fields)).toEqual(expect.arrayContaining(['code', 'state', 'iss']));
		const done = await client.request(action, { form: fields });
		expect(done.headers.get('location')).toBe(`${ORIGIN}/dashboard`);
		expect(setsSession(done)).toBe(true);
	});

	test('discovery from `wellKnown` (no issuer given)', async () => {
		const provider = idpProvider(world.idp.issuer, { id: 'wk', issuer: undefined, wellKnown: `${world.idp.issuer}/.well-known/openid-configuration` });
		const client = testClient(oauthConfig([provider]));
		const done = await signInThroughIdp(client, 'wk');
		expect(done.headers.get('location')).toBe(`${ORIGIN}/dashboard`);
		expect(await sessionOf(client)).toMatchObject({ user: { email: 'demo@kitgate.dev' } });
	});

	test('`idToken: false` reads the user from the userinfo endpoint (the ID token is still validated)', async () => {
		const profiles: Profile[] = [];
		const provider = idpProvider(world.idp.issuer, {
			idToken: false,
			profile: (profile) => {
				profiles.push(profile);
				return { id: String(profile.sub), name: `${profile.name} (userinfo)`, email: profile.email };
			}
		});
		const { config, seen } = recording(provider);
		const client = testClient(config);
		expect(setsSession(await signInThroughIdp(client, 'idp'))).toBe(true);
		// userinfo has no ID-token claims such as iss/aud/exp
		expect(profiles[0]).toMatchObject({ sub: 'demo', email: 'demo@kitgate.dev' });
		expect(profiles[0].aud).toBeUndefined();
		expect(profiles[0].iss).toBeUndefined();
		expect(seen[0].account?.id_token).toEqual(expect.any(String));
		expect(await sessionOf(client)).toMatchObject({ user: { name: 'Demo User (userinfo)' } });
	});

	test('client_secret_basic (the default) sends the secret in the Authorization header', async () => {
		const proxy = await startRecordingProxy(world.idp.issuer);
		try {
			const client = testClient(oauthConfig([idpProvider(world.idp.issuer, { token: `${proxy.url}/token` })]));
			expect(setsSession(await signInThroughIdp(client, 'idp'))).toBe(true);
			const [tokenRequest] = proxy.requests;
			const [scheme, encoded] = String(tokenRequest.headers.authorization).split(' ');
			expect(scheme).toBe('Basic');
			// RFC 6749 2.3.1: id and secret are form-encoded before base64
			const [id, secret] = Buffer.from(encoded, 'base64').toString('utf8').split(':').map(decodeURIComponent);
			expect([id, secret]).toEqual([CLIENTS.basic.client_id, CLIENTS.basic.client_secret]);
			expect(new URLSearchParams(tokenRequest.body).has('client_secret')).toBe(false);
			expect(new URLSearchParams(tokenRequest.body).get('code_verifier')).toMatch(/^[\w-]{43}$/);
		} finally {
			await proxy.close();
		}
	});

	test('client_secret_post sends the secret in the form body', async () => {
		const proxy = await startRecordingProxy(world.idp.issuer);
		try {
			const provider = idpProvider(world.idp.issuer, {
				id: 'post',
				clientId: CLIENTS.post.client_id,
				clientSecret: CLIENTS.post.client_secret,
				client: { token_endpoint_auth_method: 'client_secret_post' },
				token: `${proxy.url}/token`
			});
			const client = testClient(oauthConfig([provider]));
			expect(setsSession(await signInThroughIdp(client, 'post'))).toBe(true);
			const [tokenRequest] = proxy.requests;
			expect(tokenRequest.headers.authorization).toBeUndefined();
			const form = new URLSearchParams(tokenRequest.body);
			expect(form.get('client_id')).toBe(CLIENTS.post.client_id);
			expect(form.get('client_secret')).toBe(CLIENTS.post.client_secret);
		} finally {
			await proxy.close();
		}
	});

	test('client_secret_jwt authenticates with an HMAC-signed client assertion', async () => {
		const provider = idpProvider(world.idp.issuer, {
			id: 'post',
			clientId: CLIENTS.jwt.client_id,
			clientSecret: CLIENTS.jwt.client_secret,
			client: { token_endpoint_auth_method: 'client_secret_jwt' }
		});
		const client = testClient(oauthConfig([provider]));
		expect(setsSession(await signInThroughIdp(client, 'post'))).toBe(true);
	});

	test('a wrong client secret: OAuthCallbackError on the sign-in page, invalid_client logged', async () => {
		const log = quietLogger();
		const provider = idpProvider(world.idp.issuer, { clientSecret: 'not-the-secret' });
		const client = testClient(oauthConfig([provider], { logger: log.logger }));
		expectErrorRedirect(await signInThroughIdp(client, 'idp'), 'OAuthCallbackError');
		expect(log.text()).toMatch(/token response failed.*401.*"invalid_client"/);
		expect(log.text()).not.toContain('not-the-secret');
	});

	test('type "oauth" with explicit endpoint URLs: no discovery, profile from userinfo', async () => {
		const discovery = (await (await fetch(`${world.idp.issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
		const provider: OAuthConfig = {
			id: 'plain',
			name: 'Plain OAuth',
			type: 'oauth',
			issuer: world.idp.issuer,
			clientId: CLIENTS.basic.client_id,
			clientSecret: CLIENTS.basic.client_secret,
			authorization: { url: discovery.authorization_endpoint, params: { scope: 'openid email profile' } },
			token: discovery.token_endpoint,
			userinfo: discovery.userinfo_endpoint,
			jwks_endpoint: discovery.jwks_uri
		};
		const { config, seen } = recording(provider);
		const client = testClient(config);
		expect(setsSession(await signInThroughIdp(client, 'plain'))).toBe(true);
		expect(seen[0].account).toMatchObject({ type: 'oauth', providerAccountId: 'demo' });
		expect(seen[0].profile?.aud).toBeUndefined();
	});

	test('userinfo.request replaces the userinfo call', async () => {
		const provider = idpProvider(world.idp.issuer, {
			idToken: false,
			userinfo: { request: ({ tokens }) => ({ sub: 'custom-42', name: 'From request', has_token: Boolean(tokens?.access_token) }) }
		});
		const { config, seen } = recording(provider);
		const client = testClient(config);
		expect(setsSession(await signInThroughIdp(client, 'idp'))).toBe(true);
		expect(seen[0].profile).toEqual({ sub: 'custom-42', name: 'From request', has_token: true });
		expect(seen[0].account?.providerAccountId).toBe('custom-42');
	});

	test('authorization params and sign-in query parameters reach the IdP, protected ones do not', async () => {
		const provider = idpProvider(world.idp.issuer, { authorization: { params: { scope: 'openid email', ui_locales: 'fr' } } });
		const client = testClient(oauthConfig([provider]));
		const url = authorizationUrl(await startSignIn(client, 'idp', {}, '?login_hint=demo&redirect_uri=https://evil.example/cb'));
		expect(url.searchParams.get('scope')).toBe('openid email');
		expect(url.searchParams.get('ui_locales')).toBe('fr');
		expect(url.searchParams.get('login_hint')).toBe('demo');
		expect(url.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/auth/callback/idp`);
	});

	test('profile() and account() shape the user and the stored token fields', async () => {
		const provider = idpProvider(world.idp.issuer, {
			profile: (profile) => ({ id: `user-${profile.sub}`, name: String(profile.preferred_username), email: profile.email }),
			account: (tokens) => ({ access_token: tokens.access_token, custom: 'kept' })
		});
		const { config, seen } = recording(provider);
		const client = testClient(config);
		expect(setsSession(await signInThroughIdp(client, 'idp'))).toBe(true);
		expect(seen[0].account).toEqual({
			provider: 'idp',
			type: 'oidc',
			providerAccountId: 'user-demo',
			access_token: expect.any(String),
			custom: 'kept'
		});
		expect(await sessionOf(client)).toMatchObject({ user: { name: 'demo' } });
	});

	test('callback URL survives the round trip through an encrypted cookie bound to the provider', async () => {
		const client = testClient(oauthConfig([idpProvider(world.idp.issuer)]));
		const started = await startSignIn(client, 'idp', { callbackUrl: `${ORIGIN}/deep/page?tab=2` });
		const raw = client.jar.get('kitgate.callback-url') as string;
		const payload = await decodeJwt({ token: raw, secret: TEST_SECRET, salt: 'kitgate.callback-url' });
		expect(payload).toMatchObject({ value: `${ORIGIN}/deep/page?tab=2`, provider: 'idp' });
		const done = await client.request(await loginAtIdp(authorizationUrl(started).href));
		expect(done.headers.get('location')).toBe(`${ORIGIN}/deep/page?tab=2`);
	});
});

describe('redirect proxy', () => {
	test('redirectProxyUrl sets redirect_uri, adds state, and the proxy forwards the callback back', async () => {
		const provider = idpProvider(world.idp.issuer);
		// the deployment's URL is configured: the proxy forwards only to URLs nobody could forge
		const app = testClient(oauthConfig([provider], { redirectProxyUrl: `${PROXY_ORIGIN}/auth`, url: ORIGIN }));
		const proxyConfig = oauthConfig([provider]);
		const url = authorizationUrl(await startSignIn(app, 'idp'));
		expect(url.searchParams.get('redirect_uri')).toBe(`${PROXY_ORIGIN}/auth/callback/idp`);
		expect(url.searchParams.get('state')).toEqual(expect.any(String));

		const atProxy = await loginAtIdp(url.href);
		expect(atProxy.startsWith(`${PROXY_ORIGIN}/auth/callback/idp?`)).toBe(true);
		// the proxy deployment has none of the app's cookies; it only forwards
		const forwarded = await Auth(new Request(atProxy), proxyConfig);
		expect(forwarded.status).toBe(302);
		const target = forwarded.headers.get('location') as string;
		expect(target.startsWith(`${ORIGIN}/auth/callback/idp?`)).toBe(true);
		expect(setsSession(forwarded)).toBe(false);

		const done = await app.request(target);
		expect(done.headers.get('location')).toBe(`${ORIGIN}/dashboard`);
		expect(setsSession(done)).toBe(true);
	});

	test('without a configured URL (only a trusted Host header) a proxied sign-in is refused: OAuthSignin', async () => {
		const log = quietLogger();
		const app = testClient(oauthConfig([idpProvider(world.idp.issuer)], { redirectProxyUrl: `${PROXY_ORIGIN}/auth`, logger: log.logger }));
		expectErrorRedirect(await startSignIn(app, 'idp'), 'OAuthSignin');
		expect(log.text()).toMatch(/set AUTH_URL/);
	});

	test('a per-provider redirectProxyUrl wins over the global one', async () => {
		const provider = idpProvider(world.idp.issuer, { redirectProxyUrl: `${PROXY_ORIGIN}/auth` });
		const app = testClient(oauthConfig([provider], { redirectProxyUrl: 'https://ignored.example/auth', url: ORIGIN }));
		const url = authorizationUrl(await startSignIn(app, 'idp'));
		expect(url.searchParams.get('redirect_uri')).toBe(`${PROXY_ORIGIN}/auth/callback/idp`);
	});
});

describe('unreachable identity provider', () => {
	test('discovery on a closed port: OAuthSignin on the sign-in page, cause logged', async () => {
		const closed = await startTestIdp();
		await closed.close();
		const log = quietLogger();
		const client = testClient(oauthConfig([idpProvider(closed.issuer)], { logger: log.logger }));
		const response = await startSignIn(client, 'idp');
		expectErrorRedirect(response, 'OAuthSignin');
		expect(log.text()).toContain(`Could not reach the identity provider at ${closed.issuer}/.well-known/openid-configuration`);
		expect(log.text()).toMatch(/ECONNREFUSED/);
	});

	test('an IdP that accepts connections but never answers: OAuthSignin after the provider `timeout`', async () => {
		const silent = createServer(() => {});
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		const issuer = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
		try {
			const log = quietLogger();
			const client = testClient(oauthConfig([idpProvider(issuer, { timeout: 300 })], { logger: log.logger }));
			const started = Date.now();
			expectErrorRedirect(await startSignIn(client, 'idp'), 'OAuthSignin');
			expect(Date.now() - started).toBeLessThan(5000);
			expect(log.text()).toContain('no answer within 300 ms');
		} finally {
			silent.closeAllConnections();
			await new Promise<void>((resolve) => silent.close(() => resolve()));
		}
	});

	test('the IdP goes away between login and callback: OAuthCallbackError, nothing kept', async () => {
		const shortLived = await startTestIdp();
		const log = quietLogger();
		const client = testClient(oauthConfig([idpProvider(shortLived.issuer)], { logger: log.logger }));
		const url = authorizationUrl(await startSignIn(client, 'idp'));
		const back = await loginAtIdp(url.href);
		await shortLived.close();
		const response = await client.request(back);
		expectErrorRedirect(response, 'OAuthCallbackError');
		expect(log.text()).toMatch(/token request failed: Could not reach the identity provider at .*\/token/);
		expect(client.jar.has('kitgate.pkce.code_verifier')).toBe(false);
	});
});

// OAuth 1.0a: the whole sign-in of the X (Twitter) provider against a local OAuth 1.0a server that
// checks every signature. RFC 5849 signing itself: flows/oauth/oauth1-signature.test.ts.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import Twitter, { type TwitterOAuth1Options } from '../../providers/twitter.js';
import { resolveConfig } from '../config/resolve-config.js';
import { createContext } from '../request/context.js';
import { parseCookies } from '../request/cookies.js';
import { AuthError, InvalidConfiguration } from '../errors.js';
import { decodeJwt } from '../crypto/jwt.js';
import { startOAuth1SignIn } from '../flows/oauth/oauth1.js';
import { checkOAuth1Provider, isOAuth1Provider } from '../flows/oauth/oauth1-provider.js';
import {
	authorizationHeader,
	signOAuth1Request
} from '../flows/oauth/oauth1-signature.js';
import type { Adapter, AuthConfig, OAuthConfig, Session } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { startOAuth1Server, type OAuth1TestServer } from './oauth1-server.js';

// ---------------------------------------------------------------------------------------------
// The sign-in against the local OAuth 1.0a server.

let server: OAuth1TestServer;
beforeAll(async () => {
	server = await startOAuth1Server();
});
afterAll(async () => {
	await server?.close();
});

function twitterAgainst(target: OAuth1TestServer, overrides: TwitterOAuth1Options = {}): OAuthConfig {
	return Twitter({
		clientId: target.consumerKey,
		clientSecret: target.consumerSecret,
		requestToken: `${target.origin}/oauth/request_token`,
		authorization: `${target.origin}/oauth/authenticate`,
		token: `${target.origin}/oauth/access_token`,
		userinfo: { url: `${target.origin}/1.1/account/verify_credentials.json` },
		...overrides
	});
}

function makeConfig(provider: OAuthConfig, overrides: Partial<AuthConfig> = {}) {
	const errors: AuthError[] = [];
	// refused requests are warnings (the failure table), with their code and message
	const refused: { type: string; message: string }[] = [];
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		// an OAuth 1.0a sign-in starts only where the URL is configured (never from a Host header)
		url: 'http://localhost:3000',
		providers: [provider],
		logger: { error: (error) => void errors.push(error as AuthError), warn: (type, message) => void refused.push({ type, message: String(message) }) },
		...overrides
	};
	return { config, errors, refused };
}

/** A browser with a cookie jar for `config` (the test client; `useConfig` moves it to another config, cookies kept). */
function browser(initial: AuthConfig, origin = 'http://localhost:3000') {
	let client = testClient(initial, origin);
	const jar = client.jar;
	const request = (path: string, init: { form?: Record<string, string> } = {}): Promise<Response> => client.request(path, init);
	async function csrfToken(): Promise<string> {
		return ((await (await request('/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
	}
	/** POST signin/twitter; returns the response (302 to the provider's authorize page). */
	async function startSignIn(callbackUrl = '/dashboard'): Promise<Response> {
		return request('/auth/signin/twitter', { form: { csrfToken: await csrfToken(), callbackUrl } });
	}
	/** The provider's authorize page: approves (or declines) and redirects to our callback. */
	async function approve(authorizeUrl: string, deny = false): Promise<string> {
		const response = await fetch(deny ? `${authorizeUrl}&deny=1` : authorizeUrl, { redirect: 'manual' });
		expect(response.status).toBe(302);
		return response.headers.get('location')!;
	}
	async function session(): Promise<Session | null> {
		return (await (await request('/auth/session')).json()) as Session | null;
	}
	return {
		jar,
		request,
		startSignIn,
		approve,
		session,
		useConfig: (next: AuthConfig) => void (client = testClient(next, origin, jar))
	};
}

/** Path and query of an absolute URL on our origin (what the browser requests next). */
const local = (url: string) => {
	const parsed = new URL(url);
	return `${parsed.pathname}${parsed.search}`;
};

describe('OAuth 1.0a sign-in against a local server', () => {
	test('Twitter() defaults to OAuth 1.0a; version "2.0" does not', () => {
		expect(isOAuth1Provider(Twitter({ clientId: 'k', clientSecret: 's' }))).toBe(true);
		expect(isOAuth1Provider(Twitter({ version: '2.0', clientId: 'k', clientSecret: 's' }))).toBe(false);
	});

	test('full sign-in: request token, authorize, access token, signed profile request, JWT session', async () => {
		const { config, errors } = makeConfig(twitterAgainst(server));
		const client = browser(config);
		const acceptedBefore = server.accepted.length;

		const start = await client.startSignIn('/dashboard');
		expect(start.status).toBe(302);
		const authorize = new URL(start.headers.get('location')!);
		expect(`${authorize.origin}${authorize.pathname}`).toBe(`${server.origin}/oauth/authenticate`);
		const requestToken = authorize.searchParams.get('oauth_token')!;
		expect(requestToken).toMatch(/^rt-/);

		// the request token secret travels only inside an encrypted, httpOnly, short-lived cookie
		const cookieLine = start.headers.getSetCookie().find((line) => line.startsWith('kitgate.state.oauth1='))!;
		expect(cookieLine).toMatch(/HttpOnly/i);
		expect(cookieLine).toMatch(/Max-Age=900/i);
		const sealed = client.jar.get('kitgate.state.oauth1')!;
		expect(sealed.split('.')).toHaveLength(5);
		const opened = await decodeJwt({ token: sealed, secret: TEST_SECRET, salt: 'kitgate.state.oauth1' });
		expect(opened).toMatchObject({ provider: 'twitter', token: requestToken, callbackUrl: 'http://localhost:3000/dashboard' });

		const callback = await client.approve(authorize.href);
		expect(callback.startsWith('http://localhost:3000/auth/callback/twitter?')).toBe(true);
		const done = await client.request(local(callback));
		expect(errors).toEqual([]);
		expect(done.status).toBe(302);
		expect(done.headers.get('location')).toBe('http://localhost:3000/dashboard');
		expect(client.jar.has('kitgate.state.oauth1')).toBe(false);

		expect(server.accepted.slice(acceptedBefore)).toEqual([
			'/oauth/request_token',
			'/oauth/access_token',
			'/1.1/account/verify_credentials.json'
		]);
		const session = await client.session();
		expect(session?.user).toEqual({
			name: 'Ada Lovelace',
			email: 'ada@example.com',
			image: 'https://pbs.twimg.test/profile_images/1/ada.jpg'
		});
	});

	test('with an adapter the account stores oauth_token and oauth_token_secret', async () => {
		const adapter = MemoryAdapter();
		const { config, errors } = makeConfig(twitterAgainst(server), { adapter: adapter as Adapter });
		const client = browser(config);
		const start = await client.startSignIn('/');
		const done = await client.request(local(await client.approve(start.headers.get('location')!)));
		expect(errors).toEqual([]);
		expect(done.headers.get('location')).toBe('http://localhost:3000/');

		const account = await adapter.getAccount(server.user.id_str, 'twitter');
		expect(account).toMatchObject({ provider: 'twitter', type: 'oauth', providerAccountId: '1234567890' });
		expect(server.accessTokens.get(account!.oauth_token as string)).toBe(account!.oauth_token_secret);
		expect(account).not.toHaveProperty('access_token');
		const user = await adapter.getUserByAccount({ provider: 'twitter', providerAccountId: '1234567890' });
		expect(user).toMatchObject({ email: 'ada@example.com', name: 'Ada Lovelace' });
		expect((await client.session())?.user?.email).toBe('ada@example.com');
	});

	test('the server refuses a tampered signature', async () => {
		const client = browser(makeConfig(twitterAgainst(server)).config);
		await client.request(local(await client.approve((await client.startSignIn()).headers.get('location')!)));
		const [token, secret] = [...server.accessTokens].at(-1)!;
		const url = `${server.origin}/1.1/account/verify_credentials.json?include_email=true`;
		const sign = () =>
			signOAuth1Request({ method: 'GET', url, consumerKey: server.consumerKey, consumerSecret: server.consumerSecret, token, tokenSecret: secret });
		expect((await fetch(url, { headers: { authorization: sign().authorization } })).status).toBe(200);

		const { protocolParams } = sign();
		const flipped = protocolParams.oauth_signature.startsWith('A') ? 'B' : 'A';
		const tampered = { ...protocolParams, oauth_signature: flipped + protocolParams.oauth_signature.slice(1) };
		const refusalsBefore = server.refusals.length;
		const response = await fetch(url, { headers: { authorization: authorizationHeader(tampered) } });
		expect(response.status).toBe(401);
		expect(server.refusals.slice(refusalsBefore)).toEqual([{ path: '/1.1/account/verify_credentials.json', reason: 'invalid signature' }]);
	});

	test('a wrong consumer secret is refused at the request token: error redirect, no session', async () => {
		const { config, errors } = makeConfig(twitterAgainst(server, { clientSecret: 'not the secret' }));
		const client = browser(config);
		const refusalsBefore = server.refusals.length;
		const start = await client.startSignIn();
		expect(start.status).toBe(302);
		expect(start.headers.get('location')).toBe('http://localhost:3000/auth/signin?error=OAuthSignin');
		expect(server.refusals.slice(refusalsBefore)).toEqual([{ path: '/oauth/request_token', reason: 'invalid signature' }]);
		expect(errors.map((e) => e.type)).toEqual(['OAuthSignin']);
		expect(errors[0].message).toContain('401');
		expect(client.jar.has('kitgate.state.oauth1')).toBe(false);
		expect(await client.session()).toBeNull();
	});

	test('a signature the server refuses at the access token step ends in an error redirect without a session', async () => {
		const good = makeConfig(twitterAgainst(server));
		const client = browser(good.config);
		const start = await client.startSignIn();
		const callback = await client.approve(start.headers.get('location')!);

		// same app secret for cookies, but the access-token request is signed with a wrong consumer secret
		const bad = makeConfig(twitterAgainst(server, { clientSecret: 'tampered' }));
		client.useConfig(bad.config);
		const refusalsBefore = server.refusals.length;
		const done = await client.request(local(callback));
		expect(done.status).toBe(302);
		expect(done.headers.get('location')).toBe('http://localhost:3000/auth/signin?error=OAuthCallbackError&callbackUrl=http%3A%2F%2Flocalhost%3A3000%2Fdashboard');
		expect(server.refusals.slice(refusalsBefore)).toEqual([{ path: '/oauth/access_token', reason: 'invalid signature' }]);
		expect(bad.errors.map((e) => e.type)).toEqual(['OAuthCallbackError']);
		expect(done.headers.getSetCookie().some((line) => line.startsWith('kitgate.session-token='))).toBe(false);
		expect(client.jar.has('kitgate.state.oauth1')).toBe(false);
		expect(await client.session()).toBeNull();
	});

	test('an oauth_token other than the one requested is InvalidCheck, and no access token is asked for', async () => {
		const { config, errors, refused } = makeConfig(twitterAgainst(server));
		const client = browser(config);
		await client.startSignIn();
		const acceptedBefore = server.accepted.length;
		const done = await client.request('/auth/callback/twitter?oauth_token=rt-someone-else&oauth_verifier=abc');
		expect(done.headers.get('location')).toBe(
			'http://localhost:3000/auth/signin?error=InvalidCheck&callbackUrl=http%3A%2F%2Flocalhost%3A3000%2Fdashboard'
		);
		expect(refused.map((e) => e.type)).toEqual(['InvalidCheck']);
		expect(errors).toEqual([]);
		expect(server.accepted.length).toBe(acceptedBefore);
		expect(client.jar.has('kitgate.state.oauth1')).toBe(false);
		expect(await client.session()).toBeNull();
	});

	test('a callback without the request-token cookie is InvalidCheck', async () => {
		const first = browser(makeConfig(twitterAgainst(server)).config);
		const callback = await first.approve((await first.startSignIn()).headers.get('location')!);
		// another browser (no cookie) follows the same callback link
		const { config, refused } = makeConfig(twitterAgainst(server));
		const other = browser(config);
		const done = await other.request(local(callback));
		expect(done.headers.get('location')).toBe('http://localhost:3000/auth/signin?error=InvalidCheck');
		expect(refused[0].message).toMatch(/request token cookie .* missing/);
	});

	test('a cookie sealed for another provider is not accepted', async () => {
		const { config, refused } = makeConfig(twitterAgainst(server, { id: 'x-other' }));
		const twitter = browser(makeConfig(twitterAgainst(server)).config);
		const callback = await twitter.approve((await twitter.startSignIn()).headers.get('location')!);
		const other = browser(config);
		for (const [name, value] of twitter.jar) other.jar.set(name, value);
		const done = await other.request(local(callback).replace('/callback/twitter', '/callback/x-other'));
		expect(done.headers.get('location')).toContain('error=InvalidCheck');
		expect(refused.map((e) => e.type)).toEqual(['InvalidCheck']);
	});

	test('declining at the provider is OAuthCallbackError without a session', async () => {
		const { config, errors } = makeConfig(twitterAgainst(server));
		const client = browser(config);
		const start = await client.startSignIn();
		const callback = await client.approve(start.headers.get('location')!, true);
		expect(new URL(callback).searchParams.has('denied')).toBe(true);
		const done = await client.request(local(callback));
		expect(done.headers.get('location')).toContain('/auth/signin?error=OAuthCallbackError');
		expect(errors[0].message).toContain('declined');
		expect(await client.session()).toBeNull();
	});

	test('an unreachable provider fails the start with OAuthSignin naming the endpoint', async () => {
		const closed = await startOAuth1Server();
		const provider = twitterAgainst(closed);
		await closed.close();
		const { config, errors } = makeConfig(provider);
		const start = await browser(config).startSignIn();
		expect(start.headers.get('location')).toBe('http://localhost:3000/auth/signin?error=OAuthSignin');
		expect(errors[0].message).toContain(`${closed.origin}/oauth/request_token`);
	});

	test('without a configured URL (only a trusted Host header) the sign-in is refused with OAuthSignin before any request token is asked for', async () => {
		const saved = process.env.AUTH_URL;
		delete process.env.AUTH_URL;
		try {
			const { config, errors } = makeConfig(twitterAgainst(server), { url: undefined });
			const client = browser(config);
			const before = server.accepted.length + server.refusals.length;
			const start = await client.startSignIn();
			expect(start.headers.get('location')).toBe('http://localhost:3000/auth/signin?error=OAuthSignin');
			expect(errors[0]?.message).toMatch(/OAuth 1\.0a.*set AUTH_URL/);
			expect(server.accepted.length + server.refusals.length).toBe(before);
			expect(client.jar.has('kitgate.state.oauth1')).toBe(false);
		} finally {
			if (saved !== undefined) process.env.AUTH_URL = saved;
		}
	});

	test('the profile() option maps the verify_credentials record', async () => {
		const provider = twitterAgainst(server, { profile: (profile) => ({ id: profile.id_str, name: `@${profile.screen_name}` }) });
		const { config } = makeConfig(provider);
		const client = browser(config);
		const start = await client.startSignIn();
		await client.request(local(await client.approve(start.headers.get('location')!)));
		expect((await client.session())?.user).toEqual({ name: '@ada' });
	});

	test('account() chooses what the account stores; a profile() without id is refused', async () => {
		const adapter = MemoryAdapter();
		const chosen = makeConfig(
			twitterAgainst(server, {
				account: (tokens) => ({ oauth_token: tokens.oauth_token as string, oauth_token_secret: tokens.oauth_token_secret as string, screen_name: tokens.screen_name })
			}),
			{ adapter: adapter as Adapter }
		);
		const client = browser(chosen.config);
		await client.request(local(await client.approve((await client.startSignIn()).headers.get('location')!)));
		expect(chosen.errors).toEqual([]);
		expect(await adapter.getAccount('1234567890', 'twitter')).toMatchObject({ screen_name: 'ada' });

		const nameless = makeConfig(twitterAgainst(server, { profile: (profile) => ({ name: profile.name }) }));
		const other = browser(nameless.config);
		const done = await other.request(local(await other.approve((await other.startSignIn()).headers.get('location')!)));
		expect(done.headers.get('location')).toContain('error=OAuthCallbackError');
		expect(nameless.errors[0].message).toMatch(/no id/);
		expect(await other.session()).toBeNull();
	});

	test('a plain-http endpoint on another host is refused before any request (also at request time)', async () => {
		const { config } = makeConfig(twitterAgainst(server));
		const ctx = createContext(new Request('http://localhost:3000/auth/signin/twitter', { method: 'POST' }), resolveConfig(config));
		const insecure = twitterAgainst(server, { requestToken: 'http://api.example.com/oauth/request_token' });
		const refusalsBefore = server.refusals.length;
		await expect(startOAuth1SignIn(ctx, insecure, 'http://localhost:3000/')).rejects.toThrow(/`requestToken` must use https/);
		await expect(startOAuth1SignIn(ctx, insecure, 'http://localhost:3000/')).rejects.toMatchObject({ type: 'OAuthSignin' });
		expect(server.refusals.length).toBe(refusalsBefore);
		expect(ctx.setCookies).toEqual([]);
	});

});

describe('OAuth 1.0a behind a redirect proxy', () => {
	test('the proxy forwards the callback to the deployment that started the sign-in', async () => {
		const preview = makeConfig(twitterAgainst(server), { redirectProxyUrl: 'https://auth.example.com/auth', url: 'https://preview.example.com' });
		const proxy = makeConfig(twitterAgainst(server), { url: 'https://auth.example.com' });
		const browserOnPreview = browser(preview.config, 'https://preview.example.com');
		const browserOnProxy = browser(proxy.config, 'https://auth.example.com');

		const start = await browserOnPreview.startSignIn('/after');
		const callback = new URL(await browserOnPreview.approve(start.headers.get('location')!));
		expect(callback.origin + callback.pathname).toBe('https://auth.example.com/auth/callback/twitter');
		expect(callback.searchParams.get('state')?.split('.')).toHaveLength(5);

		const forwarded = await browserOnProxy.request(local(callback.href));
		const back = new URL(forwarded.headers.get('location')!);
		expect(back.origin + back.pathname).toBe('https://preview.example.com/auth/callback/twitter');
		expect(back.searchParams.get('oauth_verifier')).toBe(callback.searchParams.get('oauth_verifier'));
		expect(browserOnProxy.jar.size).toBe(0);

		const done = await browserOnPreview.request(local(back.href));
		expect(preview.errors).toEqual([]);
		expect(done.headers.get('location')).toBe('https://preview.example.com/after');
		expect((await browserOnPreview.session())?.user?.name).toBe('Ada Lovelace');
	});
});

describe('checkOAuth1Provider (start-up validation)', () => {
	test('accepts the built-in Twitter provider with its keys', () => {
		const twitter = Twitter({ clientId: 'key', clientSecret: 'secret' });
		expect(checkOAuth1Provider(twitter)).toBe(twitter);
		expect(checkOAuth1Provider(twitterAgainst(server))).toBeTruthy();
	});

	test('refuses missing keys, plain-http endpoints and non-function callbacks, saying what to set', () => {
		expect(() => checkOAuth1Provider(Twitter({ clientSecret: 'secret' }))).toThrow(/clientId/);
		expect(() => checkOAuth1Provider(Twitter({ clientId: 'key' }))).toThrow(/clientSecret/);
		expect(() => checkOAuth1Provider(Twitter({ clientId: 'k', clientSecret: 's', token: 'http://api.example.com/t' }))).toThrow(
			/`token` must use https/
		);
		expect(() => checkOAuth1Provider(Twitter({ clientId: 'k', clientSecret: 's', requestToken: 'not a url' }))).toThrow(
			InvalidConfiguration
		);
		const noProfileFn = { ...Twitter({ clientId: 'k', clientSecret: 's' }), profile: 'nope' } as unknown as OAuthConfig;
		expect(() => checkOAuth1Provider(noProfileFn)).toThrow(/`profile` must be a function/);
		const withHandler = { ...Twitter({ clientId: 'k', clientSecret: 's' }), userinfo: { request: () => ({ id_str: '1' }) } };
		expect(() => checkOAuth1Provider(withHandler)).not.toThrow();
	});
});

test('the cookie name follows the state cookie (secure prefix over HTTPS)', async () => {
	const { config } = makeConfig(twitterAgainst(server), { url: 'https://app.example.com' });
	const client = browser(config, 'https://app.example.com');
	const start = await client.startSignIn();
	expect(start.status).toBe(302);
	expect(Object.keys(parseCookies(start.headers.getSetCookie().map((l) => l.split(';')[0]).join('; ')))).toContain(
		'__Secure-kitgate.state.oauth1'
	);
});

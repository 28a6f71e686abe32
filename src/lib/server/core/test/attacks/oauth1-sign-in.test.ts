// Attacks: OAuth 1.0a sign-in after its move onto the shared OAuth helpers (oauth1.ts with
// oauth-checks.ts, oauth-callback-failure.ts, redirect-proxy.ts). Each attack runs end to end through
// `Auth()` against a local OAuth 1.0a server that checks every HMAC-SHA1 signature with the test
// servers' own byte-by-byte RFC 3986 encoder (oauth1-signature-check.ts, not kitgate's). Tests named
// "(fails before the fix)" performed an attack that worked when they were written; the others pin a
// defence that held.

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Twitter, { type TwitterOAuth1Options } from '../../../providers/twitter.js';
import type { AuthError } from '../../errors.js';
import { encodeJwt } from '../../crypto/jwt.js';
import type { Adapter, AuthConfig, OAuthConfig, Session } from '../../types.js';
import { TEST_SECRET, testClient } from '../client.js';
import { hmacSha1Signature, parseOAuthHeader, sameText } from '../oauth1-signature-check.js';

// ---------------------------------------------------------------------------------------------
// A small OAuth 1.0a service provider (RFC 5849 with the 1.0a verifier) whose steps a test can
// replace with hostile answers. Like most OAuth 1.0a servers (the RFC asks nothing else), it sends
// the user back to whatever `oauth_callback` the request token was issued for.

type Step = 'requestToken' | 'accessToken' | 'profile';
type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

interface Oauth1Provider {
	origin: string;
	consumerKey: string;
	consumerSecret: string;
	/** The profile verify_credentials answers (email only with include_email=true). */
	profile: Record<string, unknown>;
	/** Token secret the next access token gets (default: random base64). */
	nextAccessSecret?: string;
	/** Token secret the next request token gets (default: random base64). */
	nextRequestSecret?: string;
	/** Replaces a step's answer (after its signature was checked). */
	override: Partial<Record<Step, Handler>>;
	/** Every request the server received: path and, for signed ones, whether the signature checked out. */
	log: { path: string; ok?: boolean; reason?: string; query?: string }[];
	/** The oauth_callback of each request token issued. */
	callbacks: string[];
	close(): Promise<void>;
}

async function startProvider(profile: Record<string, unknown>): Promise<Oauth1Provider> {
	const consumerKey = 'review3-key';
	const consumerSecret = 'consumer & secret: 100% "quoted" ~ ☃ +/=';
	const requestTokens = new Map<string, { secret: string; callback: string; verifier?: string }>();
	const accessTokens = new Map<string, string>();
	const state: Oauth1Provider = {
		origin: '',
		consumerKey,
		consumerSecret,
		profile,
		override: {},
		log: [],
		callbacks: [],
		close: async () => undefined
	};

	const server = createServer((req, res) => {
		handle(req, res).catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500).end(String(error));
		});
	});
	const sockets = new Set<import('node:net').Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
		const form = (fields: Record<string, string>) => {
			res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' });
			res.end(new URLSearchParams(fields).toString());
		};
		if (url.pathname === '/authorize') {
			state.log.push({ path: url.pathname });
			const token = url.searchParams.get('oauth_token') ?? '';
			const pending = requestTokens.get(token);
			if (!pending) return void res.writeHead(400).end('unknown request token');
			pending.verifier = randomBytes(12).toString('hex');
			const target = new URL(pending.callback);
			target.searchParams.set('oauth_token', token);
			target.searchParams.set('oauth_verifier', pending.verifier);
			return void res.writeHead(302, { location: target.href }).end();
		}

		const oauth = parseOAuthHeader(req.headers.authorization);
		const step: Step | undefined =
			url.pathname === '/request_token' ? 'requestToken' : url.pathname === '/access_token' ? 'accessToken' : url.pathname === '/profile' ? 'profile' : undefined;
		if (!step || !oauth) {
			state.log.push({ path: url.pathname, ok: false, reason: 'no route or no OAuth header' });
			return void res.writeHead(401).end();
		}
		const tokenSecret =
			step === 'requestToken' ? '' : step === 'accessToken' ? requestTokens.get(oauth.oauth_token ?? '')?.secret : accessTokens.get(oauth.oauth_token ?? '');
		const reason = tokenSecret === undefined ? 'unknown token' : checkSignature(req.method ?? 'GET', url, oauth, consumerSecret, tokenSecret);
		state.log.push({ path: url.pathname, ok: !reason, reason, query: url.search });
		if (reason) return void res.writeHead(401).end(reason);
		if (oauth.oauth_consumer_key !== consumerKey) return void res.writeHead(401).end('consumer');

		const override = state.override[step];
		if (override) return override(req, res);

		if (step === 'requestToken') {
			const token = `rt-${randomBytes(8).toString('hex')}`;
			const secret = state.nextRequestSecret ?? randomBytes(16).toString('base64');
			requestTokens.set(token, { secret, callback: oauth.oauth_callback });
			state.callbacks.push(oauth.oauth_callback);
			return form({ oauth_token: token, oauth_token_secret: secret, oauth_callback_confirmed: 'true' });
		}
		if (step === 'accessToken') {
			const pending = requestTokens.get(oauth.oauth_token);
			if (!pending?.verifier || !oauth.oauth_verifier || !sameText(pending.verifier, oauth.oauth_verifier)) {
				return void res.writeHead(401).end('wrong oauth_verifier');
			}
			requestTokens.delete(oauth.oauth_token);
			const token = `at-${randomBytes(8).toString('hex')}`;
			const secret = state.nextAccessSecret ?? randomBytes(20).toString('base64');
			accessTokens.set(token, secret);
			return form({ oauth_token: token, oauth_token_secret: secret, user_id: String(state.profile.id_str) });
		}
		const { email, ...rest } = state.profile;
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify(url.searchParams.get('include_email') === 'true' ? { ...rest, email } : rest));
	}

	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	state.close = () =>
		new Promise<void>((resolve) => {
			for (const socket of sockets) socket.destroy();
			server.close(() => resolve());
		});
	return state;
}

/** Why the signature is wrong (RFC 5849 §3.4), or undefined. No body parameters: kitgate sends none. */
function checkSignature(method: string, url: URL, oauth: Record<string, string>, consumerSecret: string, tokenSecret: string): string | undefined {
	const expected = hmacSha1Signature(method, url, oauth, consumerSecret, tokenSecret);
	return oauth.oauth_signature && sameText(expected, oauth.oauth_signature) ? undefined : 'invalid signature';
}

// ---------------------------------------------------------------------------------------------
// The app and its browsers.

const APP = 'http://localhost:3000';

let provider: Oauth1Provider;
const extraProviders: Oauth1Provider[] = [];
beforeAll(async () => {
	provider = await startProvider({ id: 1111, id_str: '1111', name: 'Victim', screen_name: 'victim', email: 'victim@example.com' });
});
afterAll(async () => {
	await provider?.close();
	for (const extra of extraProviders) await extra.close();
});
afterEach(() => {
	provider.override = {};
	provider.nextAccessSecret = undefined;
	provider.nextRequestSecret = undefined;
});

function twitterAt(target: Oauth1Provider, overrides: TwitterOAuth1Options = {}): OAuthConfig {
	return Twitter({
		clientId: target.consumerKey,
		clientSecret: target.consumerSecret,
		requestToken: `${target.origin}/request_token`,
		authorization: `${target.origin}/authorize`,
		token: `${target.origin}/access_token`,
		userinfo: { url: `${target.origin}/profile`, params: { include_email: 'true' } },
		...overrides
	});
}

function appConfig(providers: OAuthConfig[], overrides: Partial<AuthConfig> = {}) {
	const errors: AuthError[] = [];
	const warnings: { type: string; message: string }[] = [];
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		// an OAuth 1.0a sign-in starts only where the URL is configured; the Host-header tests set `url: undefined`
		url: APP,
		providers,
		logger: {
			error: (_code, error) => void errors.push(error as AuthError),
			warn: (type, message) => void warnings.push({ type, message: String(message) }),
			debug: () => undefined
		},
		...overrides
	};
	return { config, errors, warnings };
}

/** A browser (the test client's cookie jar) on the app; `headers` go with every request (a forged Host, say). */
function browser(config: AuthConfig, options: { origin?: string; headers?: Record<string, string> } = {}) {
	const client = testClient(config, options.origin ?? APP);
	const jar = client.jar;
	const request = (path: string, form?: Record<string, string>): Promise<Response> => client.request(path, { form, headers: options.headers });
	async function startSignIn(providerId = 'twitter', callbackUrl = '/dashboard'): Promise<Response> {
		const { csrfToken } = (await (await request('/auth/csrf')).json()) as { csrfToken: string };
		return request(`/auth/signin/${providerId}`, { csrfToken, callbackUrl });
	}
	/** The explicit link of another provider by the signed-in user (account routes). */
	async function startLink(providerId: string, callbackUrl: string): Promise<Response> {
		const { csrfToken } = (await (await request('/auth/csrf')).json()) as { csrfToken: string };
		return request('/auth/account/link', { csrfToken, provider: providerId, callbackUrl });
	}
	async function session(): Promise<Session | null> {
		return (await (await request('/auth/session')).json()) as Session | null;
	}
	return { jar, request, startSignIn, startLink, session };
}

/** The provider's authorize page, approved by whoever's browser opens it: the callback URL it redirects to. */
async function approve(authorizeUrl: string): Promise<string> {
	const response = await fetch(authorizeUrl, { redirect: 'manual' });
	expect(response.status).toBe(302);
	return response.headers.get('location')!;
}

const local = (url: string) => {
	const parsed = new URL(url);
	return `${parsed.pathname}${parsed.search}`;
};

// ---------------------------------------------------------------------------------------------

describe('oauth_callback from a Host header nothing vouched for', () => {
	test('a sign-in started with a forged Host does not hand the victim\'s verifier to that host, nor the victim\'s account to the attacker (fails before the fix)', async () => {
		// trustHost without AUTH_URL: what docs/deploying.md has self-hosted apps behind a proxy set
		const saved = process.env.AUTH_URL;
		delete process.env.AUTH_URL;
		try {
			const { config } = appConfig([twitterAt(provider)], { adapter: MemoryAdapter() as Adapter, url: undefined });
			// 1. the attacker starts a sign-in on the real app, naming their own host
			const attacker = browser(config, { headers: { 'x-forwarded-host': 'evil.example' } });
			const start = await attacker.startSignIn('twitter', '/');
			expect(start.status).toBe(302);
			const authorize = start.headers.get('location')!;

			// 2. the victim opens the (genuine) authorize link and approves at the provider;
			//    OAuth 1.0a providers send the user to the oauth_callback of the request token
			let stolen: URL | undefined;
			if (authorize.startsWith(provider.origin)) {
				const callback = new URL(await approve(authorize));
				if (callback.host === 'evil.example') stolen = callback;
				expect.soft(callback.host, 'the provider sent the victim, oauth_token and oauth_verifier to the attacker\'s host').not.toBe('evil.example');
			}

			// 3. (what happened before the fix) the attacker redeems the stolen verifier with their cookie
			if (stolen) {
				await attacker.request(local(stolen.href));
				expect((await attacker.session())?.user?.email, 'the attacker is signed in as the victim').not.toBe('victim@example.com');
			}
		} finally {
			if (saved !== undefined) process.env.AUTH_URL = saved;
		}
	});

	test('behind a redirect proxy, a sign-in whose URL came from a Host header is refused before any request token is asked for', async () => {
		const saved = process.env.AUTH_URL;
		delete process.env.AUTH_URL;
		try {
			const { config, errors } = appConfig([twitterAt(provider)], { redirectProxyUrl: 'https://auth.example.com/auth', url: undefined } as Partial<AuthConfig>);
			const attacker = browser(config, { headers: { 'x-forwarded-host': 'evil.example' } });
			const before = provider.log.length;
			const start = await attacker.startSignIn();
			expect(start.headers.get('location')).toBe('http://evil.example/auth/signin?error=OAuthSignin');
			expect(errors[0]?.message).toMatch(/set AUTH_URL/);
			expect(provider.log.slice(before)).toEqual([]);
			expect(attacker.jar.has('kitgate.state.oauth1')).toBe(false);
		} finally {
			if (saved !== undefined) process.env.AUTH_URL = saved;
		}
	});

	test('with AUTH_URL set, the oauth_callback is the configured URL whatever the Host header says', async () => {
		const { config, errors } = appConfig([twitterAt(provider)], { url: 'https://app.example.com' } as Partial<AuthConfig>);
		const attacker = browser(config, { origin: 'https://app.example.com', headers: { 'x-forwarded-host': 'evil.example' } });
		const start = await attacker.startSignIn();
		expect(errors).toEqual([]);
		expect(start.headers.get('location')!.startsWith(`${provider.origin}/authorize?`)).toBe(true);
		expect(provider.callbacks.at(-1)).toBe('https://app.example.com/auth/callback/twitter');
	});
});

describe('connecting an OAuth 1.0a account to the signed-in user', () => {
	test('a signed-in user who connects Twitter (profile without email) through the account link gets it linked to them, as docs/security.md row N1 says (fails before the fix)', async () => {
		// the user first signed in with another provider (its own OAuth 1.0a server, an address of theirs)
		const other = await startProvider({ id: 7, id_str: '7', name: 'Ada', screen_name: 'ada', email: 'ada@example.com' });
		extraProviders.push(other);
		const emailless = await startProvider({ id: 2222, id_str: '2222', name: 'Ada on X', screen_name: 'ada_x' });
		extraProviders.push(emailless);
		const adapter = MemoryAdapter();
		const { config, errors } = appConfig([twitterAt(other, { id: 'oldsite', name: 'Old site' }), twitterAt(emailless)], { adapter: adapter as Adapter });
		const ada = browser(config);
		const first = await ada.startSignIn('oldsite', '/');
		await ada.request(local(await approve(first.headers.get('location')!)));
		const adaUser = await adapter.getUserByAccount({ provider: 'oldsite', providerAccountId: '7' });
		expect(adaUser?.email).toBe('ada@example.com');
		expect((await ada.session())?.user?.email).toBe('ada@example.com');

		// signed in, Ada connects her X account (it has no email) with the explicit link
		const connect = await ada.startLink('twitter', '/settings');
		const done = await ada.request(local(await approve(connect.headers.get('location')!)));
		expect(errors).toEqual([]);
		expect(done.headers.get('location')).toBe(`${APP}/settings?account=linked`);

		const owner = await adapter.getUserByAccount({ provider: 'twitter', providerAccountId: '2222' });
		// before the fix: a second user was made for the X account and the session switched to it
		expect(owner?.id).toBe(adaUser!.id);
		expect((await ada.session())?.user?.email).toBe('ada@example.com');
	});

	test('login CSRF: the attacker\'s authorized callback, opened in the signed-in victim\'s browser, links nothing to the victim', async () => {
		const other = await startProvider({ id: 8, id_str: '8', name: 'Bob', screen_name: 'bob', email: 'bob@example.com' });
		extraProviders.push(other);
		const adapter = MemoryAdapter();
		const { config } = appConfig([twitterAt(other, { id: 'oldsite', name: 'Old site' }), twitterAt(provider)], { adapter: adapter as Adapter });
		// the attacker starts an X sign-in signed out; the victim's browser completes it while signed in
		const attacker = browser(config);
		const start = await attacker.startSignIn('twitter', '/');
		const victim = browser(config);
		const first = await victim.startSignIn('oldsite', '/');
		await victim.request(local(await approve(first.headers.get('location')!)));
		const bob = await adapter.getUserByAccount({ provider: 'oldsite', providerAccountId: '8' });
		// the victim's browser has no request-token cookie of the attacker's sign-in
		const done = await victim.request(local(await approve(start.headers.get('location')!)));
		expect(done.headers.get('location')).toContain('error=InvalidCheck');
		expect(await adapter.getUserByAccount({ provider: 'twitter', providerAccountId: '1111' })).toBeNull();
		expect((await adapter.listAccountsByUserId!(bob!.id)).map((a) => a.provider)).toEqual(['oldsite']);
	});
});

describe('hostile or broken upstream answers', () => {
	test('an access-token answer without oauth_token_secret ends in OAuthCallbackError: no session, no user, no account', async () => {
		provider.override.accessToken = (_req, res) => {
			res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' });
			res.end('oauth_token=at-no-secret&user_id=1111');
		};
		const adapter = MemoryAdapter();
		const { config, errors } = appConfig([twitterAt(provider)], { adapter: adapter as Adapter });
		const client = browser(config);
		const start = await client.startSignIn();
		const callback = local(await approve(start.headers.get('location')!));
		const before = provider.log.length;
		const done = await client.request(callback);
		expect(done.headers.get('location')).toBe(`${APP}/auth/signin?error=OAuthCallbackError&callbackUrl=${encodeURIComponent(`${APP}/dashboard`)}`);
		expect(errors.map((e) => e.message).join('\n')).toMatch(/no oauth_token\/oauth_token_secret/);
		expect(done.headers.getSetCookie().some((line) => line.startsWith('kitgate.session-token='))).toBe(false);
		expect(client.jar.has('kitgate.state.oauth1')).toBe(false);
		expect(await client.session()).toBeNull();
		expect(await adapter.getUserByEmail('victim@example.com')).toBeNull();
		expect(provider.log.slice(before).map((entry) => entry.path)).toEqual(['/access_token']);
	});

	test('an access-token endpoint that sends headers and then drips its body is given up on at the provider\'s timeout', async () => {
		const timers: NodeJS.Timeout[] = [];
		provider.override.accessToken = (_req, res) => {
			res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' });
			res.write('oauth_token=at-slow&');
			const timer = setInterval(() => res.write('x'), 50);
			timers.push(timer);
			res.on('close', () => clearInterval(timer));
		};
		try {
			const { config, errors } = appConfig([twitterAt(provider, { timeout: 400 } as TwitterOAuth1Options)]);
			const client = browser(config);
			const start = await client.startSignIn();
			const callback = local(await approve(start.headers.get('location')!));
			const began = performance.now();
			const done = await client.request(callback);
			expect(performance.now() - began).toBeLessThan(3_000);
			expect(done.headers.get('location')).toContain('error=OAuthCallbackError');
			expect(errors.length).toBe(1);
			expect(await client.session()).toBeNull();
		} finally {
			for (const timer of timers) clearInterval(timer);
		}
	});

	test('a huge access-token answer is not read to its end (fails before the fix)', async () => {
		// a provider (or whoever answers for it) streams 96 MB; kitgate buffers every byte of it today
		const total = 96 * 1024 * 1024;
		const chunk = Buffer.alloc(1024 * 1024, 'a');
		let sent = 0;
		provider.override.accessToken = (_req, res) => {
			res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' });
			const pump = () => {
				while (sent < total) {
					sent += chunk.length;
					if (!res.write(chunk)) return void res.once('drain', pump);
				}
				res.end();
			};
			res.on('close', () => undefined);
			pump();
		};
		const { config } = appConfig([twitterAt(provider)]);
		const client = browser(config);
		const start = await client.startSignIn();
		const done = await client.request(local(await approve(start.headers.get('location')!)));
		expect(done.headers.get('location')).toContain('error=OAuthCallbackError');
		expect(await client.session()).toBeNull();
		// a token answer is a few hundred bytes; a reader that stops at (say) 1 MB lets the server
		// push at most that plus the socket buffers
		expect(sent).toBeLessThan(16 * 1024 * 1024);
	});

	test('a profile that is not a JSON object ends the sign-in without a session', async () => {
		provider.override.profile = (_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end('[{"id_str":"1111","email":"victim@example.com"}]');
		};
		const adapter = MemoryAdapter();
		const { config, errors } = appConfig([twitterAt(provider)], { adapter: adapter as Adapter });
		const client = browser(config);
		const start = await client.startSignIn();
		const done = await client.request(local(await approve(start.headers.get('location')!)));
		expect(done.headers.get('location')).toContain('error=OAuthCallbackError');
		expect(errors[0]?.message).toMatch(/not a JSON object/);
		expect(await client.session()).toBeNull();
		expect(await adapter.getUserByEmail('victim@example.com')).toBeNull();
	});
});

describe('the request-token cookie and the callback', () => {
	test('a callback without oauth_verifier is OAuthCallbackError, asks the provider nothing and spends the cookie', async () => {
		const { config, errors } = appConfig([twitterAt(provider)]);
		const client = browser(config);
		const start = await client.startSignIn();
		const callback = new URL(await approve(start.headers.get('location')!));
		callback.searchParams.delete('oauth_verifier');
		const before = provider.log.length;
		const done = await client.request(local(callback.href));
		expect(done.headers.get('location')).toContain('error=OAuthCallbackError');
		expect(errors[0]?.message).toMatch(/no oauth_verifier/);
		expect(provider.log.slice(before)).toEqual([]);
		expect(client.jar.has('kitgate.state.oauth1')).toBe(false);
		expect(await client.session()).toBeNull();
	});

	test('a request-token cookie kept past its 15 minutes (a browser ignoring Max-Age, a stolen copy) is refused: InvalidCheck, no access token asked for', async () => {
		let now = Date.now();
		const { config, warnings } = appConfig([twitterAt(provider)], { now: () => now } as Partial<AuthConfig>);
		const client = browser(config);
		const start = await client.startSignIn();
		const callback = local(await approve(start.headers.get('location')!));
		now += 16 * 60 * 1000; // past the 15 minutes and the 15 s of clock tolerance
		const before = provider.log.length;
		const done = await client.request(callback);
		expect(done.headers.get('location')).toContain('error=InvalidCheck');
		expect(warnings.map((w) => w.type)).toContain('InvalidCheck');
		expect(provider.log.slice(before)).toEqual([]);
		expect(await client.session()).toBeNull();
	});

	test('a request-token cookie forged with a guessed secret for the token the callback carries is refused, and no access token is asked for', async () => {
		const { config } = appConfig([twitterAt(provider)]);
		const client = browser(config);
		const start = await client.startSignIn();
		const callback = new URL(await approve(start.headers.get('location')!));
		// the attacker's own cookie value, made with a guessed secret, for the same token
		client.jar.set(
			'kitgate.state.oauth1',
			await encodeJwt({
				token: { token: callback.searchParams.get('oauth_token'), secret: 'x', callbackUrl: `${APP}/`, provider: 'twitter' },
				secret: 'a-guessed-secret-a-guessed-secret-0123456789',
				salt: 'kitgate.state.oauth1',
				maxAge: 900
			})
		);
		const before = provider.log.length;
		const done = await client.request(local(callback.href));
		expect(done.headers.get('location')).toContain('error=InvalidCheck');
		expect(provider.log.slice(before)).toEqual([]);
		expect(await client.session()).toBeNull();
	});

	test('login CSRF through the redirect proxy: the proxy forwards the attacker\'s callback, the victim\'s browser without the cookie gets no session', async () => {
		const preview = appConfig([twitterAt(provider)], { redirectProxyUrl: 'https://auth.example.com/auth', url: 'https://preview.example.com' } as Partial<AuthConfig>);
		const proxy = appConfig([twitterAt(provider)], { url: 'https://auth.example.com' });
		// the attacker starts on the preview and approves with their own provider account
		const attacker = browser(preview.config, { origin: 'https://preview.example.com' });
		const start = await attacker.startSignIn('twitter', '/');
		const attackersCallback = new URL(await approve(start.headers.get('location')!));
		expect(attackersCallback.host).toBe('auth.example.com');
		// … and sends the victim to it instead of finishing
		const victimOnProxy = browser(proxy.config, { origin: 'https://auth.example.com' });
		const forwarded = await victimOnProxy.request(local(attackersCallback.href));
		const target = new URL(forwarded.headers.get('location')!);
		expect(target.origin).toBe('https://preview.example.com');
		const victimOnPreview = browser(preview.config, { origin: 'https://preview.example.com' });
		const done = await victimOnPreview.request(local(target.href));
		expect(done.headers.get('location')).toContain('error=InvalidCheck');
		expect(await victimOnPreview.session()).toBeNull();
		expect(victimOnProxy.jar.has('__Secure-kitgate.session-token')).toBe(false);
	});
});

describe('signature base string edge cases', () => {
	test('secrets with reserved and non-ASCII characters and a userinfo URL with repeated names and reserved characters are signed as RFC 5849 says', async () => {
		provider.nextRequestSecret = 'req&secret=100%+ ~☃';
		provider.nextAccessSecret = 'acc "secret" & more/+= ~ é';
		const userinfoUrl = `${provider.origin}/profile?ids=2&ids=1&ids=1&q=a%2Bb%20c&star=*&tilde=~&empty=&flag`;
		const { config, errors } = appConfig([
			twitterAt(provider, { userinfo: { url: userinfoUrl, params: { include_email: 'true', 'na me': "it's (ok)!" } } })
		]);
		const client = browser(config);
		const start = await client.startSignIn();
		const before = provider.log.length;
		const done = await client.request(local(await approve(start.headers.get('location')!)));
		expect(provider.log.slice(before).filter((entry) => entry.ok === false)).toEqual([]);
		expect(errors).toEqual([]);
		expect(done.headers.get('location')).toBe(`${APP}/dashboard`);
		const profileRequest = provider.log.slice(before).find((entry) => entry.path === '/profile')!;
		// both values of the repeated name reached the provider and were signed
		expect(new URLSearchParams(profileRequest.query).getAll('ids')).toEqual(['2', '1', '1']);
		expect((await client.session())?.user?.email).toBe('victim@example.com');
	});
});

// Drives `Auth()` with real Requests through every route, JWT strategy with credentials.

import { describe, expect, test } from 'vitest';
import { Auth } from '../auth.js';
import { CredentialsSignin } from '../errors.js';
import Credentials from '../../providers/credentials.js';
import type { AuthConfig, JWT, Session } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';

class WrongPassword extends CredentialsSignin {
	code = 'wrong_password';
}

function makeConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
	return {
		secret: TEST_SECRET,
		trustHost: true,
		providers: [
			Credentials({
				credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
				authorize: async ({ username, password }) => {
					if (username === 'boom') throw new Error('database exploded');
					if (password === 'wrong-code') throw new WrongPassword();
					return username === 'ada' && password === 'lovelace'
						? { id: 'u1', name: 'Ada', email: 'ada@example.com' }
						: null;
				}
			})
		],
		...overrides
	};
}

async function signIn(client: ReturnType<typeof testClient>, fields: Record<string, string> = {}) {
	const csrfToken = await client.csrfToken();
	return client.request('/auth/callback/credentials', {
		form: { csrfToken, username: 'ada', password: 'lovelace', callbackUrl: '/dashboard', ...fields }
	});
}

describe('GET providers and csrf', () => {
	test('providers lists ids with their URLs', async () => {
		const client = testClient(makeConfig());
		const response = await client.request('/auth/providers');
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({
			credentials: {
				id: 'credentials',
				name: 'Credentials',
				type: 'credentials',
				signinUrl: 'http://localhost:3000/auth/signin/credentials',
				callbackUrl: 'http://localhost:3000/auth/callback/credentials'
			}
		});
	});

	test('csrf returns a token and sets an httpOnly cookie once', async () => {
		const client = testClient(makeConfig());
		const first = await client.request('/auth/csrf');
		const cookie = first.headers.getSetCookie().find((c) => c.startsWith('kitgate.csrf-token='));
		expect(cookie).toMatch(/HttpOnly/i);
		expect(cookie).toMatch(/SameSite=Lax/i);
		const { csrfToken } = (await first.json()) as { csrfToken: string };
		expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
		const second = await client.request('/auth/csrf');
		expect(second.headers.getSetCookie()).toEqual([]);
		expect(((await second.json()) as { csrfToken: string }).csrfToken).toBe(csrfToken);
	});

	test('over HTTPS cookies get __Host-/__Secure- prefixes and Secure', async () => {
		const client = testClient(makeConfig(), 'https://app.example.com');
		const response = await signIn(client);
		const cookies = response.headers.getSetCookie();
		expect(cookies.some((c) => c.startsWith('__Secure-kitgate.session-token=') && /;\s*Secure/i.test(c))).toBe(true);
		expect([...client.jar.keys()]).toContain('__Host-kitgate.csrf-token');
	});
});

describe('credentials sign-in and session', () => {
	test('success sets a JWT session cookie and redirects to the callback URL', async () => {
		const client = testClient(makeConfig());
		const response = await signIn(client);
		expect(response.status).toBe(302);
		expect(response.headers.get('location')).toBe('http://localhost:3000/dashboard');
		const sessionCookie = response.headers.getSetCookie().find((c) => c.startsWith('kitgate.session-token='));
		expect(sessionCookie).toMatch(/HttpOnly/i);
		expect(sessionCookie).toMatch(/SameSite=Lax/i);
		expect(sessionCookie).toMatch(/Path=\//);
		const session = (await (await client.request('/auth/session')).json()) as Session;
		expect(session.user).toEqual({ name: 'Ada', email: 'ada@example.com' });
		expect(new Date(session.expires).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
	});

	test('authorize() receives a request whose body it can still read', async () => {
		let seen: string | undefined;
		const client = testClient(
			makeConfig({
				providers: [
					Credentials({
						authorize: async (_credentials, request) => {
							seen = String((await request.formData()).get('username'));
							return { id: 'u1', name: seen };
						}
					})
				]
			})
		);
		await signIn(client);
		expect(seen).toBe('ada');
		expect(client.jar.has('kitgate.session-token')).toBe(true);
	});

	test('POST signin/credentials works like the callback route', async () => {
		const client = testClient(makeConfig());
		const csrfToken = await client.csrfToken();
		const response = await client.request('/auth/signin/credentials', {
			form: { csrfToken, username: 'ada', password: 'lovelace' }
		});
		expect(response.status).toBe(302);
		expect(client.jar.has('kitgate.session-token')).toBe(true);
	});

	test('wrong password redirects to the sign-in page with error and code, and no session', async () => {
		const client = testClient(makeConfig());
		const response = await signIn(client, { password: 'nope' });
		const location = new URL(response.headers.get('location')!);
		expect(location.pathname).toBe('/auth/signin');
		expect(location.searchParams.get('error')).toBe('CredentialsSignin');
		expect(location.searchParams.get('code')).toBe('credentials');
		expect(client.jar.has('kitgate.session-token')).toBe(false);
	});

	test('a CredentialsSignin subclass puts its own code in the URL', async () => {
		const client = testClient(makeConfig());
		const response = await signIn(client, { password: 'wrong-code' });
		expect(new URL(response.headers.get('location')!).searchParams.get('code')).toBe('wrong_password');
	});

	test('authorize() throwing another error is logged and ends on the sign-in page without a session', async () => {
		const errors: Error[] = [];
		const codes: string[] = [];
		// the interface's form: error(code, ...message), the code first, then the Error itself
		const client = testClient(makeConfig({ logger: { error: (code, e) => void (codes.push(code), errors.push(e as Error)) } }));
		const response = await signIn(client, { username: 'boom' });
		expect(response.status).toBe(302);
		expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('CallbackRouteError');
		expect(errors.map((e) => (e as { type?: string }).type)).toContain('CallbackRouteError');
		expect(codes).toContain('CallbackRouteError');
		expect(errors.every((e) => e instanceof Error)).toBe(true);
		expect(client.jar.has('kitgate.session-token')).toBe(false);
	});

	test('X-Auth-Return-Redirect: 1 answers { url } instead of a 302', async () => {
		const client = testClient(makeConfig());
		const csrfToken = await client.csrfToken();
		const response = await client.request('/auth/callback/credentials', {
			headers: { 'x-auth-return-redirect': '1' },
			form: { csrfToken, username: 'ada', password: 'lovelace', callbackUrl: '/x' }
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ url: 'http://localhost:3000/x' });
	});

	test('an off-site callbackUrl is replaced by the site URL', async () => {
		const client = testClient(makeConfig());
		const response = await signIn(client, { callbackUrl: 'https://evil.example/steal' });
		expect(response.headers.get('location')).toBe('http://localhost:3000/');
	});

	test('a session cookie signed with another secret is no session, and is cleared', async () => {
		const client = testClient(makeConfig());
		await signIn(client);
		const other = testClient(makeConfig({ secret: 'another-secret-another-secret-another-secret' }));
		const response = await other.request('/auth/session', {
			headers: { cookie: `kitgate.session-token=${client.jar.get('kitgate.session-token')}` }
		});
		expect(await response.json()).toBeNull();
		expect(response.headers.getSetCookie().some((c) => /^kitgate\.session-token=;/.test(c))).toBe(true);
	});

	test('secret rotation: a session made with the old secret is read with [new, old]', async () => {
		const oldSecret = TEST_SECRET;
		const client = testClient(makeConfig({ secret: oldSecret }));
		await signIn(client);
		const rotated = testClient(makeConfig({ secret: ['a-brand-new-secret-a-brand-new-secret-!!', oldSecret] }));
		const response = await rotated.request('/auth/session', {
			headers: { cookie: `kitgate.session-token=${client.jar.get('kitgate.session-token')}` }
		});
		expect(((await response.json()) as Session).user?.name).toBe('Ada');
	});
});

describe('callbacks and events', () => {
	test('jwt and session callbacks shape the session; updateAge decides re-issuing', async () => {
		let now = Date.UTC(2026, 0, 1);
		const triggers: (string | undefined)[] = [];
		const config = makeConfig({
			now: () => now,
			session: { updateAge: 3600 },
			callbacks: {
				jwt: ({ token, user, trigger, session }) => {
					triggers.push(trigger);
					if (trigger === 'signIn') token.role = 'admin';
					if (trigger === 'update') token.name = (session as { name: string }).name;
					if (user) token.userId = user.id;
					return token;
				},
				session: ({ session, token }) => ({ ...session, role: token?.role, userId: token?.userId })
			}
		});
		const client = testClient(config);
		await signIn(client);
		expect(triggers).toEqual(['signIn']);

		const read = await client.request('/auth/session');
		expect(read.headers.getSetCookie()).toEqual([]);
		const session = (await read.json()) as Session;
		expect(session).toMatchObject({ role: 'admin', userId: 'u1', user: { name: 'Ada' } });

		now += 3601 * 1000;
		const stale = await client.request('/auth/session');
		expect(stale.headers.getSetCookie().some((c) => c.startsWith('kitgate.session-token='))).toBe(true);
		const extended = (await stale.json()) as Session;
		expect(new Date(extended.expires).getTime()).toBe(now + 2592000 * 1000 - (now % 1000));

		const csrfToken = await client.csrfToken();
		const updated = await client.request('/auth/session', { json: { csrfToken, data: { name: 'Countess' } } });
		expect(((await updated.json()) as Session).user?.name).toBe('Countess');
		expect(triggers.at(-1)).toBe('update');
		expect(((await (await client.request('/auth/session')).json()) as Session).user?.name).toBe('Countess');
	});

	test('session update without CSRF is refused with 403 and changes nothing', async () => {
		const client = testClient(makeConfig());
		await signIn(client);
		const response = await client.request('/auth/session', { json: { data: { name: 'Mallory' } } });
		expect(response.status).toBe(403);
		expect(((await (await client.request('/auth/session')).json()) as Session).user?.name).toBe('Ada');
	});

	test('an expired JWT is no session', async () => {
		let now = Date.UTC(2026, 0, 1);
		const client = testClient(makeConfig({ now: () => now, session: { maxAge: 60 } }));
		await signIn(client);
		now += 120 * 1000;
		expect(await (await client.request('/auth/session')).json()).toBeNull();
	});

	test('signIn callback: false → AccessDenied page; throw → AccessDenied; string → redirect', async () => {
		for (const [signInCallback, expected] of [
			[() => false, '/auth/error?error=AccessDenied'],
			[() => { throw new Error('blocked user'); }, '/auth/error?error=AccessDenied'],
			[() => '/welcome', '/welcome']
		] as const) {
			const warnings: string[] = [];
			const client = testClient(makeConfig({ callbacks: { signIn: signInCallback }, logger: { warn: (code) => warnings.push(code) } }));
			const response = await signIn(client);
			expect(response.headers.get('location')).toBe(`http://localhost:3000${expected}`);
			expect(client.jar.has('kitgate.session-token')).toBe(false);
			// a refusal is the failure table's AccessDenied: a warning, not an error for the operator
			expect(warnings).toEqual(expected.includes('AccessDenied') ? ['AccessDenied'] : []);
		}
		const logged: unknown[][] = [];
		const client = testClient(makeConfig({
			callbacks: { signIn: () => { throw new Error('blocked user'); } },
			logger: { warn: (...line) => logged.push(line) }
		}));
		await signIn(client);
		// the message is the callback's, and the thrown error goes with it
		expect(logged[0]).toEqual(['AccessDenied', 'blocked user', expect.objectContaining({ message: 'blocked user' })]);
	});

	test('events fire: signIn, session, signOut with the token', async () => {
		const seen: string[] = [];
		let signedOutToken: JWT | null | undefined;
		const client = testClient(makeConfig({
			events: {
				signIn: ({ user }) => { seen.push(`signIn:${user.name}`); },
				session: () => { seen.push('session'); },
				signOut: (message) => { seen.push('signOut'); signedOutToken = 'token' in message ? message.token : undefined; }
			}
		}));
		await signIn(client);
		await client.request('/auth/session');
		const csrfToken = await client.csrfToken();
		await client.request('/auth/signout', { form: { csrfToken } });
		expect(seen).toEqual(['signIn:Ada', 'session', 'signOut']);
		expect(signedOutToken?.name).toBe('Ada');
	});

	test('a throwing event handler is logged and does not break sign-in', async () => {
		const errors: Error[] = [];
		const client = testClient(makeConfig({
			events: { signIn: () => { throw new Error('audit down'); } },
			logger: { error: (_code, e) => errors.push(e as Error) }
		}));
		const response = await signIn(client);
		expect(response.headers.get('location')).toBe('http://localhost:3000/dashboard');
		expect(client.jar.has('kitgate.session-token')).toBe(true);
		expect(errors[0]).toMatchObject({ type: 'EventError' });
	});
});

describe('sign-out', () => {
	test('POST signout with CSRF clears the session and redirects', async () => {
		const client = testClient(makeConfig());
		await signIn(client);
		const csrfToken = await client.csrfToken();
		const response = await client.request('/auth/signout', { form: { csrfToken, callbackUrl: '/bye' } });
		expect(response.status).toBe(302);
		expect(response.headers.get('location')).toBe('http://localhost:3000/bye');
		expect(client.jar.has('kitgate.session-token')).toBe(false);
		expect(await (await client.request('/auth/session')).json()).toBeNull();
	});

	test('POST signout without a valid CSRF token keeps the session', async () => {
		const client = testClient(makeConfig());
		await signIn(client);
		const response = await client.request('/auth/signout', { form: { csrfToken: 'forged' } });
		expect(response.status).toBe(302);
		expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('MissingCSRF');
		expect(client.jar.has('kitgate.session-token')).toBe(true);
	});
});

describe('pages', () => {
	test('GET signin renders the page with the credentials form and CSRF token', async () => {
		const client = testClient(makeConfig());
		const response = await client.request('/auth/signin?callbackUrl=%2Fafter');
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/text\/html/);
		const html = await response.text();
		expect(html).toMatch(/action="http:\/\/localhost:3000\/auth\/callback\/credentials"/);
		expect(html).toContain('name="password"');
		expect(html).toContain('value="http://localhost:3000/after"');
		const token = html.match(/name="csrfToken" value="([0-9a-f]+)"/)?.[1];
		expect(token).toHaveLength(64);
		const callbackUrl = html.match(/name="callbackUrl" value="([^"]+)"/)?.[1];
		const response2 = await client.request('/auth/callback/credentials', {
			form: { csrfToken: token!, callbackUrl: callbackUrl!, username: 'ada', password: 'lovelace' }
		});
		expect(client.jar.has('kitgate.session-token')).toBe(true);
		expect(response2.headers.get('location')).toBe('http://localhost:3000/after');
	});

	test('the cached sign-in page is filled per request: each visitor gets their own token', async () => {
		const config = makeConfig();
		const first = testClient(config);
		const second = testClient(config);
		const tokenOf = async (client: ReturnType<typeof testClient>) =>
			(await (await client.request('/auth/signin?callbackUrl=%2Fa%3Fb%3D1%26c%3D%22x%22')).text()).match(/name="csrfToken" value="([0-9a-f]+)"/)?.[1];
		const [a, b] = [await tokenOf(first), await tokenOf(second)];
		expect(a).toHaveLength(64);
		expect(a).not.toBe(b);
		expect(a).toBe(await first.csrfToken());
		const html = await (await second.request('/auth/signin?callbackUrl=%2Fa%3Fb%3D1%26c%3D%22x%22')).text();
		// the callback URL is attribute-escaped, never raw
		expect(html).toContain('value="http://localhost:3000/a?b=1&#38;c=%22x%22"');
	});

	test('GET signin with ?error shows the error with role=alert', async () => {
		const html = await (await testClient(makeConfig()).request('/auth/signin?error=CredentialsSignin')).text();
		expect(html).toMatch(/role="alert"/);
	});

	test('GET signout renders a confirmation form posting to signout', async () => {
		const html = await (await testClient(makeConfig()).request('/auth/signout')).text();
		expect(html).toContain('action="http://localhost:3000/auth/signout"');
		expect(html).toMatch(/name="csrfToken"/);
	});

	test('GET error renders known types and treats unknown ones as Default', async () => {
		const client = testClient(makeConfig());
		const denied = await client.request('/auth/error?error=AccessDenied');
		expect(denied.status).toBe(403);
		const unknown = await client.request('/auth/error?error=%3Cscript%3E');
		expect(unknown.status).toBe(200);
		expect(await unknown.text()).not.toContain('<script>');
	});

	test('GET verify-request renders', async () => {
		const response = await testClient(makeConfig()).request('/auth/verify-request');
		expect(response.status).toBe(200);
		expect(await response.text()).toMatch(/<h1/);
	});

	test('pages overrides redirect to the app routes with the right query', async () => {
		const client = testClient(makeConfig({ pages: { signIn: '/login', error: '/oops', signOut: '/logout', verifyRequest: '/check' } }));
		const signin = await client.request('/auth/signin?callbackUrl=%2Fx&error=CredentialsSignin&code=c1');
		expect(signin.headers.get('location')).toBe('http://localhost:3000/login?callbackUrl=%2Fx&error=CredentialsSignin&code=c1');
		expect((await client.request('/auth/error?error=AccessDenied')).headers.get('location')).toBe(
			'http://localhost:3000/oops?error=AccessDenied'
		);
		expect((await client.request('/auth/signout')).headers.get('location')).toBe('http://localhost:3000/logout');
		expect((await client.request('/auth/verify-request')).headers.get('location')).toMatch(/^http:\/\/localhost:3000\/check/);
		const failed = await signIn(client, { password: 'bad' });
		expect(failed.headers.get('location')).toMatch(/^http:\/\/localhost:3000\/login\?error=CredentialsSignin&code=credentials/);
	});
});

describe('basePath and host', () => {
	test('a custom basePath is used for routes, forms and redirects', async () => {
		const client = testClient(makeConfig({ basePath: '/app/auth' }));
		expect((await client.request('/auth/csrf')).status).toBe(404);
		const html = await (await client.request('/app/auth/signin')).text();
		expect(html).toContain('action="http://localhost:3000/app/auth/callback/credentials"');
		const token = ((await (await client.request('/app/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
		const failed = await client.request('/app/auth/callback/credentials', { form: { csrfToken: token, username: 'x', password: 'y' } });
		expect(new URL(failed.headers.get('location')!).pathname).toBe('/app/auth/signin');
	});

	test('with trustHost the origin comes from X-Forwarded-Host/Proto', async () => {
		const client = testClient(makeConfig());
		const response = await client.request('/auth/providers', {
			headers: { 'x-forwarded-host': 'public.example.com', 'x-forwarded-proto': 'https' }
		});
		const body = (await response.json()) as Record<string, { signinUrl: string }>;
		expect(body.credentials.signinUrl).toBe('https://public.example.com/auth/signin/credentials');
	});

	test('a malformed forwarded host is a 400, not a 500', async () => {
		const response = await testClient(makeConfig()).request('/auth/session', { headers: { 'x-forwarded-host': 'evil.com/x y' } });
		expect(response.status).toBe(400);
	});

	test('trustHost: false in production without AUTH_URL fails at start-up, and per request with an error page', async () => {
		const previous = process.env.NODE_ENV;
		process.env.NODE_ENV = 'production';
		try {
			const errors: Error[] = [];
			const response = await Auth(new Request('http://localhost/auth/session'), makeConfig({ trustHost: false, logger: { error: (_code, e) => errors.push(e as Error) } }));
			expect(response.status).toBe(503);
			expect(await response.text()).toMatch(/<h1/);
			expect(errors[0]).toMatchObject({ type: 'UntrustedHost' });
			expect(errors[0].message).toContain('AUTH_TRUST_HOST');
		} finally {
			process.env.NODE_ENV = previous;
		}
	});
});

describe('bad input never gives a 500 or a session', () => {
	const cases: [string, string, Record<string, unknown>][] = [
		['unknown action', '/auth/nope', {}],
		['unknown provider', '/auth/signin/nope', { method: 'POST', form: {} }],
		['unknown callback provider', '/auth/callback/nope', {}],
		['callback without provider', '/auth/callback', {}],
		['extra segments', '/auth/session/x/y', {}],
		['garbage JSON', '/auth/callback/credentials', { method: 'POST', body: '{nope', headers: { 'content-type': 'application/json' } }],
		['JSON array', '/auth/signout', { method: 'POST', body: '[1,2]', headers: { 'content-type': 'application/json' } }],
		['missing CSRF', '/auth/callback/credentials', { form: { username: 'ada', password: 'lovelace' } }],
		['wrong CSRF', '/auth/callback/credentials', { form: { csrfToken: 'x', username: 'ada', password: 'lovelace' } }],
		['GET credentials callback', '/auth/callback/credentials?username=ada&password=lovelace', {}],
		['PUT', '/auth/session', { method: 'PUT' }],
		['DELETE', '/auth/signout', { method: 'DELETE' }],
		['huge body', '/auth/callback/credentials', { form: { csrfToken: 'x', username: 'a'.repeat(100_000) } }],
		['binary body', '/auth/signout', { method: 'POST', body: new Uint8Array([0, 255, 1, 2]), headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
		['bad percent-encoding', '/auth/signin/%E0%A4%A', { method: 'POST', form: {} }],
		['tampered session cookie', '/auth/session', { headers: { cookie: 'kitgate.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..AAAA.BBBB.CCCC' } }],
		['chunk gap cookie', '/auth/session', { headers: { cookie: 'kitgate.session-token.0=abc; kitgate.session-token.2=def' } }],
		['garbage cookie header', '/auth/session', { headers: { cookie: '=;;;%%%=%;kitgate.session-token' } }],
		['non-string csrf', '/auth/signout', { json: { csrfToken: { a: 1 } } }],
		['error page xss', '/auth/error?error=<script>alert(1)</script>', {}],
		['signin page xss', '/auth/signin?callbackUrl=javascript:alert(1)&email="><script>', {}]
	];
	test.each(cases)('%s', async (_name, path, init) => {
		const client = testClient(makeConfig({ logger: { error: () => {}, warn: () => {} } }));
		await client.csrfToken();
		const response = await client.request(path, init);
		expect(response.status).toBeLessThan(500);
		expect([200, 302, 400, 403, 404, 405]).toContain(response.status);
		expect(response.headers.getSetCookie().some((c) => /session-token(\.\d+)?=[^;]+/.test(c))).toBe(false);
		const text = await response.text();
		expect(text).not.toMatch(/<script>alert|"><script>/);
	});
});

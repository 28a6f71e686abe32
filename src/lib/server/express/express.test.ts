// The Express integration on a real Express 5 server: both mount spellings (and the one Express 5
// refuses), bodies parsed or not, several Set-Cookie headers, `trust proxy`, and getSession.

import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, describe, expect, test } from 'vitest';
import Credentials from '../providers/credentials.js';
import { TEST_SECRET } from '../core/test/client.js';
import type { AuthConfig } from '../core/types.js';
import { ExpressAuth, getSession } from './index.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
	return {
		secret: TEST_SECRET,
		trustHost: true,
		providers: [Credentials({ authorize: ({ username }) => (username === 'ada' ? { id: '1', name: 'Ada', email: 'ada@example.com' } : null) })],
		...overrides
	};
}

async function start(setup: (app: express.Express) => void): Promise<string> {
	const app = express();
	setup(app);
	const server = await new Promise<Server>((resolve) => {
		const s = app.listen(0, '127.0.0.1', () => resolve(s));
	});
	servers.push(server);
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function cookieHeader(response: Response, previous = ''): string {
	const jar = new Map(previous.split('; ').filter(Boolean).map((pair) => pair.split('=') as [string, string]));
	for (const line of response.headers.getSetCookie()) {
		const [pair] = line.split(';');
		const at = pair.indexOf('=');
		jar.set(pair.slice(0, at), pair.slice(at + 1));
	}
	return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

async function signIn(origin: string, kind: 'form' | 'json', headers: Record<string, string> = {}) {
	const csrf = await fetch(`${origin}/auth/csrf`, { headers });
	const { csrfToken } = (await csrf.json()) as { csrfToken: string };
	const fields = { csrfToken, username: 'ada', password: 'x', callbackUrl: '/home' };
	const response = await fetch(`${origin}/auth/callback/credentials`, {
		method: 'POST',
		redirect: 'manual',
		headers: {
			...headers,
			cookie: cookieHeader(csrf),
			'content-type': kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/json'
		},
		body: kind === 'form' ? new URLSearchParams(fields).toString() : JSON.stringify(fields)
	});
	return { response, cookies: cookieHeader(response, cookieHeader(csrf)) };
}

describe('ExpressAuth', () => {
	test.each([
		['app.use("/auth")', (app: express.Express, c: AuthConfig) => app.use('/auth', ExpressAuth(c))],
		['app.use("/auth/*splat")', (app: express.Express, c: AuthConfig) => app.use('/auth/*splat', ExpressAuth(c))],
		['mounted at the root', (app: express.Express, c: AuthConfig) => app.use(ExpressAuth(c))]
	])('serves the routes when mounted with %s', async (_name, mount) => {
		const c = config();
		const origin = await start((app) => {
			mount(app, c);
			app.get('/home', (_req, res) => void res.send('home'));
		});
		expect((await fetch(`${origin}/auth/providers`)).status).toBe(200);
		const { response } = await signIn(origin, 'form');
		expect(response.status).toBe(302);
		expect(response.headers.get('location')).toBe(`${origin}/home`);
		expect(await (await fetch(`${origin}/home`)).text()).toBe('home');
	});

	test('Auth.js’s Express 4 spelling, app.use("/auth/*"), is refused by Express 5 itself at mount, before kitgate runs', () => {
		// why the guides write "/auth" (docs/decisions.md, issue 31): Express 5 wants a named wildcard
		let called = false;
		const middleware = ExpressAuth(config());
		expect(() => express().use('/auth/*', (req, res, next) => ((called = true), middleware(req, res, next)))).toThrow(/Missing parameter name/);
		expect(called).toBe(false);
	});

	test.each(['form', 'json'] as const)('reads %s bodies, with or without body parsers before it', async (kind) => {
		const c = config();
		const raw = await start((app) => app.use('/auth', ExpressAuth(c)));
		const parsed = await start((app) => {
			app.use(express.urlencoded({ extended: false }), express.json());
			app.use('/auth', ExpressAuth(c));
		});
		for (const origin of [raw, parsed]) {
			const { response } = await signIn(origin, kind);
			expect(response.headers.getSetCookie().some((line) => line.startsWith('kitgate.session-token='))).toBe(true);
		}
	});

	test('keeps every Set-Cookie header', async () => {
		const origin = await start((app) => app.use('/auth', ExpressAuth(config())));
		const response = await fetch(`${origin}/auth/signin`, { headers: { cookie: 'kitgate.session-token.0=a; kitgate.session-token.1=b' } });
		const names = response.headers.getSetCookie().map((line) => line.split('=')[0]);
		expect(names).toContain('kitgate.csrf-token');
		expect(response.status).toBe(200);
	});

	test('GET /csrf (answered beside the routes): JSON, never cached, one cookie that comes back the same token; HEAD and a provider segment go through the routes', async () => {
		const origin = await start((app) => app.use('/auth', ExpressAuth(config())));
		const first = await fetch(`${origin}/auth/csrf`);
		expect(first.status).toBe(200);
		expect(first.headers.get('content-type')).toBe('application/json');
		expect(first.headers.get('cache-control')).toBe('no-store');
		const cookies = first.headers.getSetCookie();
		expect(cookies).toHaveLength(1);
		expect(cookies[0]).toMatch(/^kitgate\.csrf-token=[0-9a-f]{64}\.[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Lax$/);
		const { csrfToken } = (await first.json()) as { csrfToken: string };
		const again = await fetch(`${origin}/auth/csrf`, { headers: { cookie: cookies[0].split(';')[0] } });
		expect(((await again.json()) as { csrfToken: string }).csrfToken).toBe(csrfToken);
		expect(again.headers.getSetCookie()).toEqual([]);
		expect((await fetch(`${origin}/auth/csrf`, { method: 'HEAD' })).status).toBe(200);
		expect((await fetch(`${origin}/auth/csrf/extra`)).status).toBe(404);
		// a malformed Host is answered as every route answers it
		const { request } = await import('node:http');
		const status = await new Promise<number>((resolve) => {
			const req = request(`${origin}/auth/csrf`, { headers: { host: 'bad host' } }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
			req.end();
		});
		expect(status).toBe(400);
	});

	test('`trust proxy` decides whether X-Forwarded-Proto makes cookies secure', async () => {
		const trusted = await start((app) => {
			app.set('trust proxy', true);
			app.use('/auth', ExpressAuth(config()));
		});
		const untrusted = await start((app) => app.use('/auth', ExpressAuth(config())));
		const forwarded = { 'x-forwarded-proto': 'https' };
		const secure = await fetch(`${trusted}/auth/csrf`, { headers: forwarded });
		expect(secure.headers.getSetCookie()[0]).toMatch(/^__Host-kitgate\.csrf-token=.*Secure/);
		const plain = await fetch(`${untrusted}/auth/csrf`, { headers: forwarded });
		expect(plain.headers.getSetCookie()[0]).toMatch(/^kitgate\.csrf-token=/);
	});

	test('authorize gets a Web Request of the post: Express\'s protocol and host, the headers, a body it can read', async () => {
		const seen: { url: string; method: string; proto: string | null; host: string | null; agent: string | null; body: string }[] = [];
		const c = config({
			providers: [
				Credentials({
					authorize: async ({ username }, request) => {
						const { url, method, headers } = request;
						seen.push({ url, method, proto: headers.get('x-forwarded-proto'), host: headers.get('x-forwarded-host'), agent: headers.get('user-agent'), body: await request.text() });
						return username === 'ada' ? { id: '1', name: 'Ada', email: 'ada@example.com' } : null;
					}
				})
			]
		});
		const origin = await start((app) => {
			app.set('trust proxy', true);
			app.use('/auth', ExpressAuth(c));
		});
		const { response } = await signIn(origin, 'form', { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'app.example', 'user-agent': 'kitgate-test' });
		expect(response.status).toBe(302);
		expect(seen).toHaveLength(1);
		expect(seen[0]).toMatchObject({ url: 'https://app.example/auth/callback/credentials', method: 'POST', proto: 'https', host: 'app.example', agent: 'kitgate-test' });
		expect(new URLSearchParams(seen[0].body).get('username')).toBe('ada');
	});

	test('a credentials field sent twice is refused before authorize runs, with or without a body parser', async () => {
		let calls = 0;
		const c = config({
			providers: [
				Credentials({
					credentials: { username: {}, password: {} },
					authorize: () => {
						calls++;
						return { id: '1', name: 'Ada', email: 'ada@example.com' };
					}
				})
			]
		});
		const raw = await start((app) => app.use('/auth', ExpressAuth(c)));
		const parsed = await start((app) => {
			app.use(express.urlencoded({ extended: false }));
			app.use('/auth', ExpressAuth(c));
		});
		for (const origin of [raw, parsed]) {
			const csrf = await fetch(`${origin}/auth/csrf`);
			const { csrfToken } = (await csrf.json()) as { csrfToken: string };
			const response = await fetch(`${origin}/auth/callback/credentials`, {
				method: 'POST',
				redirect: 'manual',
				headers: { cookie: cookieHeader(csrf), 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
				body: `csrfToken=${csrfToken}&username=ada&username=admin&password=x`
			});
			expect(response.status).toBe(400);
			expect(await response.json()).toMatchObject({ error: 'InvalidRequest' });
		}
		expect(calls).toBe(0);
	});

	test('a misconfiguration throws when the middleware is created', () => {
		expect(() => ExpressAuth({ providers: [], secret: 'short' })).toThrow(/at least 32/);
	});
});

describe('getSession', () => {
	test('reads the session from the cookie, and null for none or a tampered one', async () => {
		const c = config();
		const origin = await start((app) => {
			app.use('/auth', ExpressAuth(c));
			app.get('/me', async (req, res) => void res.json(await getSession(req, c)));
		});
		expect(await (await fetch(`${origin}/me`)).json()).toBeNull();
		const { cookies } = await signIn(origin, 'form');
		const session = (await (await fetch(`${origin}/me`, { headers: { cookie: cookies } })).json()) as { user: { name: string } };
		expect(session.user.name).toBe('Ada');
		const tampered = cookies.replace(/(kitgate\.session-token=[^;]*?)(.)(;|$)/, (_m, a, c2, end) => `${a}${c2 === 'A' ? 'B' : 'A'}${end}`);
		expect(await (await fetch(`${origin}/me`, { headers: { cookie: tampered } })).json()).toBeNull();
	});

	test("without `res` (Auth.js's getSession(req, config)), extends the session on req.res", async () => {
		let now = Date.UTC(2026, 0, 1);
		const c = config({ now: () => now, session: { updateAge: 60 } });
		const origin = await start((app) => {
			app.use('/auth', ExpressAuth(c));
			app.get('/me', async (req, res) => void res.json(await getSession(req, c)));
		});
		const { cookies } = await signIn(origin, 'form');
		now += 61_000;
		const stale = await fetch(`${origin}/me`, { headers: { cookie: cookies } });
		expect(stale.headers.getSetCookie().some((line) => line.startsWith('kitgate.session-token='))).toBe(true);
	});

	test('with `res`, extends a session whose updateAge has passed', async () => {
		let now = Date.UTC(2026, 0, 1);
		const c = config({ now: () => now, session: { updateAge: 60 } });
		const origin = await start((app) => {
			app.use('/auth', ExpressAuth(c));
			app.get('/me', async (req, res) => void res.json(await getSession(req, c, res)));
		});
		const { cookies } = await signIn(origin, 'form');
		const fresh = await fetch(`${origin}/me`, { headers: { cookie: cookies } });
		expect(fresh.headers.getSetCookie()).toEqual([]);
		now += 61_000;
		const stale = await fetch(`${origin}/me`, { headers: { cookie: cookies } });
		expect(stale.headers.getSetCookie().some((line) => line.startsWith('kitgate.session-token='))).toBe(true);
	});
});

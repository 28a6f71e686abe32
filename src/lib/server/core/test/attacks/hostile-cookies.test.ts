// Attacks: cookies an attacker can put in front of kitgate (1 failed before the fix; 2 documents a behaviour).
//
// 1. A session cookie whose value decodes to a NUL byte (`kitgate.session-token=%00`). The `cookie`
//    package percent-decodes it, kitgate hands "\u0000" to `getSessionAndUser`, and PostgreSQL refuses
//    the query (`invalid byte sequence for encoding "UTF8": 0x00`). The session route then answers
//    503 (the docs: a forged cookie is "no session", never a 5xx), every page sees "no session" with an
//    error in the log, and is never cleared. An email-link (also OAuth, passkey) sign-in from that
//    browser fails after spending the link (the flow reads the current session to find the signed-in
//    user): one tossed cookie (a sibling subdomain can set it) locks a user out of every provider but
//    credentials until they clear their cookies.
// 2. Two session cookies of the same name (what a browser sends when a sibling host has tossed one
//    with `Domain=.example.com; Path=/auth`, which it sends first): kitgate reads the first one.
//    Over HTTPS the session cookie is `__Secure-`, not `__Host-`, so such a toss is possible. Kept as
//    documentation of the precondition (holds: reading the first is the only thing a server can do).

import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PostgresAdapter } from '../../../adapters/postgres.js';
import Credentials from '../../../providers/credentials.js';
import Email from '../../../providers/email.js';
import type { AuthConfig } from '../../types.js';
import { TEST_SECRET } from '../client.js';
import { Browser, INTEGRATIONS } from '../integrations.js';
import { attackWorld } from './flows.js';

const world = attackWorld();
const schema = `t_${randomBytes(6).toString('hex')}`;
let adapter: ReturnType<typeof PostgresAdapter>;
const errors: Error[] = [];
const links: string[] = [];

beforeAll(async () => {
	adapter = PostgresAdapter({ connectionString: inject('databaseUrl'), schema });
});
afterAll(async () => {
	await adapter?.close();
	const admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
	await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
	await admin.end();
});

function config(strategy: 'database' | 'jwt'): AuthConfig {
	return {
		secret: TEST_SECRET,
		trustHost: true,
		adapter,
		session: { strategy },
		logger: { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} },
		providers: [
			Email({ sendVerificationRequest: ({ url }) => void links.push(url) }),
			Credentials({
				credentials: { username: {} },
				authorize: async ({ username }) => {
					const email = `${String(username)}@example.com`;
					return (await adapter.getUserByEmail(email)) ?? (await adapter.createUser({ id: crypto.randomUUID(), email, name: String(username), emailVerified: null }));
				}
			})
		]
	};
}

describe.each(INTEGRATIONS)('%s, PostgreSQL database sessions', (integration) => {
	test('a session cookie holding a NUL byte reads as no session: no 5xx, and the user can still sign in', async () => {
		const app = world.apps[integration];
		app.use(config('database'));
		errors.length = 0;
		const browser = new Browser();
		browser.jar.set(new URL(app.origin).host, new Map([['kitgate.session-token', '%00']]));

		const sessionRoute = await browser.request(`${app.origin}/auth/session`);
		const sessionBody = await sessionRoute.text();
		const page = await browser.request(`${app.origin}/`);
		const stillThere = browser.cookie(app.origin, 'kitgate.session-token');
		// sign in with an email link from the same browser
		const csrfToken = await browser.csrfToken(app.origin);
		links.length = 0;
		await browser.request(`${app.origin}/auth/signin/email`, { form: { csrfToken, email: 'ada@example.com' } });
		const link = new URL(links[0]);
		const confirm = await browser.request(`${app.origin}/auth/callback/email`, {
			form: { csrfToken, token: link.searchParams.get('token')!, email: link.searchParams.get('email')!, callbackUrl: '/' }
		});
		const landed = confirm.headers.get('location');
		const after = await browser.session(app.origin);
		const signIn = confirm;
		console.log(`[${integration}] GET /auth/session -> ${sessionRoute.status} ${sessionBody}`);
		console.log(`[${integration}] GET / (app page) -> ${page.status}; planted cookie still in the browser: ${stillThere !== undefined}`);
		console.log(`[${integration}] email-link sign-in -> ${signIn.status} ${landed}; session afterwards: ${JSON.stringify(after?.user ?? null)}`);
		console.log(`[${integration}] logged: ${errors.map((e) => `${e.name}: ${e.message} <- ${String((e.cause as { err?: Error })?.err?.message ?? '')}`).join(' | ')}`);

		expect(sessionRoute.status, 'a forged session cookie is never a 5xx').toBeLessThan(500);
		expect(page.status).toBe(200);
		expect(after?.user?.email, 'a planted cookie must not lock the user out').toBe('ada@example.com');
	});
});

describe.each(INTEGRATIONS)('%s, duplicate session cookies (precondition of cookie tossing)', (integration) => {
	test('with two session cookies of one name the first one sent is read (holds: documents why the name needs __Host-)', async () => {
		const app = world.apps[integration];
		app.use(config('jwt'));
		const tokenOf = async (username: string) => {
			const browser = new Browser();
			const csrfToken = await browser.csrfToken(app.origin);
			await browser.request(`${app.origin}/auth/callback/credentials`, { form: { csrfToken, username } });
			return browser.cookie(app.origin, 'kitgate.session-token') as string;
		};
		const [mine, tossed] = [await tokenOf('ada'), await tokenOf('mallory')];
		const page = await fetch(`${app.origin}/`, { headers: { cookie: `kitgate.session-token=${tossed}; kitgate.session-token=${mine}` } });
		const session = ((await page.json()) as { session: { user: { email: string } } }).session;
		expect(session.user.email).toBe('mallory@example.com');
	});
});

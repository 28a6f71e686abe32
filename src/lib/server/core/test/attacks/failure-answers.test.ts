// Attacks: the failure table and failureAnswer (0e554af). Every failure now answers script
// callers (X-Auth-Return-Redirect: 1, or a JSON body) with the table's status and { error, url },
// drops every cookie the failed request queued (but a fresh CSRF token and what `keep` allows), and
// is logged at the table's level. Both integrations over HTTP.
//
// HOLDS: MissingCSRF is 403 on every state-changing route for both kinds of script caller, and
// such answers set no cookie but a CSRF token or a removal; known and unknown users get the same
// JSON answers (credentials, email, passkey options); fields of the wrong JSON type are 4xx.
// BROKE (each fixed since, the test kept):
// - dropping every queued cookie also drops the REMOVAL of the session cookie: a database
//   sign-out whose `deleteSession` fails (a database hiccup) answers the error page and the
//   browser stays signed in, on the route and through SvelteKit's signOut action (Auth.js clears
//   the cookie and logs the failure). On a shared computer the next person is the user.
// - RateLimited is 429 everywhere, but only credentials and email say when to retry: the passkey
//   options route answers 429 without Retry-After.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Email from '../../../providers/email.js';
import Passkey from '../../../providers/passkey.js';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import type { Adapter, AuthConfig, RateLimitOptions } from '../../types.js';
import { Browser, INTEGRATIONS, type AppServer } from '../integrations.js';
import { attackConfig, attackWorld, rightPasswordCredentials, type Strategy } from './flows.js';

const world = attackWorld();

const KNOWN = 'known-user-4711';
const mail: string[] = [];

function config(options: { adapter?: Adapter; strategy?: Strategy; rateLimit?: RateLimitOptions } = {}): AuthConfig {
	return attackConfig(options.adapter ?? MemoryAdapter(), options.strategy ?? 'jwt', {
		rateLimit: options.rateLimit ?? { store: MemoryRateLimitStore() },
		experimental: { enableWebAuthn: true },
		providers: [
			rightPasswordCredentials(KNOWN),
			Email({ sendVerificationRequest: ({ identifier }) => void mail.push(identifier) }),
			Passkey()
		]
	});
}

const SCRIPT = { 'x-auth-return-redirect': '1' };
const isCsrfCookie = (line: string) => /^kitgate\.csrf-token=/.test(line);
const isRemoval = (line: string) => /^[^=]+=;/.test(line);

describe.each(INTEGRATIONS)('%s', (integration) => {
	const app = (): AppServer => world.apps[integration];

	test('MissingCSRF: 403 { error } on every state-changing route, for JSON bodies and for X-Auth-Return-Redirect; no cookie but a CSRF token or a removal', async () => {
		app().use(config());
		const routes: [string, Record<string, unknown>][] = [
			['/auth/signin/credentials', { username: KNOWN, password: 'right' }],
			['/auth/signin/email', { email: `${KNOWN}@example.com` }],
			['/auth/callback/credentials', { username: KNOWN, password: 'right' }],
			['/auth/callback/email', { token: 'x'.repeat(64), email: `${KNOWN}@example.com` }],
			['/auth/callback/passkey', { action: 'authenticate', data: {} }],
			['/auth/signout', {}],
			['/auth/session', { data: { name: 'x' } }],
			['/auth/webauthn-authenticators/passkey', { credentialID: 'x' }]
		];
		for (const [path, fields] of routes) {
			for (const [caller, init] of [
				['JSON body', { json: fields }],
				['X-Auth-Return-Redirect', { form: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])), headers: SCRIPT }]
			] as const) {
				const browser = new Browser();
				await browser.csrfToken(app().origin); // a CSRF cookie of its own, but the attacker's page cannot read its token
				const answer = await browser.request(`${app().origin}${path}`, init as never);
				expect(answer.status, `${path} (${caller})`).toBe(403);
				expect(((await answer.json()) as { error: string }).error, `${path} (${caller})`).toBe('MissingCSRF');
				const cookies = answer.headers.getSetCookie();
				expect(cookies.filter((line) => !isCsrfCookie(line) && !isRemoval(line)), `${path} (${caller})`).toEqual([]);
			}
		}
	});

	test('known and unknown users: the same JSON answers (credentials, email, passkey options)', async () => {
		const adapter = MemoryAdapter();
		await adapter.createUser({ id: `u-${KNOWN}`, email: `${KNOWN}@example.com`, emailVerified: new Date() });
		app().use(config({ adapter }));
		// random values and the address typed (echoed as the passkey's label) aside
		const shape = (text: string, user: string) =>
			text.replace(/"challenge":"[^"]+"/, '"challenge":"…"').replace(/"id":"[^"]+"/g, '"id":"…"').replaceAll(user, 'USER');
		const answers = async (user: string) => {
			const browser = new Browser();
			const csrfToken = await browser.csrfToken(app().origin);
			const credentials = await browser.request(`${app().origin}/auth/callback/credentials`, { json: { csrfToken, username: user, password: 'wrong' } });
			const email = await browser.request(`${app().origin}/auth/signin/email`, { json: { csrfToken, email: `${user}@example.com` }, headers: SCRIPT });
			const options = await browser.request(`${app().origin}/auth/webauthn-options/passkey?action=authenticate&email=${user}%40example.com`);
			const register = await browser.request(`${app().origin}/auth/webauthn-options/passkey?action=register&email=${user}%40example.com`);
			const out = [];
			for (const answer of [credentials, email, options, register]) {
				out.push({ status: answer.status, body: shape(await answer.text(), user), cookies: answer.headers.getSetCookie().map((line) => line.split('=')[0]) });
			}
			return out;
		};
		const known = await answers(KNOWN);
		expect(known[0].status).toBe(401);
		expect(known[1].status).toBe(200);
		expect(await answers('unknown-user-0815')).toEqual(known);
	});

	test('JSON fields of the wrong type are 4xx, never 5xx, and start nothing', async () => {
		app().use(config());
		mail.length = 0;
		const hostile: unknown[] = [{}, [], ['a', 'b'], 1, true, null, { toString: 'x' }, { __proto__: { admin: true } }];
		for (const value of hostile) {
			const browser = new Browser();
			const csrfToken = await browser.csrfToken(app().origin);
			const requests: [string, Record<string, unknown>][] = [
				['/auth/callback/credentials', { csrfToken, username: value, password: 'right' }],
				['/auth/callback/credentials', { csrfToken, username: KNOWN, password: 'right', callbackUrl: value }],
				['/auth/signin/email', { csrfToken, email: value }],
				['/auth/signin/credentials', { csrfToken: value }],
				['/auth/callback/passkey', { csrfToken, action: value, data: value }],
				['/auth/webauthn-authenticators/passkey', { csrfToken, credentialID: value }],
				['/auth/signout', { csrfToken, callbackUrl: value }]
			];
			for (const [path, body] of requests) {
				const answer = await browser.request(`${app().origin}${path}`, { json: body });
				const label = `${path} ${JSON.stringify(body)}`;
				expect(answer.status, label).toBeGreaterThanOrEqual(200);
				expect(answer.status, label).toBeLessThan(500);
			}
			expect(await browser.session(app().origin), JSON.stringify(value)).toBeNull();
		}
		expect(mail).toEqual([]);
	});

	test('a database sign-out whose session delete fails still signs the browser out', async () => {
		const adapter = MemoryAdapter();
		let failing = false;
		const deleteSession = adapter.deleteSession.bind(adapter);
		adapter.deleteSession = async (token) => {
			if (failing) throw new Error('connection reset by the database');
			return deleteSession(token);
		};
		app().use(config({ adapter, strategy: 'database' }));
		const ways = integration === 'sveltekit' ? ['route', 'action'] : ['route'];
		for (const way of ways) {
			failing = false;
			const browser = new Browser();
			let csrfToken = await browser.csrfToken(app().origin);
			await browser.request(`${app().origin}/auth/callback/credentials`, { form: { csrfToken, username: KNOWN, password: 'right' } });
			expect((await browser.session(app().origin))?.user?.email).toBe(`${KNOWN}@example.com`);
			failing = true;
			csrfToken = await browser.csrfToken(app().origin);
			const answer =
				way === 'route'
					? await browser.request(`${app().origin}/auth/signout`, { form: { csrfToken, callbackUrl: '/' } })
					: await browser.request(`${app().origin}/signout`, { form: { callbackUrl: '/' }, headers: { accept: 'text/html' } });
			expect.soft(answer.status, way).toBeLessThan(400);
			failing = false;
			expect.soft(await browser.session(app().origin), `${way}: the user pressed "sign out" and is still signed in`).toBeNull();
		}
	});

	test('RateLimited says when to retry on every route: credentials, email, passkey options', async () => {
		app().use(config({
			rateLimit: {
				store: MemoryRateLimitStore(),
				credentials: { perIdentifier: 1, perAddress: 0 },
				email: { perIdentifier: 1, perAddress: 0 },
				passkey: { perAddress: 1 }
			}
		}));
		const browser = new Browser();
		const csrfToken = await browser.csrfToken(app().origin);
		const limited: Record<string, Response> = {};
		for (let attempt = 0; attempt < 2; attempt++) {
			limited.credentials = await browser.request(`${app().origin}/auth/callback/credentials`, { json: { csrfToken, username: KNOWN, password: 'wrong' } });
			limited.email = await browser.request(`${app().origin}/auth/signin/email`, { json: { csrfToken, email: 'limited@example.com' }, headers: SCRIPT });
			limited.passkey = await browser.request(`${app().origin}/auth/webauthn-options/passkey?action=authenticate`);
		}
		for (const [route, answer] of Object.entries(limited)) {
			expect(answer.status, route).toBe(429);
			expect(((await answer.json()) as { error: string }).error, route).toBe('RateLimited');
		}
		for (const [route, answer] of Object.entries(limited)) {
			expect(Number(answer.headers.get('retry-after')), `${route}: Retry-After`).toBeGreaterThan(0);
		}
	});
});

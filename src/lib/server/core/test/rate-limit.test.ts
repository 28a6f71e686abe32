// Abuse limits through `Auth()`: failed credentials attempts per identifier and per client address
// (integration address, trusted X-Forwarded-For), the RateLimited page and 429, concurrency, the
// failure time floor, email-link requests (same answer for known and unknown addresses), and one
// SQL store shared by two servers.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { isRedirect, type RequestEvent } from '@sveltejs/kit';
import { afterAll, describe, expect, test } from 'vitest';
import { ExpressAuth } from '../../express/index.js';
import { SvelteKitAuth } from '../../sveltekit/index.js';
import { MemoryAdapter } from '../../adapters/memory.js';
import { SqlRateLimitStore } from '../../adapters/rate-limit-store.js';
import { SQLiteAdapter } from '../../adapters/sqlite.js';
import { Auth } from '../auth.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import type { AuthConfig, EmailConfig, RateLimitOptions, SendVerificationRequestParams } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { adaCredentialsWorld } from './credentials-fixture.js';
import { quietLogger, setsSession } from './oauth-fixtures.js';

const ORIGIN = 'http://localhost:3000';
const directory = mkdtempSync(join(tmpdir(), 'kitgate-limits-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** One credentials POST from a fresh browser, optionally from `address` (as an integration passes it). */
async function attempt(
	config: AuthConfig,
	fields: Record<string, string>,
	options: { address?: string; headers?: Record<string, string> } = {}
): Promise<Response> {
	const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config);
	const cookie = csrf.headers.getSetCookie()[0].split(';')[0];
	const { csrfToken } = (await csrf.json()) as { csrfToken: string };
	const request = new Request(`${ORIGIN}/auth/callback/credentials`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...options.headers },
		body: new URLSearchParams({ csrfToken, callbackUrl: '/home', ...fields })
	});
	return Auth(request, config, { clientAddress: options.address });
}

const wrong = (username = 'ada') => ({ username, password: 'wrong' });
const right = { username: 'ada', password: 'lovelace' };

function errorOf(response: Response): string | null {
	const location = response.headers.get('location');
	return location ? new URL(location).searchParams.get('error') : null;
}

describe('credentials: logging', () => {
	test('a wrong password is a warning with its code, never an error with a stack (a user\'s mistake)', async () => {
		const { config, log } = adaCredentialsWorld();
		expect(errorOf(await attempt(config, wrong()))).toBe('CredentialsSignin');
		expect(log.errors).toEqual([]);
		expect(log.warnings).toEqual(['CredentialsSignin Invalid credentials (code "credentials")']);
	});
});

describe('credentials: per identifier', () => {
	test('after perIdentifier failures the next attempt is RateLimited without calling authorize, even with the right password', async () => {
		const { config, calls, log } = adaCredentialsWorld({ credentials: { perIdentifier: 3 } });
		for (let i = 0; i < 3; i++) expect(errorOf(await attempt(config, wrong()))).toBe('CredentialsSignin');
		const limited = await attempt(config, right);
		expect(limited.status).toBe(302);
		expect(limited.headers.get('location')).toBe(`${ORIGIN}/auth/signin?error=RateLimited&callbackUrl=${encodeURIComponent(`${ORIGIN}/home`)}`);
		expect(setsSession(limited)).toBe(false);
		expect(calls).toHaveLength(3);
		expect(log.warnings.join('\n')).toMatch(/RateLimited credentials attempt refused: over the per-identifier limit/);
		// the identifier is not in the log line
		expect(log.warnings.join('\n')).not.toContain('ada');
	});

	test('the identifier is compared trimmed and in lower case', async () => {
		const { config } = adaCredentialsWorld({ credentials: { perIdentifier: 2 } });
		await attempt(config, wrong('ada'));
		await attempt(config, wrong(' ADA '));
		expect(errorOf(await attempt(config, wrong('Ada')))).toBe('RateLimited');
	});

	test('other identifiers are not affected', async () => {
		const { config } = adaCredentialsWorld({ credentials: { perIdentifier: 1 } });
		await attempt(config, wrong('ada'));
		expect(errorOf(await attempt(config, wrong('grace')))).toBe('CredentialsSignin');
	});

	test('a success forgets the identifier\'s failures', async () => {
		const { config } = adaCredentialsWorld({ credentials: { perIdentifier: 3 } });
		await attempt(config, wrong());
		await attempt(config, wrong());
		expect(setsSession(await attempt(config, right))).toBe(true);
		for (let i = 0; i < 3; i++) expect(errorOf(await attempt(config, wrong()))).toBe('CredentialsSignin');
		expect(errorOf(await attempt(config, wrong()))).toBe('RateLimited');
	});

	test('the window ends: the same identifier may try again', async () => {
		const { config, clock } = adaCredentialsWorld({ credentials: { perIdentifier: 1, windowSeconds: 60 } });
		await attempt(config, wrong());
		expect(errorOf(await attempt(config, right))).toBe('RateLimited');
		clock.now += 60_000;
		expect(setsSession(await attempt(config, right))).toBe(true);
	});

	test('JSON callers (X-Auth-Return-Redirect) get 429 { error, url } with Retry-After', async () => {
		const { config } = adaCredentialsWorld({ credentials: { perIdentifier: 1, windowSeconds: 120 } });
		await attempt(config, wrong());
		const limited = await attempt(config, right, { headers: { 'x-auth-return-redirect': '1' } });
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('120');
		expect(await limited.json()).toEqual({
			error: 'RateLimited',
			url: `${ORIGIN}/auth/signin?error=RateLimited&callbackUrl=${encodeURIComponent(`${ORIGIN}/home`)}`
		});
		expect(setsSession(limited)).toBe(false);
	});

	test('20 concurrent wrong attempts with a limit of 5: authorize runs exactly 5 times', async () => {
		const { config, calls } = adaCredentialsWorld({ credentials: { perIdentifier: 5 } });
		const results = await Promise.all(Array.from({ length: 20 }, () => attempt(config, wrong())));
		expect(calls).toHaveLength(5);
		expect(results.map(errorOf).filter((e) => e === 'RateLimited')).toHaveLength(15);
	});

	test('an authorize that throws counts as a failed attempt (apps often throw a plain Error for a wrong password)', async () => {
		const { config } = adaCredentialsWorld({ credentials: { perIdentifier: 1 } });
		expect(errorOf(await attempt(config, { username: 'boom', password: 'x' }))).toBe('CallbackRouteError');
		expect(errorOf(await attempt(config, { username: 'boom', password: 'x' }))).toBe('RateLimited');
	});

	test('a custom identifier function picks the field', async () => {
		const { config } = adaCredentialsWorld({ credentials: { perIdentifier: 1, identifier: (fields) => String(fields.password) } });
		await attempt(config, { username: 'a', password: 'same' });
		expect(errorOf(await attempt(config, { username: 'b', password: 'same' }))).toBe('RateLimited');
	});

	test('rateLimit: false, or credentials: false, turns the limit off', async () => {
		for (const option of [false, { credentials: false }] as const) {
			const { config } = adaCredentialsWorld(option);
			for (let i = 0; i < 15; i++) expect(errorOf(await attempt(config, wrong()))).toBe('CredentialsSignin');
		}
	});
});

describe('credentials: per client address', () => {
	test('failures with many usernames from one address are limited; another address is not', async () => {
		const { config } = adaCredentialsWorld({ credentials: { perIdentifier: 0, perAddress: 3 } });
		for (const name of ['a', 'b', 'c']) await attempt(config, wrong(name), { address: '203.0.113.9' });
		expect(errorOf(await attempt(config, wrong('d'), { address: '203.0.113.9' }))).toBe('RateLimited');
		expect(errorOf(await attempt(config, wrong('d'), { address: '::ffff:203.0.113.9' }))).toBe('RateLimited');
		expect(errorOf(await attempt(config, wrong('d'), { address: '198.51.100.7' }))).toBe('CredentialsSignin');
	});

	test('successful sign-ins do not count against the address', async () => {
		const { config } = adaCredentialsWorld({ credentials: { perIdentifier: 0, perAddress: 2 } });
		for (let i = 0; i < 10; i++) expect(setsSession(await attempt(config, right, { address: '203.0.113.9' }))).toBe(true);
	});

	test('IPv6 addresses of one /64 share their limit', async () => {
		const { config } = adaCredentialsWorld({ credentials: { perIdentifier: 0, perAddress: 2 } });
		await attempt(config, wrong('a'), { address: '2001:db8:1:2::1' });
		await attempt(config, wrong('b'), { address: '2001:db8:1:2::2' });
		expect(errorOf(await attempt(config, wrong('c'), { address: '2001:db8:1:2:ffff::3' }))).toBe('RateLimited');
		expect(errorOf(await attempt(config, wrong('c'), { address: '2001:db8:1:3::1' }))).toBe('CredentialsSignin');
	});

	test('X-Forwarded-For is ignored unless trustedProxies says how many proxies append to it', async () => {
		const { config } = adaCredentialsWorld({ credentials: { perIdentifier: 0, perAddress: 1 } });
		for (let i = 0; i < 5; i++) {
			const spoofed = { 'x-forwarded-for': '203.0.113.9' };
			expect(errorOf(await attempt(config, wrong(`u${i}`), { headers: spoofed }))).toBe('CredentialsSignin');
		}
	});

	test('with one trusted proxy the rightmost entry counts; changing the entries left of it does not escape', async () => {
		const { config } = adaCredentialsWorld({ credentials: { perIdentifier: 0, perAddress: 2 }, trustedProxies: 1 });
		const from = (typed: string) => ({ address: '10.0.0.2', headers: { 'x-forwarded-for': `${typed}, 203.0.113.9` } });
		await attempt(config, wrong('a'), from('1.1.1.1'));
		await attempt(config, wrong('b'), from('2.2.2.2'));
		expect(errorOf(await attempt(config, wrong('c'), from('3.3.3.3')))).toBe('RateLimited');
		// the proxy's own address is not what counts
		expect(errorOf(await attempt(config, wrong('d'), { address: '10.0.0.2', headers: { 'x-forwarded-for': '198.51.100.1' } }))).toBe('CredentialsSignin');
	});

	test('a clientAddress function wins over everything else', async () => {
		const { config } = adaCredentialsWorld({
			credentials: { perIdentifier: 0, perAddress: 1 },
			clientAddress: (request) => request.headers.get('cf-connecting-ip') ?? undefined
		});
		await attempt(config, wrong('a'), { address: '10.0.0.1', headers: { 'cf-connecting-ip': '203.0.113.50' } });
		expect(errorOf(await attempt(config, wrong('b'), { address: '10.0.0.9', headers: { 'cf-connecting-ip': '203.0.113.50' } }))).toBe('RateLimited');
	});
});

describe('credentials: failures take at least minFailureMs', () => {
	test('an unknown user and a wrong password are both not faster than the floor', async () => {
		const floor = 250;
		const { config } = adaCredentialsWorld({ credentials: false }, {}, floor);
		for (const fields of [wrong('nobody-at-all'), wrong('ada')]) {
			const started = performance.now();
			const response = await attempt(config, fields);
			// the CSRF round trip is part of the measured time, which only makes it longer
			expect(errorOf(response)).toBe('CredentialsSignin');
			expect(performance.now() - started).toBeGreaterThanOrEqual(floor - 2);
		}
	});

	test('the default floor is 300 ms', async () => {
		const { DEFAULT_MIN_FAILURE_MS } = await import('../flows/credentials/credentials.js');
		expect(DEFAULT_MIN_FAILURE_MS).toBe(300);
		const { config } = adaCredentialsWorld({ credentials: false }, {}, 'default');
		const started = performance.now();
		await attempt(config, wrong('nobody'));
		expect(performance.now() - started).toBeGreaterThanOrEqual(298);
	});
});

/** An email config with a sender that records what it would send. */
function emailSetup(rateLimit: RateLimitOptions = {}) {
	const sent: SendVerificationRequestParams[] = [];
	const adapter = MemoryAdapter();
	const provider: EmailConfig = {
		id: 'email',
		name: 'Email',
		type: 'email',
		sendVerificationRequest: (params) => void sent.push(params)
	};
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		adapter,
		logger: quietLogger().logger,
		rateLimit: { store: MemoryRateLimitStore(), ...rateLimit },
		providers: [provider]
	};
	return { config, adapter, sent };
}

async function requestLink(config: AuthConfig, email: string, address?: string) {
	const client = testClient(config);
	const csrfToken = await client.csrfToken();
	const csrfCookie = [...client.jar].map(([k, v]) => `${k}=${v}`).join('; ');
	const response = await Auth(
		new Request(`${ORIGIN}/auth/signin/email`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
			body: new URLSearchParams({ csrfToken, email, callbackUrl: '/home' })
		}),
		config,
		{ clientAddress: address }
	);
	return { status: response.status, location: response.headers.get('location'), cookies: response.headers.getSetCookie(), body: await response.text() };
}

describe('email-link requests', () => {
	test('known and unknown addresses: identical answers while allowed, identical RateLimited answers after', async () => {
		const { config, adapter, sent } = emailSetup({ email: { perIdentifier: 2 } });
		await adapter.createUser({ id: 'u1', email: 'known@example.com', emailVerified: new Date() });
		const answers: Record<string, Awaited<ReturnType<typeof requestLink>>[]> = { known: [], unknown: [] };
		for (let i = 0; i < 3; i++) {
			answers.known.push(await requestLink(config, 'known@example.com'));
			answers.unknown.push(await requestLink(config, 'unknown@example.com'));
		}
		expect(answers.known).toEqual(answers.unknown);
		expect(answers.known[0].location).toBe(`${ORIGIN}/auth/verify-request?provider=email&type=email`);
		expect(new URL(answers.known[2].location!).searchParams.get('error')).toBe('RateLimited');
		expect(sent.map((s) => s.identifier)).toEqual(['known@example.com', 'unknown@example.com', 'known@example.com', 'unknown@example.com']);
	});

	test('the address typed in another case or with spaces counts as the same address', async () => {
		const { config, sent } = emailSetup({ email: { perIdentifier: 1 } });
		await requestLink(config, 'ada@example.com');
		const second = await requestLink(config, '  ADA@example.com ');
		expect(new URL(second.location!).searchParams.get('error')).toBe('RateLimited');
		expect(sent).toHaveLength(1);
	});

	test('per client address: many addresses from one client are limited', async () => {
		const { config, sent } = emailSetup({ email: { perIdentifier: 0, perAddress: 2 } });
		await requestLink(config, 'a@example.com', '203.0.113.9');
		await requestLink(config, 'b@example.com', '203.0.113.9');
		const third = await requestLink(config, 'c@example.com', '203.0.113.9');
		expect(new URL(third.location!).searchParams.get('error')).toBe('RateLimited');
		const elsewhere = await requestLink(config, 'c@example.com', '198.51.100.7');
		expect(elsewhere.location).toContain('/auth/verify-request');
		expect(sent).toHaveLength(3);
	});

	test('a typo (refused address) is not counted', async () => {
		const { config } = emailSetup({ email: { perIdentifier: 1, perAddress: 1 } });
		for (let i = 0; i < 3; i++) await requestLink(config, 'not an address', '203.0.113.9');
		expect((await requestLink(config, 'ada@example.com', '203.0.113.9')).location).toContain('/auth/verify-request');
	});
});

describe('a SQL store shared by two servers', () => {
	test('failures on one server count on the other', async () => {
		const filename = join(directory, 'shared.sqlite');
		const [first, second] = [SQLiteAdapter({ filename }), SQLiteAdapter({ filename })];
		try {
			const serverA = adaCredentialsWorld({ store: SqlRateLimitStore(first), credentials: { perIdentifier: 2 } });
			const serverB = adaCredentialsWorld({ store: SqlRateLimitStore(second), credentials: { perIdentifier: 2 } });
			serverB.clock.now = serverA.clock.now;
			await first.migrate();
			expect(errorOf(await attempt(serverA.config, wrong()))).toBe('CredentialsSignin');
			expect(errorOf(await attempt(serverB.config, wrong()))).toBe('CredentialsSignin');
			expect(errorOf(await attempt(serverA.config, right))).toBe('RateLimited');
			expect(errorOf(await attempt(serverB.config, right))).toBe('RateLimited');
			expect(serverA.calls.length + serverB.calls.length).toBe(2);
		} finally {
			await first.close();
			await second.close();
		}
	});

	test('a store that fails lets attempts through and logs why', async () => {
		const broken = MemoryRateLimitStore();
		broken.increment = () => {
			throw new Error('store offline');
		};
		const { config, log } = adaCredentialsWorld({ store: broken, credentials: { perIdentifier: 1 } });
		expect(setsSession(await attempt(config, right))).toBe(true);
		expect(log.text()).toMatch(/RateLimited: The rate-limit store failed; the attempt was let through\. <- Error: store offline/);
	});
});

describe('the RateLimited page', () => {
	test('the sign-in page explains it, in English and in French', async () => {
		const texts = { en: 'Too many attempts. Wait a few minutes, then try again.', fr: 'Trop de tentatives. Patientez quelques minutes, puis réessayez.' };
		for (const [locale, text] of Object.entries(texts)) {
			const { config } = adaCredentialsWorld({}, { locale });
			const page = await Auth(new Request(`${ORIGIN}/auth/signin?error=RateLimited`), config);
			expect(page.status).toBe(200);
			expect(await page.text()).toContain(text);
		}
	});
});

describe('the integrations pass the client address', () => {
	const servers: Server[] = [];
	afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

	async function expressServer(config: AuthConfig, trustProxy: boolean): Promise<string> {
		const app = express();
		app.set('trust proxy', trustProxy);
		app.use('/auth', ExpressAuth(config));
		const server = await new Promise<Server>((resolve) => {
			const s = app.listen(0, '127.0.0.1', () => resolve(s));
		});
		servers.push(server);
		return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	}

	async function expressAttempt(origin: string, username: string, forwardedFor: string): Promise<string | null> {
		const csrf = await fetch(`${origin}/auth/csrf`);
		const { csrfToken } = (await csrf.json()) as { csrfToken: string };
		const response = await fetch(`${origin}/auth/callback/credentials`, {
			method: 'POST',
			redirect: 'manual',
			headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.headers.getSetCookie()[0].split(';')[0], 'x-forwarded-for': forwardedFor },
			body: new URLSearchParams({ csrfToken, username, password: 'wrong' })
		});
		return errorOf(response);
	}

	test('Express: req.ip counts, so `trust proxy` decides whether X-Forwarded-For is believed', async () => {
		const trusted = await expressServer(adaCredentialsWorld({ credentials: { perIdentifier: 0, perAddress: 2 } }).config, true);
		expect(await expressAttempt(trusted, 'a', '203.0.113.9')).toBe('CredentialsSignin');
		expect(await expressAttempt(trusted, 'b', '203.0.113.9')).toBe('CredentialsSignin');
		expect(await expressAttempt(trusted, 'c', '203.0.113.9')).toBe('RateLimited');
		expect(await expressAttempt(trusted, 'c', '198.51.100.7')).toBe('CredentialsSignin');

		// without trust proxy the header is ignored: every attempt comes from 127.0.0.1
		const direct = await expressServer(adaCredentialsWorld({ credentials: { perIdentifier: 0, perAddress: 2 } }).config, false);
		expect(await expressAttempt(direct, 'a', '1.1.1.1')).toBe('CredentialsSignin');
		expect(await expressAttempt(direct, 'b', '2.2.2.2')).toBe('CredentialsSignin');
		expect(await expressAttempt(direct, 'c', '3.3.3.3')).toBe('RateLimited');
	});

	test('SvelteKit: the signIn action counts getClientAddress(); a limited attempt redirects to the RateLimited page', async () => {
		const { config } = adaCredentialsWorld({ credentials: { perIdentifier: 0, perAddress: 1 } });
		const { signIn } = SvelteKitAuth({ ...config, basePath: '/auth' });
		const act = async (address: string): Promise<unknown> => {
			// as SvelteKit hands it over: a browser's same-origin form post carries its Origin
			const request = new Request(`${ORIGIN}/signin`, {
				method: 'POST',
				headers: { origin: ORIGIN },
				body: new URLSearchParams({ providerId: 'credentials', username: 'ada', password: 'wrong' })
			});
			const event = { request, url: new URL(request.url), locals: {}, getClientAddress: () => address, cookies: { set: () => {} } } as unknown as RequestEvent;
			try {
				await signIn(event as never);
			} catch (thrown) {
				return thrown;
			}
			return undefined;
		};
		expect(await act('203.0.113.9')).toMatchObject({ type: 'CredentialsSignin' });
		const limited = await act('203.0.113.9');
		expect(isRedirect(limited)).toBe(true);
		expect(new URL((limited as { location: string }).location).searchParams.get('error')).toBe('RateLimited');
		expect(await act('198.51.100.7')).toMatchObject({ type: 'CredentialsSignin' });
	});
});

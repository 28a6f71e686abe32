// What only the Redis store has (its shared behaviour is in rate-limit-store.test.ts): expiry by
// Redis itself, keys under the prefix, a server that forgot its scripts or is full, two Auth()
// configs on one Redis, and two Node processes on one Redis (exact counts, no lost revocation).
// Against a real redis-server.

import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InvalidConfiguration } from '../core/errors.js';
import { revokeSessions } from '../core/session/revocation.js';
import { childProcessBundle, type ChildProcessBundle } from '../core/test/child-process-bundle.js';
import { TEST_SECRET, testClient } from '../core/test/client.js';
import { quietLogger, setsSession } from '../core/test/oauth-fixtures.js';
import type { AuthConfig, Session } from '../core/types.js';
import Credentials from '../providers/credentials.js';
import { RedisRateLimitStore, type RedisScriptClient } from './redis.js';
import { startRedisServer, type RedisServer } from './test/redis-server.js';

const T0 = Date.UTC(2031, 2, 3, 4, 5, 6, 789);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unique = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;

const connect = (url: string) => createClient({ url }).connect();
let server: RedisServer;
let client: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
	server = await startRedisServer();
	client = await connect(server.url);
});
afterAll(async () => {
	await client?.close();
	await server?.stop();
});

describe('RedisRateLimitStore in Redis', () => {
	test('a counter lives as long as its window: Redis drops it when the window ends', async () => {
		const prefix = unique('ttl') + ':';
		const store = RedisRateLimitStore(client, { prefix });
		await store.increment('k', 60, T0);
		const ttl = await client.pTTL(`${prefix}rate:k`);
		expect(ttl).toBeGreaterThan(59_000);
		expect(ttl).toBeLessThanOrEqual(60_000);
		// more hits in the window do not move its end
		await sleep(20);
		await store.increment('k', 60, T0 + 1);
		expect(await client.pTTL(`${prefix}rate:k`)).toBeLessThan(ttl);

		await store.increment('short', 0.2, Date.now());
		expect(await client.exists(`${prefix}rate:short`)).toBe(1);
		await sleep(400);
		expect(await client.exists(`${prefix}rate:short`)).toBe(0);
	});

	test('a revocation is kept for keepSeconds; a later call never shortens that or lowers its time', async () => {
		const prefix = unique('revoke') + ':';
		const store = RedisRateLimitStore(client, { prefix });
		await store.revoke('ada', T0, 3600);
		const ttl = await client.pTTL(`${prefix}revoked:ada`);
		expect(ttl).toBeGreaterThan(3_590_000);
		await store.revoke('ada', T0 - 5000, 60);
		expect(await client.pTTL(`${prefix}revoked:ada`)).toBeGreaterThan(3_590_000);
		expect(await store.revokedAt('ada', T0 + 1)).toBe(T0);
		await store.revoke('ada', T0 + 5000, 7200);
		expect(await client.pTTL(`${prefix}revoked:ada`)).toBeGreaterThan(7_190_000);
		expect(await store.revokedAt('ada', T0 + 6000)).toBe(T0 + 5000);

		await store.revoke('grace', Date.now(), 0.2);
		await sleep(400);
		expect(await client.exists(`${prefix}revoked:grace`)).toBe(0);
	});

	test('a revocation dated ahead of now (a sign-out\'s, a minute ahead) lives keepSeconds past its date, not past now', async () => {
		const prefix = unique('ahead') + ':';
		const store = RedisRateLimitStore(client, { prefix });
		await store.revoke('ada', Date.now() + 60_000, 10);
		expect(await client.pTTL(`${prefix}revoked:ada`)).toBeGreaterThan(69_000);
	});

	test('decrement never goes below zero, never reopens an ended window and never creates a key', async () => {
		const prefix = unique('decrement') + ':';
		const store = RedisRateLimitStore(client, { prefix });
		await store.decrement('never-counted', T0);
		expect(await client.exists(`${prefix}rate:never-counted`)).toBe(0);

		await store.increment('k', 60, T0);
		await store.decrement('k', T0 + 1);
		await store.decrement('k', T0 + 2);
		expect(await client.hGet(`${prefix}rate:k`, 'count')).toBe('0');
		expect((await store.increment('k', 60, T0 + 3)).count).toBe(1);
		// the window has ended by the caller's clock: the hit stays where it was
		await store.decrement('k', T0 + 60_000);
		expect(await client.hGet(`${prefix}rate:k`, 'count')).toBe('1');
		expect(await store.increment('k', 60, T0 + 60_000)).toEqual({ count: 1, resetAt: T0 + 120_000 });
	});

	test('every key is under the prefix; stores with other prefixes do not share counters', async () => {
		const [first, second] = [unique('one') + ':', unique('two') + ':'];
		const a = RedisRateLimitStore(client, { prefix: first });
		const b = RedisRateLimitStore(client, { prefix: second });
		await a.increment('k', 60, T0);
		await a.revoke('user', T0, 60);
		expect((await b.increment('k', 60, T0)).count).toBe(1);
		expect(await b.revokedAt('user', T0)).toBeNull();
		expect((await client.keys(`${first}*`)).sort()).toEqual([`${first}rate:k`, `${first}revoked:user`]);
		await a.reset('k');
		expect(await client.keys(`${first}rate:*`)).toEqual([]);
	});

	test('the default prefix is "kitgate:"', async () => {
		const key = unique('default');
		await RedisRateLimitStore(client).increment(key, 60, T0);
		expect(await client.exists(`kitgate:rate:${key}`)).toBe(1);
	});

	test('a server that forgot the scripts (restart, SCRIPT FLUSH) is sent them again', async () => {
		const store = RedisRateLimitStore(client, { prefix: unique('flush') + ':' });
		await store.increment('k', 60, T0);
		await client.scriptFlush();
		expect((await store.increment('k', 60, T0)).count).toBe(2);
		await client.scriptFlush();
		await store.revoke('user', T0, 60);
		await client.scriptFlush();
		expect(await store.revokedAt('user', T0)).toBe(T0);
	});

	test('other Redis errors reach the caller (the engine then lets the attempt through and logs it)', async () => {
		const prefix = unique('wrongtype') + ':';
		await client.set(`${prefix}rate:k`, 'not a hash');
		await expect(RedisRateLimitStore(client, { prefix }).increment('k', 60, T0)).rejects.toThrow(/WRONGTYPE/);
	});

	test('refuses what is not a node-redis client, and a prefix that is not a string', () => {
		expect(() => RedisRateLimitStore({} as RedisScriptClient)).toThrow(InvalidConfiguration);
		expect(() => RedisRateLimitStore(undefined as unknown as RedisScriptClient)).toThrow(InvalidConfiguration);
		expect(() => RedisRateLimitStore(client, { prefix: 5 as unknown as string })).toThrow(InvalidConfiguration);
	});
});

describe('RedisRateLimitStore in a full Redis (maxmemory, noeviction)', () => {
	let full: RedisServer;
	let fullClient: typeof client;
	beforeAll(async () => {
		full = await startRedisServer(['--maxmemory', '100kb', '--maxmemory-policy', 'noeviction']);
		fullClient = await connect(full.url);
	});
	afterAll(async () => {
		await fullClient?.close();
		await full?.stop();
	});

	test('a hit that cannot be counted is refused, not let through; reads still answer', async () => {
		const store = RedisRateLimitStore(fullClient);
		const answer = await store.increment('k', 900, T0);
		expect(answer).toEqual({ count: 0, resetAt: T0 + 900_000, refused: true });
		expect(await store.revokedAt('user', T0)).toBeNull();
		// writes other than counting fail loudly (the engine logs them)
		await expect(store.revoke('user', T0, 60)).rejects.toThrow(/OOM/);
	});
});

describe('two app processes on one Redis', () => {
	const processes: ChildProcess[] = [];
	let bundle: ChildProcessBundle | undefined;
	const prefix = unique('fleet') + ':';

	beforeAll(async () => {
		bundle = await childProcessBundle(new URL('./test/redis-store-process.ts', import.meta.url), 'redis-store');
		for (let i = 0; i < 2; i++) {
			const { child } = await bundle.start({ env: { ...process.env, REDIS_URL: server.url, REDIS_PREFIX: prefix } });
			processes.push(child);
		}
	});
	afterAll(() => {
		for (const child of processes) child.disconnect();
		bundle?.remove();
	});

	let nextId = 0;
	/** Sends one request to an app process and waits for its answer. */
	function ask<T>(child: ChildProcess, request: Record<string, unknown>): Promise<T> {
		const id = nextId++;
		return new Promise((resolve, reject) => {
			const listen = (message: { id?: number; result?: T; error?: string }) => {
				if (message.id !== id) return;
				child.off('message', listen);
				if (message.error) reject(new Error(message.error));
				else resolve(message.result as T);
			};
			child.on('message', listen);
			child.send({ id, ...request });
		});
	}

	test('both hammer one key at once: 2 × 300 hits get the counts 1 to 600, each once', async () => {
		const key = unique('hammered');
		const [a, b] = processes;
		const counts = await Promise.all([ask<number[]>(a, { op: 'hammer', key, hits: 300, now: T0 }), ask<number[]>(b, { op: 'hammer', key, hits: 300, now: T0 })]);
		expect(counts.flat().sort((x, y) => x - y)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
		expect(await client.hGet(`${prefix}rate:${key}`, 'count')).toBe('600');
	});

	test('a revocation written by one process is seen by the other; the latest time wins', async () => {
		const [a, b] = processes;
		const userId = unique('user');
		expect(await ask(b, { op: 'revokedAt', userId, now: T0 })).toBeNull();
		await ask(a, { op: 'revoke', userId, at: T0 });
		expect(await ask(b, { op: 'revokedAt', userId, now: T0 + 1 })).toBe(T0);
		// at once from both sides, an earlier and a later time: the later one is kept
		await Promise.all([ask(a, { op: 'revoke', userId, at: T0 + 9000 }), ask(b, { op: 'revoke', userId, at: T0 + 4000 })]);
		expect(await ask(a, { op: 'revokedAt', userId, now: T0 + 10_000 })).toBe(T0 + 9000);
		expect(await ask(b, { op: 'revokedAt', userId, now: T0 + 10_000 })).toBe(T0 + 9000);
	});
});

describe('Auth() on two servers sharing one Redis', () => {
	const clock = { now: Date.UTC(2030, 0, 1, 12) };
	const prefix = unique('engine') + ':';
	let other: typeof client;
	beforeAll(async () => {
		other = await connect(server.url);
	});
	afterAll(async () => {
		await other?.close();
	});

	/** A server: its own Redis connection; the password "right" signs any username in (JWT sessions). */
	function appServer(redis: RedisScriptClient): AuthConfig {
		return {
			secret: TEST_SECRET,
			trustHost: true,
			now: () => clock.now,
			logger: quietLogger().logger,
			rateLimit: { store: RedisRateLimitStore(redis, { prefix }), credentials: { perIdentifier: 2 } },
			providers: [
				Credentials({
					minFailureMs: 0,
					credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
					authorize: ({ username, password }) => (password === 'right' ? { id: String(username), name: String(username) } : null)
				})
			]
		};
	}

	async function signIn(browser: ReturnType<typeof testClient>, username: string, password: string): Promise<Response> {
		const csrfToken = await browser.csrfToken();
		return browser.request('/auth/callback/credentials', { form: { csrfToken, username, password } });
	}
	const errorOf = (response: Response) => new URL(response.headers.get('location') ?? 'http://x/').searchParams.get('error');

	test('failed attempts on one server count on the other', async () => {
		const [a, b] = [appServer(client), appServer(other)];
		expect(errorOf(await signIn(testClient(a), 'ada', 'wrong'))).toBe('CredentialsSignin');
		expect(errorOf(await signIn(testClient(b), 'ada', 'wrong'))).toBe('CredentialsSignin');
		expect(errorOf(await signIn(testClient(a), 'ada', 'right'))).toBe('RateLimited');
		expect(errorOf(await signIn(testClient(b), 'ada', 'right'))).toBe('RateLimited');
	});

	test('revokeSessions on one server ends the JWT session on the other at its next request', async () => {
		const [a, b] = [appServer(client), appServer(other)];
		const onB = testClient(b);
		expect(setsSession(await signIn(onB, 'grace', 'right'))).toBe(true);
		// the same cookie sent to server A
		const onA = testClient(a);
		for (const [name, value] of onB.jar) onA.jar.set(name, value);
		const session = async (browser: ReturnType<typeof testClient>) => (await (await browser.request('/auth/session')).json()) as Session | null;
		expect((await session(onA))?.user?.name).toBe('grace');

		clock.now += 500;
		await revokeSessions('grace', a);
		expect(await session(onB)).toBeNull();
		// a sign-in after the revocation is not revoked
		clock.now += 1000;
		const later = testClient(b);
		expect(setsSession(await signIn(later, 'grace', 'right'))).toBe(true);
		expect((await session(later))?.user?.name).toBe('grace');
	});
});

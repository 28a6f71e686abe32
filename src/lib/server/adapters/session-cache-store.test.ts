// Session-cache stores (`session.cache.store`): the same contract in memory and in a real Redis —
// a copy is found until it expires, forgotten at once by key or by user, and a copy read before a
// change is never stored after it — and two servers on one Redis and one PostgreSQL database: an
// end or change of a session on one is seen at once on the other.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MemorySessionCacheStore } from '../core/session/memory-session-cache-store.js';
import { MemoryRateLimitStore } from '../core/limits/memory-rate-limit-store.js';
import { revokeSessions } from '../core/session/revocation.js';
import { resolveConfig } from '../core/config/resolve-config.js';
import { Auth } from '../core/auth.js';
import { TEST_SECRET, testClient } from '../core/test/client.js';
import type { AuthConfig, Session, SessionCacheStore } from '../core/types.js';
import Credentials from '../providers/credentials.js';
import { PostgresAdapter } from './postgres.js';
import { RedisRateLimitStore, RedisSessionCacheStore, type RedisScriptClient } from './redis.js';
import { startRedisServer, type RedisServer } from './test/redis-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unique = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;

let server: RedisServer;
let clients: (RedisScriptClient & { close(): Promise<void>; pTTL(key: string): Promise<number>; keys(pattern: string): Promise<string[]>; hGetAll(key: string): Promise<Record<string, string>> })[] = [];

beforeAll(async () => {
	server = await startRedisServer();
	clients = await Promise.all([1, 2].map(() => createClient({ url: server.url }).connect()));
});
afterAll(async () => {
	for (const client of clients) await client.close();
	await server?.stop();
});

/** Two handles on one store (two servers); the Redis pair lives under a prefix of its own. */
const kinds: [string, () => { a: SessionCacheStore; b: SessionCacheStore; prefix?: string }][] = [
	[
		'memory',
		() => {
			const store = MemorySessionCacheStore();
			return { a: store, b: store };
		}
	],
	[
		'Redis',
		() => {
			const prefix = `${unique('sc')}:`;
			return { a: RedisSessionCacheStore(clients[0], { prefix }), b: RedisSessionCacheStore(clients[1], { prefix }), prefix };
		}
	]
];

describe.each(kinds)('%s session-cache store', (_name, makePair) => {
	const entry = (userId: string, value: string, missedAt: number, ttlSeconds = 60) => ({ userId, value, missedAt, ttlSeconds });

	test('a miss answers the store time; a copy stored after it is found by both servers', async () => {
		const { a, b } = makePair();
		const before = Date.now();
		const miss = await a.get('k1');
		expect(miss.value).toBeNull();
		const missedAt = (miss as { missedAt: number }).missedAt;
		expect(missedAt).toBeGreaterThanOrEqual(before - 1000);
		expect(missedAt).toBeLessThanOrEqual(Date.now() + 1000);
		await a.set('k1', entry('ada', '{"copy":1}', missedAt));
		expect(await a.get('k1')).toEqual({ value: '{"copy":1}' });
		expect(await b.get('k1')).toEqual({ value: '{"copy":1}' });
	});

	test('forget drops the copy at once on every server, and refuses a copy read before it', async () => {
		const { a, b } = makePair();
		const { missedAt } = (await a.get('k2')) as { missedAt: number };
		await a.set('k2', entry('ada', 'v', missedAt));
		// a second server read the database before the session was ended, and stores its copy after
		const { missedAt: raceMiss } = (await b.get('other')) as { missedAt: number };
		await sleep(5);
		await a.forget('k2', 60);
		expect((await b.get('k2')).value).toBeNull();
		await b.set('k2', entry('ada', 'stale', raceMiss));
		expect((await a.get('k2')).value).toBeNull();
		// a read that began after the end may keep its copy (it saw the database after the change)
		await sleep(5);
		const { missedAt: later } = (await a.get('k2')) as { missedAt: number };
		await a.set('k2', entry('ada', 'fresh', later));
		expect(await b.get('k2')).toEqual({ value: 'fresh' });
	});

	test("forgetUser drops every copy of that user (not another user's) and refuses copies read before it", async () => {
		const { a, b } = makePair();
		const { missedAt } = (await a.get('x')) as { missedAt: number };
		await a.set('laptop', entry('ada', 'l', missedAt));
		await a.set('phone', entry('ada', 'p', missedAt));
		await a.set('grace', entry('grace', 'g', missedAt));
		await sleep(5);
		await b.forgetUser('ada', 60);
		expect((await a.get('laptop')).value).toBeNull();
		expect((await a.get('phone')).value).toBeNull();
		expect(await a.get('grace')).toEqual({ value: 'g' });
		await a.set('laptop', entry('ada', 'stale', missedAt));
		expect((await b.get('laptop')).value).toBeNull();
		await sleep(5);
		const { missedAt: later } = (await a.get('laptop')) as { missedAt: number };
		await a.set('laptop', entry('ada', 'fresh', later));
		expect(await b.get('laptop')).toEqual({ value: 'fresh' });
	});

	test('a copy lives ttlSeconds, then is gone', async () => {
		const { a } = makePair();
		const { missedAt } = (await a.get('short')) as { missedAt: number };
		await a.set('short', entry('ada', 'v', missedAt, 0.2));
		expect((await a.get('short')).value).toBe('v');
		await sleep(350);
		expect((await a.get('short')).value).toBeNull();
	});
});

describe('RedisSessionCacheStore in Redis', () => {
	test('keys live under the prefix and one hash tag, and expire with their copy or record', async () => {
		const prefix = `${unique('keys')}:`;
		const store = RedisSessionCacheStore(clients[0], { prefix });
		const { missedAt } = (await store.get('key')) as { missedAt: number };
		await store.set('key', { userId: 'ada', value: 'v', missedAt, ttlSeconds: 60 });
		await store.forget('other', 30);
		await store.forgetUser('grace', 30);
		const keys = (await clients[0].keys(`${prefix}*`)).sort();
		expect(keys).toEqual([`${prefix}{session-cache}:copy:key`, `${prefix}{session-cache}:forgotten:other`, `${prefix}{session-cache}:user:grace`]);
		expect(await clients[0].pTTL(`${prefix}{session-cache}:copy:key`)).toBeGreaterThan(59_000);
		expect(await clients[0].pTTL(`${prefix}{session-cache}:forgotten:other`)).toBeLessThanOrEqual(30_000);
		expect(await clients[0].hGetAll(`${prefix}{session-cache}:copy:key`)).toEqual({ u: 'ada', v: 'v', f: String(missedAt) });
	});

	test('refuses a client that is not a node-redis client', () => {
		expect(() => RedisSessionCacheStore({} as RedisScriptClient)).toThrow(/node-redis client/);
	});
});

describe('two servers sharing one Redis and one PostgreSQL database', () => {
	const connectionString = inject('databaseUrl');
	const schema = `sc_${randomBytes(6).toString('hex')}`;
	const admin = new pg.Pool({ connectionString, max: 1 });
	const adapters: ReturnType<typeof PostgresAdapter>[] = [];
	afterAll(async () => {
		for (const adapter of adapters) await adapter.close();
		await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
		await admin.end();
	});

	/** A server: its own adapter on the shared database, the shared Redis for copies and revocations. */
	function serverConfig(prefix: string, store: 'cookie' | 'redis'): AuthConfig {
		const adapter = PostgresAdapter({ connectionString, schema });
		adapters.push(adapter);
		return {
			secret: TEST_SECRET,
			trustHost: true,
			adapter,
			rateLimit: { store: RedisRateLimitStore(clients[0], { prefix }) },
			session: { cache: { maxAge: 3600, store: store === 'redis' ? RedisSessionCacheStore(clients[1], { prefix }) : 'cookie' } },
			providers: [
				Credentials({
					credentials: { username: {}, password: { type: 'password' } },
					authorize: ({ username }) => (typeof username === 'string' && username ? { id: `${prefix}${username}`, name: username, email: `${username}.${prefix.replace(/\W/g, '')}@example.com` } : null)
				})
			]
		};
	}

	/** A browser whose requests go to server A or B, with one cookie jar. */
	function browser(a: AuthConfig, b: AuthConfig) {
		const jar = new Map<string, string>();
		const on = { a: testClient(a, undefined, jar), b: testClient(b, undefined, jar) };
		return {
			async signIn(username: string) {
				const csrfToken = await on.a.csrfToken();
				const response = await on.a.request('/auth/callback/credentials', { form: { csrfToken, username, password: 'x' } });
				expect(response.status).toBe(302);
				// copies made within a second of a write of the user are not trusted (clock margin)
				await sleep(1100);
			},
			session: async (server: 'a' | 'b') => (await on[server].request('/auth/session')).json() as Promise<Session | null>,
			signOut: async (server: 'a' | 'b') => on[server].request('/auth/signout', { form: { csrfToken: await on[server].csrfToken() } }),
			cookieHeader: () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
		};
	}

	for (const store of ['redis', 'cookie'] as const) {
		test(`copies in ${store === 'redis' ? 'Redis' : 'cookies'}: a sign-out on one server is no session on the other at once, nor is a copied cookie`, async () => {
			const prefix = `${unique('two')}:`;
			const [a, b] = [serverConfig(prefix, store), serverConfig(prefix, store)];
			const ada = browser(a, b);
			await ada.signIn('ada');
			expect(await ada.session('a')).toMatchObject({ user: { name: 'ada' } });
			expect(await ada.session('b')).toMatchObject({ user: { name: 'ada' } });
			const stolen = ada.cookieHeader();
			expect((await ada.signOut('a')).status).toBe(302);
			const replay = await Auth(new Request('http://localhost:3000/auth/session', { headers: { cookie: stolen } }), b);
			expect(await replay.json()).toBeNull();
		});

		test(`copies in ${store === 'redis' ? 'Redis' : 'cookies'}: revokeSessions on one server ends the user's sessions on the other at once; a user change shows at once`, async () => {
			const prefix = `${unique('revoke')}:`;
			const [a, b] = [serverConfig(prefix, store), serverConfig(prefix, store)];
			const laptop = browser(a, b);
			const phone = browser(a, b);
			await laptop.signIn('grace');
			await phone.signIn('grace');
			expect(await laptop.session('b')).toMatchObject({ user: { name: 'grace' } });
			expect(await phone.session('b')).toMatchObject({ user: { name: 'grace' } });
			await resolveConfig(a).adapter!.updateUser({ id: `${prefix}grace`, name: 'Grace Hopper' });
			expect(await laptop.session('b')).toMatchObject({ user: { name: 'Grace Hopper' } });
			await revokeSessions(`${prefix}grace`, a);
			expect(await laptop.session('b')).toBeNull();
			expect(await phone.session('b')).toBeNull();
		});
	}

	test('with copies in Redis the database is asked about once per maxAge, whichever server reads', async () => {
		const prefix = `${unique('reads')}:`;
		const [a, b] = [serverConfig(prefix, 'redis'), serverConfig(prefix, 'redis')];
		let reads = 0;
		for (const config of [a, b]) {
			const adapter = config.adapter!;
			const read = adapter.getSessionAndUser!.bind(adapter);
			config.adapter = Object.assign(Object.create(adapter), { getSessionAndUser: (token: string) => (reads++, read(token)) });
			config.rateLimit = { store: MemoryRateLimitStore() };
		}
		const ada = browser(a, b);
		await ada.signIn('ada');
		reads = 0;
		for (let i = 0; i < 4; i++) {
			expect(await ada.session('a')).toMatchObject({ user: { name: 'ada' } });
			expect(await ada.session('b')).toMatchObject({ user: { name: 'ada' } });
		}
		expect(reads).toBe(1);
	});
});

// The rate-limit and revocation stores: the same behaviour in memory, SQLite, PostgreSQL and Redis,
// atomic under concurrency, shared between two connections to one database (two servers), expired rows swept.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MemoryRateLimitStore } from '../core/limits/memory-rate-limit-store.js';
import type { RateLimitStore, RevocationStore } from '../core/types.js';
import { PostgresAdapter } from './postgres.js';
import { SqlRateLimitStore } from './rate-limit-store.js';
import { RedisRateLimitStore, type RedisScriptClient } from './redis.js';
import { SQLiteAdapter } from './sqlite.js';
import { startRedisServer, type RedisServer } from './test/redis-server.js';

const T0 = Date.UTC(2031, 2, 3, 4, 5, 6, 789);
const directory = mkdtempSync(join(tmpdir(), 'kitgate-ratelimit-'));
const connectionString = inject('databaseUrl');
const schema = `rl_${randomBytes(6).toString('hex')}`;
const admin = new pg.Pool({ connectionString, max: 2 });
const closers: (() => Promise<void>)[] = [];

afterAll(async () => {
	for (const close of closers) await close();
	await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
	await admin.end();
	rmSync(directory, { recursive: true, force: true });
});

type Store = RateLimitStore & RevocationStore;

/** Two stores that should see the same data (two servers), and a row counter. */
interface Pair {
	a: Store;
	b: Store;
	rows?: (table: 'rate_limits' | 'session_revocations') => Promise<number>;
	/** A new store on a new adapter of the same database (a server starting). */
	another?: () => Store;
}

function sqlitePair(): Pair {
	const filename = join(directory, `${randomBytes(4).toString('hex')}.sqlite`);
	const open = () => {
		const adapter = SQLiteAdapter({ filename });
		closers.push(() => adapter.close());
		return adapter;
	};
	const [first, second] = [open(), open()];
	return {
		a: SqlRateLimitStore(first),
		b: SqlRateLimitStore(second),
		rows: async (table) => (first.database.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n,
		another: () => SqlRateLimitStore(open())
	};
}

function postgresPair(): Pair {
	const open = () => {
		const adapter = PostgresAdapter({ connectionString, schema });
		closers.push(() => adapter.close());
		return adapter;
	};
	return {
		a: SqlRateLimitStore(open()),
		b: SqlRateLimitStore(open()),
		rows: async (table) => Number((await admin.query(`select count(*) as n from ${schema}.${table}`)).rows[0].n),
		another: () => SqlRateLimitStore(open())
	};
}

function memoryPair(): Pair {
	const store = MemoryRateLimitStore();
	return { a: store, b: store };
}

/** A kind of store: pairs of it, and what it needs running around the file's tests of it. */
interface Kind {
	setUp?: () => Promise<void>;
	tearDown?: () => Promise<void>;
	pair: () => Pair;
}

/** Redis: a redis-server of this file, two clients (two servers); each pair under a prefix of its own. */
function redisKind(): Kind {
	let server: RedisServer | undefined;
	let clients: (RedisScriptClient & { close(): Promise<void> })[] = [];
	return {
		async setUp() {
			server = await startRedisServer();
			const url = server.url;
			clients = await Promise.all([1, 2].map(() => createClient({ url }).connect()));
		},
		async tearDown() {
			for (const client of clients) await client.close();
			await server?.stop();
		},
		pair() {
			const prefix = `t-${randomBytes(4).toString('hex')}:`;
			return { a: RedisRateLimitStore(clients[0], { prefix }), b: RedisRateLimitStore(clients[1], { prefix }) };
		}
	};
}

const kinds: [string, Kind][] = [
	['memory', { pair: memoryPair }],
	['SQLite', { pair: sqlitePair }],
	['PostgreSQL', { pair: postgresPair }],
	['Redis', redisKind()]
];

describe.each(kinds)('%s store', (_name, kind) => {
	beforeAll(async () => kind.setUp?.());
	afterAll(async () => kind.tearDown?.());
	const makePair = kind.pair;
	const key = () => `k-${randomBytes(6).toString('hex')}`;

	test('counts hits in a fixed window, then opens a new one', async () => {
		const { a } = makePair();
		const k = key();
		expect(await a.increment(k, 60, T0)).toEqual({ count: 1, resetAt: T0 + 60_000 });
		expect(await a.increment(k, 60, T0 + 59_999)).toEqual({ count: 2, resetAt: T0 + 60_000 });
		expect(await a.increment(k, 60, T0 + 60_000)).toEqual({ count: 1, resetAt: T0 + 120_000 });
	});

	test('decrement takes back one hit of the open window; reset forgets the key', async () => {
		const { a } = makePair();
		const k = key();
		await a.increment(k, 60, T0);
		await a.increment(k, 60, T0);
		await a.decrement(k, T0 + 1);
		expect((await a.increment(k, 60, T0 + 2)).count).toBe(2);
		await a.reset(k);
		expect((await a.increment(k, 60, T0 + 3)).count).toBe(1);
		await a.decrement(k, T0 + 4);
		await a.decrement(k, T0 + 5);
		expect((await a.increment(k, 60, T0 + 6)).count).toBe(1);
	});

	test('50 concurrent hits on one key get the counts 1 to 50, each once', async () => {
		const { a, b } = makePair();
		const k = key();
		// both servers up (migrated) first: two SQLite connections of one process must not migrate at once
		await a.reset(k);
		await b.reset(k);
		const counts = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).increment(k, 60, T0)));
		expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
	});

	test('two servers share counters and revocations', async () => {
		const { a, b } = makePair();
		const k = key();
		await a.increment(k, 60, T0);
		expect((await b.increment(k, 60, T0)).count).toBe(2);
		await a.revoke('user-shared', T0, 3600);
		expect(await b.revokedAt('user-shared', T0 + 1)).toBe(T0);
	});

	test('revocations: the latest time wins; unknown users and expired records are null', async () => {
		const { a } = makePair();
		const user = key();
		expect(await a.revokedAt(user, T0)).toBeNull();
		await a.revoke(user, T0 + 5000, 60);
		await a.revoke(user, T0, 60);
		expect(await a.revokedAt(user, T0 + 6000)).toBe(T0 + 5000);
		expect(await a.revokedAt(user, T0 + 65_000)).toBeNull();
	});
});

describe.each([
	['SQLite', sqlitePair],
	['PostgreSQL', postgresPair]
] as const)('%s store rows', (_name, makePair) => {
	test('the tables exist after the first call (migration 0002) and expired rows are swept', async () => {
		const { a, rows, another } = makePair();
		const later = T0 + 10 * 86_400_000;
		for (let i = 0; i < 5; i++) await a.increment(`sweep-${randomBytes(4).toString('hex')}`, 60, later);
		await a.revoke(`sweep-user-${randomBytes(4).toString('hex')}`, later, 60);
		expect(await rows!('rate_limits')).toBeGreaterThanOrEqual(5);
		// a fresh store sweeps on its first call: everything above has expired by then
		const fresh = another!();
		await fresh.increment('after-sweep', 60, later + 3600_000);
		const left = await rows!('rate_limits');
		expect(left).toBeGreaterThanOrEqual(1);
		expect(await fresh.revokedAt('nobody', later + 3600_000)).toBeNull();
		expect(await rows!('session_revocations')).toBe(0);
	});
});

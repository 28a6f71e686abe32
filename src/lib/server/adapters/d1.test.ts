// SQLiteAdapter on Cloudflare D1: Miniflare's local D1 (workerd and its SQLite), started by this
// file. The conformance suite through kysely-d1 on kitgate's tables, and through the binding alone
// on an Auth.js Drizzle schema; migrations without BEGIN; races whose writes are D1 batches.

import { Kysely } from 'kysely';
import { D1Dialect } from 'kysely-d1';
import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, test } from 'vitest';
import { InvalidConfiguration } from '../core/errors.js';
import { runAdapterTests } from '../../testing/index.js';
import { SqlRateLimitStore } from './rate-limit-store.js';
import type { D1DatabaseLike } from './sql/batches.js';
import { authjsDrizzleSqliteTables, SQLiteAdapter } from './sqlite.js';
import { authjsStatements } from './test/authjs-databases.js';
import { batchGate, batchRaceTests, type BatchGate } from './test/batch-races.js';

process.env.WRANGLER_SEND_METRICS = 'false';

// one local D1 database per group of tests, all in one Miniflare (in memory: nothing persisted)
const databases = ['KYSELY', 'DRIZZLE', 'RACES', 'DRIZZLE_RACES', 'MIGRATIONS', 'MISC'] as const;
const mf = new Miniflare({
	modules: true,
	script: 'export default { fetch() { return new Response() } }',
	d1Databases: [...databases]
});
afterAll(() => mf.dispose());

type D1 = Awaited<ReturnType<Miniflare['getD1Database']>>;
const d1 = (name: (typeof databases)[number]): Promise<D1> => mf.getD1Database(name);

/** The tables of @auth/drizzle-adapter on SQLite, made by drizzle-kit's DDL, in `database`. */
async function withDrizzleTables(database: D1): Promise<D1> {
	await database.batch(authjsStatements('drizzle-sqlite').map((statement) => database.prepare(statement)));
	return database;
}

/** `database` with its batches passing `gate` (the race tests hold one). */
function gated(database: D1, gate?: BatchGate): D1DatabaseLike {
	if (!gate) return database;
	return {
		prepare: (query) => database.prepare(query),
		batch: async (statements) => {
			await gate.pass();
			return database.batch(statements as Parameters<D1['batch']>[0]);
		}
	};
}

runAdapterTests({
	name: 'SQLiteAdapter on D1 through kysely-d1 ({ db, d1 })',
	adapter: async () => {
		const database = await d1('KYSELY');
		return SQLiteAdapter({ db: new Kysely({ dialect: new D1Dialect({ database }) }), d1: database });
	}
});

const drizzle = withDrizzleTables(await d1('DRIZZLE'));
runAdapterTests({
	name: 'SQLiteAdapter on D1 with authjsDrizzleSqliteTables',
	adapter: async () => SQLiteAdapter({ d1: await drizzle, tables: authjsDrizzleSqliteTables })
});

batchRaceTests('D1, kitgate tables', async (gate) => SQLiteAdapter({ d1: gated(await d1('RACES'), gate) }));

const drizzleRaces = withDrizzleTables(await d1('DRIZZLE_RACES'));
batchRaceTests('D1, authjsDrizzleSqliteTables', async (gate) => SQLiteAdapter({ d1: gated(await drizzleRaces, gate), tables: authjsDrizzleSqliteTables }));

describe('migrations on D1 (no BEGIN: each migration one batch)', () => {
	test('two runners starting at once on a new database apply each migration once, between them', async () => {
		const database = await d1('MIGRATIONS');
		// two binding objects of one database: two connections, as two Worker isolates have
		const [first, second] = [SQLiteAdapter({ d1: database }), SQLiteAdapter({ d1: gated(database, batchGate()) })];
		const [a, b] = await Promise.all([first.migrate(), second.migrate()]);
		expect([...a, ...b].sort()).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']);
		const { results } = await database.prepare('select name from kitgate_migrations order by name').all<{ name: string }>();
		expect(results.map((row) => row.name)).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']);
		expect(await SQLiteAdapter({ d1: gated(database, batchGate()) }).migrate()).toEqual([]);
	});
});

describe('SQLiteAdapter on D1: options', () => {
	test('a kysely-d1 instance without the binding is refused at the first write that needs a batch, saying to pass `d1`', async () => {
		const database = await d1('MISC');
		const adapter = SQLiteAdapter({ db: new Kysely({ dialect: new D1Dialect({ database }) }) });
		const error = await adapter.migrate().then(
			() => null,
			(reason: unknown) => reason
		);
		expect(error).toBeInstanceOf(InvalidConfiguration);
		expect((error as Error).message).toMatch(/d1: env\.DB/);
	});

	test('adapters of one binding share one connection and one migration run; `database` is refused', async () => {
		const database = await d1('MISC');
		const [first, second] = [SQLiteAdapter({ d1: database }), SQLiteAdapter({ d1: database })];
		const applied = await first.migrate();
		expect(await second.migrate()).toBe(applied);
		expect(() => first.database).toThrow(InvalidConfiguration);
		await first.close(); // nothing of kitgate's to close: the binding stays usable
		expect(await second.getUser(crypto.randomUUID())).toBeNull();
	});

	test('SqlRateLimitStore counts in the same D1 database', async () => {
		const store = SqlRateLimitStore(SQLiteAdapter({ d1: await d1('MISC') }));
		const now = Date.now();
		const key = crypto.randomUUID();
		expect((await store.increment(key, 60, now)).count).toBe(1);
		expect((await store.increment(key, 60, now)).count).toBe(2);
		await store.revoke('user-1', now, 60);
		expect(await store.revokedAt('user-1', now)).toBe(now);
	});

	test('passing two ways to reach a database is refused, except `d1` with `db` or `dialect`', async () => {
		const database = await d1('MISC');
		const db = new Kysely({ dialect: new D1Dialect({ database }) });
		expect(() => SQLiteAdapter({ filename: 'x.sqlite', d1: database })).toThrow(/pass one of/);
		expect(() => SQLiteAdapter({ db, dialect: new D1Dialect({ database }) })).toThrow(/not `db` and `dialect`/);
		expect(() => SQLiteAdapter({ db, d1: database })).not.toThrow();
	});
});

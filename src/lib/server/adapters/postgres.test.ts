import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { InvalidConfiguration } from '../core/errors.js';
import { runAdapterTests } from '../../testing/index.js';
import { PostgresAdapter } from './postgres.js';
import { inTableOrder, KITGATE_POSTGRES_TABLES } from './test/postgres-tables.js';

const connectionString = inject('databaseUrl');
// One schema per test file, so files running in parallel never see each other's rows.
const schema = `t_${randomBytes(6).toString('hex')}`;
const admin = new pg.Pool({ connectionString, max: 2 });
const opened: PostgresAdapter[] = [];

function openAdapter(options: Parameters<typeof PostgresAdapter>[0] = {}): PostgresAdapter {
	const adapter = PostgresAdapter({ connectionString, schema, ...options });
	opened.push(adapter);
	return adapter;
}

/** Connections to PostgreSQL opened under `applicationName`. */
async function connections(applicationName: string): Promise<number> {
	const result = await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where application_name = $1', [
		applicationName
	]);
	return result.rows[0]!.n;
}

// the `db` and `dialect` forms keep their tables in a schema of their own (their migrations run there)
const kyselySchema = `${schema}_kysely`;
const kyselyPool = new pg.Pool({ connectionString, max: 4 });
const kyselyDb = new Kysely({ dialect: new PostgresDialect({ pool: kyselyPool }) });

afterAll(async () => {
	await Promise.all(opened.map((adapter) => adapter.close()));
	await kyselyDb.destroy();
	await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
	await admin.query(`DROP SCHEMA IF EXISTS ${kyselySchema} CASCADE`);
	await admin.end();
});

runAdapterTests({ name: 'PostgresAdapter', adapter: () => openAdapter() });

runAdapterTests({ name: 'PostgresAdapter without prepared statements', adapter: () => openAdapter({ preparedStatements: false }) });

runAdapterTests({ name: 'PostgresAdapter on a Kysely instance ({ db })', adapter: () => PostgresAdapter({ db: kyselyDb, schema: kyselySchema }) });

describe('PostgresAdapter on a Kysely instance or dialect', () => {
	test('migrates in its schema inside a Kysely transaction, once for adapters of one instance; has no pool', async () => {
		const first = PostgresAdapter({ db: kyselyDb, schema: kyselySchema });
		const second = PostgresAdapter({ db: kyselyDb, schema: kyselySchema });
		expect(await second.migrate()).toBe(await first.migrate());
		const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = ${kyselySchema}`.execute(kyselyDb);
		expect(tables.rows.map((row) => row.table_name)).toContain('kitgate_two_factor');
		expect(() => first.pool).toThrow(InvalidConfiguration);
		expect(() => PostgresAdapter({ db: kyselyDb, connectionString })).toThrow(/not `connectionString` and `db`/);
	});

	test('close() destroys the instance kitgate made from a dialect, never one passed as `db`', async () => {
		const pool = new pg.Pool({ connectionString, max: 1 });
		const adapter = PostgresAdapter({ dialect: new PostgresDialect({ pool }), schema: kyselySchema });
		expect(await adapter.getUser('nobody')).toBeNull();
		await adapter.close();
		expect(pool.ending || pool.ended).toBe(true); // Kysely's PostgresDriver ends the pool it was given
		const borrowed = PostgresAdapter({ db: kyselyDb, schema: kyselySchema });
		await borrowed.close();
		expect(await borrowed.getUser('nobody')).toBeNull();
	});
});

describe('PostgresAdapter session check as a prepared statement', () => {
	/** An adapter on a pool of one connection, and a user with a session. */
	async function oneConnection() {
		const pool = new pg.Pool({ connectionString, max: 1 });
		const adapter = PostgresAdapter({ pool, schema });
		opened.push({ close: () => pool.end() } as unknown as PostgresAdapter);
		const user = await adapter.createUser({ id: `prep-${randomBytes(4).toString('hex')}`, email: `${randomBytes(4).toString('hex')}@example.com`, emailVerified: null });
		const sessionToken = `prep-token-${randomBytes(6).toString('hex')}`;
		await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(2_000_000_000_000) });
		return { pool, adapter, user, sessionToken };
	}

	/** The named statements the connection of `pool` holds. */
	async function statements(pool: pg.Pool): Promise<string[]> {
		const { rows } = await pool.query<{ name: string }>('select name from pg_prepared_statements');
		return rows.map((row) => row.name);
	}

	test('the session check is one named statement, prepared once per connection and reused', async () => {
		const { pool, adapter, user, sessionToken } = await oneConnection();
		expect(await adapter.getSessionAndUser(sessionToken)).toMatchObject({ session: { sessionToken, userId: user.id }, user });
		const prepared = (await statements(pool)).filter((name) => name.startsWith('kitgate_'));
		expect(prepared).toHaveLength(1);
		for (let i = 0; i < 3; i++) expect(await adapter.getSessionAndUser(sessionToken)).toMatchObject({ user });
		expect((await statements(pool)).filter((name) => name.startsWith('kitgate_'))).toEqual(prepared);
		expect(await adapter.getSessionAndUser('no-such-token')).toBeNull();
	});

	test('a statement the server lost (a pooler, DEALLOCATE, a restart) is run unnamed: the check still answers', async () => {
		const { pool, adapter, user, sessionToken } = await oneConnection();
		await adapter.getSessionAndUser(sessionToken);
		await pool.query('DEALLOCATE ALL');
		expect(await adapter.getSessionAndUser(sessionToken)).toMatchObject({ user });
	});

	test('with preparedStatements: false nothing is prepared', async () => {
		const pool = new pg.Pool({ connectionString, max: 1 });
		opened.push({ close: () => pool.end() } as unknown as PostgresAdapter);
		const adapter = PostgresAdapter({ pool, schema, preparedStatements: false });
		const user = await adapter.createUser({ id: `plain-${randomBytes(4).toString('hex')}`, email: `${randomBytes(4).toString('hex')}@example.com`, emailVerified: null });
		await adapter.createSession({ sessionToken: `plain-${user.id}`, userId: user.id, expires: new Date(2_000_000_000_000) });
		expect(await adapter.getSessionAndUser(`plain-${user.id}`)).toMatchObject({ user });
		expect((await statements(pool)).filter((name) => name.startsWith('kitgate_'))).toEqual([]);
	});
});

describe('PostgresAdapter', () => {
	test('two adapters on one database share data', async () => {
		const writer = openAdapter();
		const reader = openAdapter();
		const user = await writer.createUser({ id: 'shared-user', email: 'shared@example.com', emailVerified: null });
		await writer.createSession({ sessionToken: 'shared-token', userId: user.id, expires: new Date(2_000_000_000_000) });
		expect(await reader.getSessionAndUser('shared-token')).toEqual({
			session: { sessionToken: 'shared-token', userId: user.id, expires: new Date(2_000_000_000_000) },
			user
		});
		await reader.deleteSession('shared-token');
		expect(await writer.getSessionAndUser('shared-token')).toBeNull();
	});

	test('the migration runner is safe when several processes start at once', async () => {
		// A schema name that needs quoting, created by whichever adapter gets the lock first. Each
		// "process" has a pool of its own (adapters of one connection string would share theirs).
		const freshSchema = `Fresh-${randomBytes(4).toString('hex')}`;
		const pools = Array.from({ length: 6 }, () => new pg.Pool({ connectionString, max: 2 }));
		const adapters = pools.map((pool) => PostgresAdapter({ pool, schema: freshSchema }));
		try {
			const results = await Promise.all(adapters.map((adapter) => adapter.migrate()));
			expect(results.flat()).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']);
			const recorded = await admin.query(`select name from "${freshSchema}".kitgate_migrations`);
			expect(recorded.rows).toEqual([{ name: '0001_initial' }, { name: '0002_rate_limits' }, { name: '0005_account_details' }, { name: '0006_two_factor' }, { name: '0007_admin_audit' }, { name: '0008_user_admin' }, { name: '0010_organizations' }]);
			const user = await adapters[0]!.createUser({ id: 'u', email: 'u@example.com', emailVerified: null });
			expect(await adapters[5]!.getUser('u')).toEqual(user);
		} finally {
			await Promise.all(pools.map((pool) => pool.end()));
			await admin.query(`DROP SCHEMA IF EXISTS "${freshSchema}" CASCADE`);
		}
	});

	test('creating the adapter connects to nothing; adapters of one connection string and schema share one pool', async () => {
		const applicationName = `kitgate-shared-${randomBytes(4).toString('hex')}`;
		const url = new URL(connectionString);
		url.searchParams.set('application_name', applicationName);
		const first = PostgresAdapter({ connectionString: url.href, schema });
		const second = PostgresAdapter({ connectionString: url.href, schema });
		expect(second.pool).toBe(first.pool);
		expect(await connections(applicationName)).toBe(0);
		expect(await first.migrate()).toEqual(await second.migrate()); // one run, shared
		await Promise.all(Array.from({ length: 20 }, (_, i) => PostgresAdapter({ connectionString: url.href, schema }).getUser(`u${i}`)));
		expect(await connections(applicationName)).toBeLessThanOrEqual(10); // pg's default pool size, not 20 pools
		const otherSchema = PostgresAdapter({ connectionString: url.href, schema: `${schema}_other`, autoMigrate: false });
		expect(otherSchema.pool).not.toBe(first.pool);
		await otherSchema.close();

		const pool = first.pool;
		await PostgresAdapter({ connectionString: url.href, schema }).close(); // any adapter of the database ends the shared pool
		expect(pool.ended).toBe(true);
		expect(await second.getUser('nobody')).toBeNull(); // used afterwards: a new pool
		expect(second.pool).not.toBe(pool);
		await second.close();
	});

	test('adapters created per request on a pool passed in add no listeners to it and migrate once', async () => {
		const pool = new pg.Pool({ connectionString, max: 1 });
		try {
			const adapters = Array.from({ length: 100 }, () => PostgresAdapter({ pool, schema }));
			expect(pool.listenerCount('connect')).toBe(1);
			const runs = await Promise.all(adapters.map((adapter) => adapter.migrate()));
			expect(new Set(runs).size).toBe(1);
		} finally {
			await pool.end();
		}
	});

	test('keeps its tables in the configured schema', async () => {
		await openAdapter().migrate();
		const tables = await admin.query<{ table_name: string }>(
			'select table_name from information_schema.tables where table_schema = $1 order by table_name',
			[schema]
		);
		const authTables = ['accounts', 'authenticators', 'sessions', 'users', 'verification_tokens'];
		expect(tables.rows.map((row) => row.table_name)).toEqual(inTableOrder([...authTables, ...KITGATE_POSTGRES_TABLES]));
	});

	test('stores dates as timestamptz and counters as bigint', async () => {
		const columns = await admin.query<{ table_name: string; column_name: string; data_type: string }>(
			`select table_name, column_name, data_type from information_schema.columns
			 where table_schema = $1 and column_name in ('email_verified', 'expires', 'counter', 'credential_backed_up')
			 order by table_name, column_name`,
			[schema]
		);
		expect(columns.rows).toEqual([
			{ table_name: 'authenticators', column_name: 'counter', data_type: 'bigint' },
			{ table_name: 'authenticators', column_name: 'credential_backed_up', data_type: 'boolean' },
			// kitgate's own tables keep times as epoch milliseconds
			{ table_name: 'kitgate_invitations', column_name: 'expires', data_type: 'bigint' },
			{ table_name: 'sessions', column_name: 'expires', data_type: 'timestamp with time zone' },
			{ table_name: 'users', column_name: 'email_verified', data_type: 'timestamp with time zone' },
			{ table_name: 'verification_tokens', column_name: 'expires', data_type: 'timestamp with time zone' }
		]);
	});

	test('50 concurrent links of one provider account leave exactly one row', async () => {
		const adapter = openAdapter();
		await adapter.createUser({ id: 'linker', email: 'linker@example.com', emailVerified: null });
		const account = { userId: 'linker', type: 'oauth', provider: 'race', providerAccountId: 'same' } as const;
		await Promise.allSettled(Array.from({ length: 50 }, () => adapter.linkAccount(account)));
		const rows = await admin.query(
			`select count(*)::int as n from ${schema}.accounts where provider = 'race' and provider_account_id = 'same'`
		);
		expect(rows.rows).toEqual([{ n: 1 }]);
	});

	test('a pool passed in stays open after close(); one it created is ended', async () => {
		const pool = new pg.Pool({ connectionString, max: 1 });
		const borrowed = PostgresAdapter({ pool, schema });
		expect(await borrowed.getUser('nobody')).toBeNull();
		await borrowed.close();
		expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
		await pool.end();

		const owned = PostgresAdapter({ connectionString, schema });
		expect(await owned.getUser('nobody')).toBeNull();
		await owned.close();
		expect(owned.pool.ended).toBe(true);
		await owned.close(); // a second close is harmless
	});

	test('pool and connectionString together are a configuration error', () => {
		const pool = new pg.Pool({ connectionString });
		expect(() => PostgresAdapter({ pool, connectionString })).toThrow(InvalidConfiguration);
		return pool.end();
	});
});

// PostgresAdapter on the tables of an Auth.js app, each made by the exact DDL before kitgate runs, in a
// database of its own: @auth/pg-adapter's schema (authjsPgAdapterTables) and the Drizzle adapter's
// (authjsDrizzlePostgresTables). The conformance suite, rows Auth.js wrote read back right (and the
// other way round), the user's tables left exactly as they were, and passkeys refused where there is no table.

import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { InvalidConfiguration, MissingAdapterMethod } from '../core/errors.js';
import { runAdapterTests } from '../../testing/index.js';
import { authjsDrizzlePostgresTables, authjsPgAdapterTables, PostgresAdapter, type TableMapping } from './postgres.js';
import { authjsDrizzleSqliteTables } from './sqlite.js';
import { postgresFromDdl, type AuthjsSchema } from './test/authjs-databases.js';
import { storedPasskey } from './test/stored-passkey.js';
import { inTableOrder, KITGATE_POSTGRES_TABLES, KITGATE_TABLES_BESIDE_MAPPING } from './test/postgres-tables.js';

const serverUrl = inject('databaseUrl');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A new database with the tables of `schema`, an adapter on it and a plain pool for raw SQL. */
async function authjsDatabase(schema: AuthjsSchema, tables: TableMapping) {
	const { connectionString, drop } = await postgresFromDdl(serverUrl, schema);
	const adapter = PostgresAdapter({ connectionString, tables });
	const raw = new pg.Pool({ connectionString, max: 2 });
	// pool.end() resolves before its connections have closed; the forced DROP DATABASE may end one first
	raw.on('error', () => undefined);
	cleanups.push(async () => {
		await adapter.close();
		await raw.end();
		await drop();
	});
	return { adapter, raw };
}

runAdapterTests({
	name: 'PostgresAdapter on authjsPgAdapterTables',
	adapter: async () => (await authjsDatabase('pg-adapter', authjsPgAdapterTables)).adapter,
	// the schema has no authenticator table
	authenticators: false
});

runAdapterTests({
	name: 'PostgresAdapter on authjsDrizzlePostgresTables',
	adapter: async () => (await authjsDatabase('drizzle-postgres', authjsDrizzlePostgresTables)).adapter
});

/** The shape of the user's tables as the catalog has it: columns, constraints, indexes, triggers. */
async function catalogOf(raw: pg.Pool, tables: string[]): Promise<unknown> {
	const columns = await raw.query(
		`select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
		 where table_schema = 'public' and table_name = any($1) order by table_name, ordinal_position`,
		[tables]
	);
	const constraints = await raw.query(
		`select conrelid::regclass::text as table_name, conname, pg_get_constraintdef(oid) as definition from pg_constraint
		 where conrelid::regclass::text = any($1) or confrelid::regclass::text = any($1) order by 1, 2`,
		[tables.map((table) => `"${table}"`).concat(tables)]
	);
	const indexes = await raw.query(
		`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = any($1) order by 1, 2`,
		[tables]
	);
	const triggers = await raw.query(
		`select tgrelid::regclass::text as table_name, tgname from pg_trigger where tgrelid::regclass::text = any($1) order by 1, 2`,
		[tables.map((table) => `"${table}"`).concat(tables)]
	);
	return { columns: columns.rows, constraints: constraints.rows, indexes: indexes.rows, triggers: triggers.rows };
}

/**
 * Migrates `adapter` (kitgate's own migrations only) and uses it — a user with a linked account, what
 * `use` adds, the user deleted — expecting the catalog of `userTables` exactly as it was before.
 */
async function migrateAndUseLeavingTables(
	adapter: PostgresAdapter,
	raw: pg.Pool,
	userTables: string[],
	id: string,
	use: (userId: string) => Promise<void> = async () => {}
): Promise<void> {
	const before = await catalogOf(raw, userTables);
	expect(await adapter.migrate()).toEqual(['0002_rate_limits', '0003_account_fields', '0004_account_fields_owner', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0009_user_admin_beside_mapping', '0011_organizations_beside_mapping']);
	const user = await adapter.createUser({ id, email: 'ada@example.com', emailVerified: new Date() });
	await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'x', providerAccountId: '1', extra_field: true });
	await use(user.id);
	await adapter.deleteUser(user.id);
	expect(await catalogOf(raw, userTables)).toEqual(before);
}

/** The authenticator table docs/adapters.md tells users of @auth/pg-adapter to add: read from the doc, so the two cannot drift. */
function documentedAuthenticatorTable(): string {
	const doc = readFileSync(new URL('../../../../docs/adapters.md', import.meta.url), 'utf8');
	const block = /```sql\n(CREATE TABLE authenticator\n[\s\S]*?)```/.exec(doc);
	if (!block) throw new Error('docs/adapters.md has no CREATE TABLE authenticator block');
	return block[1]!;
}

/** Runs `check` with the process in a time zone far from UTC, where a date read in the wrong zone shows. */
async function inTimeZone<T>(zone: string, check: () => Promise<T>): Promise<T> {
	const previous = process.env.TZ;
	process.env.TZ = zone;
	try {
		return await check();
	} finally {
		if (previous === undefined) delete process.env.TZ;
		else process.env.TZ = previous;
	}
}

describe('PostgresAdapter on authjsPgAdapterTables (@auth/pg-adapter)', () => {
	const userTables = ['users', 'accounts', 'sessions', 'verification_token'];

	test("migrations create kitgate's own tables only, and use leaves the user's tables exactly as they were", async () => {
		const { adapter, raw } = await authjsDatabase('pg-adapter', authjsPgAdapterTables);
		await migrateAndUseLeavingTables(adapter, raw, userTables, 'ignored', async (userId) => {
			await adapter.createSession({ sessionToken: 's', userId, expires: new Date() });
		});
		const tables = await raw.query("select table_name from information_schema.tables where table_schema = 'public' order by 1");
		expect(tables.rows.map((row) => row.table_name)).toEqual(inTableOrder([...userTables, ...KITGATE_POSTGRES_TABLES, ...KITGATE_TABLES_BESIDE_MAPPING]));
	});

	test('rows written the way @auth/pg-adapter writes them read back right (integer ids, timestamptz, bigint expires_at)', async () => {
		const { adapter, raw } = await authjsDatabase('pg-adapter', authjsPgAdapterTables);
		await adapter.migrate();
		const verified = new Date('2024-03-31T02:30:00.123Z');
		// the statements of @auth/pg-adapter, with the values it passes: Dates, the provider's numbers and strings
		const inserted = await inTimeZone('Europe/Berlin', async () => {
			const { rows } = await raw.query(
				'INSERT INTO users (name, email, "emailVerified", image) VALUES ($1, $2, $3, $4) RETURNING id, name, email, "emailVerified", image',
				['Ada', 'ada@example.com', verified, null]
			);
			const id = rows[0].id as number;
			await raw.query(
				`insert into accounts ("userId", provider, type, "providerAccountId", access_token, expires_at, refresh_token, id_token, scope, session_state, token_type)
				 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
				[id, 'google', 'oidc', 'g-1', 'a', 1_900_000_000, 'r', 'id', 'openid', 'state-abc', 'bearer']
			);
			await raw.query('insert into sessions ("userId", expires, "sessionToken") values ($1, $2, $3)', [id, new Date(Date.UTC(2031, 0, 1, 0, 0, 0, 7)), 'tok']);
			await raw.query('INSERT INTO verification_token ( identifier, expires, token ) VALUES ($1, $2, $3)', ['ada@example.com', new Date(Date.UTC(2031, 0, 1)), 'hashed']);
			return id;
		});
		const id = String(inserted);
		const user = { id, name: 'Ada', email: 'ada@example.com', emailVerified: verified, image: null };
		await inTimeZone('America/St_Johns', async () => {
			expect(await adapter.getUser(id)).toEqual(user);
			expect(await adapter.getUserByEmail('ada@example.com')).toEqual(user);
			expect(await adapter.getUserByAccount({ provider: 'google', providerAccountId: 'g-1' })).toEqual(user);
			expect(await adapter.getAccount('g-1', 'google')).toEqual({
				userId: id,
				type: 'oidc',
				provider: 'google',
				providerAccountId: 'g-1',
				access_token: 'a',
				expires_at: 1_900_000_000,
				refresh_token: 'r',
				id_token: 'id',
				scope: 'openid',
				session_state: 'state-abc',
				token_type: 'bearer'
			});
			expect(await adapter.getSessionAndUser('tok')).toEqual({
				session: { sessionToken: 'tok', userId: id, expires: new Date(Date.UTC(2031, 0, 1, 0, 0, 0, 7)) },
				user
			});
			expect((await adapter.useVerificationToken({ identifier: 'ada@example.com', token: 'hashed' }))?.expires).toEqual(new Date(Date.UTC(2031, 0, 1)));
		});
		// ids that no SERIAL can hold are unknown users, not errors
		expect(await adapter.getUser('not-a-number')).toBeNull();
		expect(await adapter.getUser('99999999999')).toBeNull();
	});

	test('users kitgate creates get the database\'s next id, and read back in @auth/pg-adapter\'s form', async () => {
		const { adapter, raw } = await authjsDatabase('pg-adapter', authjsPgAdapterTables);
		const first = await adapter.createUser({ id: 'a-uuid-the-engine-chose', email: 'a@example.com', emailVerified: null });
		const second = await adapter.createUser({ id: 'another', email: 'b@example.com', emailVerified: null });
		expect([first.id, second.id]).toEqual(['1', '2']);
		await adapter.linkAccount({ userId: second.id, type: 'oidc', provider: 'google', providerAccountId: 'g', expires_at: 1_900_000_000, session_state: 'st' });
		await adapter.createSession({ sessionToken: 'tok', userId: second.id, expires: new Date(Date.UTC(2031, 0, 1)) });
		// what @auth/pg-adapter's getSessionAndUser and getUserByAccount select
		const session = await raw.query('select * from sessions where "sessionToken" = $1', ['tok']);
		expect(session.rows[0]).toMatchObject({ userId: 2, expires: new Date(Date.UTC(2031, 0, 1)) });
		const account = await raw.query('select u.* from users u join accounts a on u.id = a."userId" where a.provider = $1 and a."providerAccountId" = $2', ['google', 'g']);
		expect(account.rows[0]).toMatchObject({ id: 2, email: 'b@example.com' });
		expect((await raw.query('select expires_at, session_state from accounts')).rows).toEqual([{ expires_at: '1900000000', session_state: 'st' }]);
	});

	test('an address stored more than once (no unique key): the earliest proof of it wins, then the lowest id, whatever the physical order', async () => {
		const { adapter, raw } = await authjsDatabase('pg-adapter', authjsPgAdapterTables);
		await adapter.migrate();
		const insert = async (verified: string | null) =>
			String((await raw.query(`insert into users (email, "emailVerified") values ('dup@example.com', $1) returning id`, [verified])).rows[0].id);
		const unproven = await insert(null);
		const later = await insert('2024-02-01T00:00:00Z');
		const earlier = await insert('2024-01-01T00:00:00Z');
		// updates move rows to the end of the heap: physical order is no longer insertion order
		await raw.query(`update users set name = 'moved' where id in ($1, $2)`, [Number(earlier), Number(unproven)]);
		expect((await adapter.getUserByEmail('dup@example.com'))?.id).toBe(earlier);
		await raw.query(`update users set "emailVerified" = null where id = $1`, [Number(earlier)]);
		expect((await adapter.getUserByEmail('dup@example.com'))?.id).toBe(later);
		await raw.query(`update users set "emailVerified" = null`);
		expect((await adapter.getUserByEmail('dup@example.com'))?.id).toBe(unproven);
	});

	test('a side row written for another user, or before migration 0004, is not read; the next write of the account replaces it', async () => {
		const { adapter, raw } = await authjsDatabase('pg-adapter', authjsPgAdapterTables);
		const user = await adapter.createUser({ id: 'x', email: 'o@example.com', emailVerified: null });
		const account = { userId: user.id, type: 'oauth' as const, provider: 'twitter', providerAccountId: '1', oauth_token: 't', oauth_token_secret: 's' };
		await adapter.linkAccount(account);
		expect((await raw.query('select user_id from kitgate_account_fields')).rows).toEqual([{ user_id: user.id }]);
		expect(await adapter.getAccount('1', 'twitter')).toEqual(account);
		for (const owner of ['', '999']) {
			await raw.query('update kitgate_account_fields set user_id = $1', [owner]);
			expect(await adapter.getAccount('1', 'twitter'), `owner '${owner}'`).toEqual({ userId: user.id, type: 'oauth', provider: 'twitter', providerAccountId: '1' });
			expect(await adapter.listAccountsByUserId(user.id)).toEqual([{ userId: user.id, type: 'oauth', provider: 'twitter', providerAccountId: '1' }]);
		}
		// updateAccount merges what it reads: the other user's fields are not carried into the rewritten row
		expect(await adapter.updateAccount({ provider: 'twitter', providerAccountId: '1', oauth_token: 'new' })).toEqual({
			userId: user.id,
			type: 'oauth',
			provider: 'twitter',
			providerAccountId: '1',
			oauth_token: 'new'
		});
		expect((await raw.query('select user_id, fields from kitgate_account_fields')).rows).toEqual([{ user_id: user.id, fields: '{"oauth_token":"new"}' }]);
	});

	test('passkey methods fail with an error that says which table to add, and write nothing', async () => {
		const { adapter, raw } = await authjsDatabase('pg-adapter', authjsPgAdapterTables);
		const user = await adapter.createUser({ id: 'x', email: 'p@example.com', emailVerified: null });
		const error = await Promise.resolve(
			adapter.createAuthenticator(storedPasskey(user.id, 'c'))
		).catch((reason: unknown) => reason);
		expect(error).toBeInstanceOf(MissingAdapterMethod);
		expect((error as Error).message).toMatch(/"authjsPgAdapterTables" has no authenticator table/);
		expect((error as Error).message).toMatch(/authenticators: 'authenticator'/);
		await expect(Promise.resolve(adapter.listAuthenticatorsByUserId(user.id))).rejects.toBeInstanceOf(MissingAdapterMethod);
		await expect(Promise.resolve(adapter.getAuthenticator('c'))).rejects.toBeInstanceOf(MissingAdapterMethod);
		const tables = await raw.query("select count(*)::int as n from information_schema.tables where table_name ilike '%authenticator%'");
		expect(tables.rows).toEqual([{ n: 0 }]);
		expect(await adapter.getUser(user.id)).toEqual(user);
	});

	test('with the authenticator table docs/adapters.md shows added, passkeys work', async () => {
		const { raw } = await authjsDatabase('pg-adapter', authjsPgAdapterTables);
		await raw.query(documentedAuthenticatorTable());
		const tables = { ...authjsPgAdapterTables, tables: { ...authjsPgAdapterTables.tables, authenticators: 'authenticator' } };
		const adapter = PostgresAdapter({ connectionString: (raw.options as { connectionString: string }).connectionString, tables });
		try {
			const user = await adapter.createUser({ id: 'x', email: 'p@example.com', emailVerified: null });
			const passkey = storedPasskey(user.id, 'c', { credentialBackedUp: true, transports: 'internal' });
			expect(await adapter.createAuthenticator(passkey)).toEqual(passkey);
			expect(await adapter.updateAuthenticatorCounter('c', 4_294_967_295)).toEqual({ ...passkey, counter: 4_294_967_295 });
			expect(await adapter.listAuthenticatorsByUserId(user.id)).toEqual([{ ...passkey, counter: 4_294_967_295 }]);
			await expect(Promise.resolve(adapter.createAuthenticator(passkey))).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' });
			await adapter.deleteUser(user.id);
			expect((await raw.query('select count(*)::int as n from authenticator')).rows).toEqual([{ n: 0 }]);
		} finally {
			await adapter.close();
		}
	});
});

describe('PostgresAdapter on authjsDrizzlePostgresTables (@auth/drizzle-adapter)', () => {
	const userTables = ['user', 'account', 'session', 'verificationToken', 'authenticator'];

	test("migrations create kitgate's own tables only, and use leaves the user's tables exactly as they were", async () => {
		const { adapter, raw } = await authjsDatabase('drizzle-postgres', authjsDrizzlePostgresTables);
		await migrateAndUseLeavingTables(adapter, raw, userTables, 'u');
	});

	test('dates Drizzle wrote (UTC in `timestamp` columns) read back right in any time zone, and kitgate writes them the same way', async () => {
		const { adapter, raw } = await authjsDatabase('drizzle-postgres', authjsDrizzlePostgresTables);
		await adapter.migrate();
		// drizzle's PgTimestamp in date mode sends toISOString(); the column keeps the UTC wall time
		const verified = new Date('2024-03-31T02:30:00.123Z'); // a time that does not exist in Berlin
		await raw.query('insert into "user" ("id", "name", "email", "emailVerified", "image") values ($1, $2, $3, $4, $5)', [
			'u-1',
			'Ada',
			'ada@example.com',
			verified.toISOString(),
			null
		]);
		await raw.query('insert into "session" ("sessionToken", "userId", "expires") values ($1, $2, $3)', ['tok', 'u-1', '2031-01-01T00:00:00.007Z']);
		await inTimeZone('Europe/Berlin', async () => {
			const user = await adapter.getUser('u-1');
			expect(user?.emailVerified).toEqual(verified);
			expect((await adapter.getSessionAndUser('tok'))?.session.expires).toEqual(new Date('2031-01-01T00:00:00.007Z'));
			await adapter.createSession({ sessionToken: 'tok-2', userId: 'u-1', expires: new Date('2032-07-01T12:00:00.000Z') });
		});
		const stored = await raw.query(`select to_char(expires, 'YYYY-MM-DD HH24:MI:SS.MS') as expires from "session" where "sessionToken" = 'tok-2'`);
		expect(stored.rows).toEqual([{ expires: '2032-07-01 12:00:00.000' }]);
	});

	test("a counter past the integer column's range is stored in its 32 bits and reads back unsigned", async () => {
		const { adapter, raw } = await authjsDatabase('drizzle-postgres', authjsDrizzlePostgresTables);
		await adapter.createUser({ id: 'u', email: 'c@example.com', emailVerified: null });
		const passkey = storedPasskey('u', 'c', { counter: 5 });
		await adapter.createAuthenticator(passkey);
		expect((await raw.query('select counter, "credentialBackedUp" from authenticator')).rows).toEqual([{ counter: 5, credentialBackedUp: false }]);
		expect((await adapter.updateAuthenticatorCounter('c', 2 ** 31))?.counter).toBe(2 ** 31);
		expect((await raw.query('select counter from authenticator')).rows).toEqual([{ counter: -(2 ** 31) }]);
		expect((await adapter.getAuthenticator('c'))?.counter).toBe(2 ** 31);
	});

	test('an expires_at past the integer column is kept beside the account; the column stays NULL', async () => {
		const { adapter, raw } = await authjsDatabase('drizzle-postgres', authjsDrizzlePostgresTables);
		await adapter.createUser({ id: 'u', email: 'e@example.com', emailVerified: null });
		const account = { userId: 'u', type: 'oidc' as const, provider: 'p', providerAccountId: '1', expires_at: 2 ** 31 };
		await adapter.linkAccount(account);
		expect(await adapter.getAccount('1', 'p')).toEqual(account);
		expect((await raw.query('select expires_at from account')).rows).toEqual([{ expires_at: null }]);
	});

	test('a SQLite mapping is refused at creation', () => {
		expect(() => PostgresAdapter({ connectionString: serverUrl, tables: authjsDrizzleSqliteTables })).toThrow(InvalidConfiguration);
	});
});

// Attacks: the SQL adapters on tables Auth.js made (authjsPgAdapterTables,
// authjsDrizzlePostgresTables, authjsDrizzleSqliteTables), each on the exact DDL of
// test/authjs-schemas/. The races kitgate settles itself on @auth/pg-adapter's schema (no unique or
// foreign keys: advisory locks), rows Auth.js writes beside kitgate (the docs' "side by side during
// a rollout"), identifier quoting of a mapping, and dates in other time zones. Tests named
// "(fails before the fix)" performed an attack that worked when they were written; the others pin
// a defence that held.

import pg from 'pg';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { authjsDrizzlePostgresTables, authjsPgAdapterTables, PostgresAdapter, type TableMapping } from './postgres.js';
import { authjsDrizzleSqliteTables, SQLiteAdapter } from './sqlite.js';
import { postgresFromDdl, sqliteFromDdl, type AuthjsSchema } from './test/authjs-databases.js';

const serverUrl = inject('databaseUrl');
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * A database with the tables of `schema` and `servers` adapters on it, each on a pool of its own
 * (as separate server processes would be), plus a raw pool standing in for the Auth.js app.
 */
async function database(schema: AuthjsSchema, tables: TableMapping, servers = 2) {
	const { connectionString, drop } = await postgresFromDdl(serverUrl, schema);
	const pools = Array.from({ length: servers }, () => new pg.Pool({ connectionString, max: 10 }));
	for (const pool of pools) pool.on('error', () => undefined);
	const adapters = pools.map((pool) => PostgresAdapter({ pool, tables }));
	const authjs = new pg.Pool({ connectionString, max: 4 });
	authjs.on('error', () => undefined);
	await adapters[0]!.migrate();
	cleanups.push(async () => {
		for (const pool of pools) await pool.end();
		await authjs.end();
		await drop();
	});
	return { adapters, authjs, connectionString };
}

const settle = <T>(promises: Promise<T>[]) => Promise.allSettled(promises);
const codes = (results: PromiseSettledResult<unknown>[]) =>
	results.map((result) => (result.status === 'fulfilled' ? 'ok' : String((result.reason as { code?: unknown }).code ?? (result.reason as Error).message)));

describe('races on @auth/pg-adapter tables (constraints checked by kitgate under advisory locks)', () => {
	test('50 concurrent createUser of one address over two servers: one user, 49 unique violations', async () => {
		const { adapters, authjs } = await database('pg-adapter', authjsPgAdapterTables);
		const results = await settle(
			Array.from({ length: 50 }, (_, i) => Promise.resolve(adapters[i % 2]!.createUser({ id: `u${i}`, email: 'race@example.com', emailVerified: null })))
		);
		const outcome = codes(results);
		expect(outcome.filter((code) => code === 'ok')).toHaveLength(1);
		expect(outcome.filter((code) => code === 'UNIQUE_VIOLATION')).toHaveLength(49);
		expect((await authjs.query(`select count(*)::int as n from users where email = 'race@example.com'`)).rows).toEqual([{ n: 1 }]);
	});

	test('one provider account linked concurrently to two users, twenty times: each ends linked to exactly one of them', async () => {
		const { adapters, authjs } = await database('pg-adapter', authjsPgAdapterTables);
		const [a, b] = await Promise.all([
			adapters[0]!.createUser({ id: 'a', email: 'a@example.com', emailVerified: null }),
			adapters[1]!.createUser({ id: 'b', email: 'b@example.com', emailVerified: null })
		]);
		for (let round = 0; round < 20; round++) {
			const account = (userId: string) => ({ userId, type: 'oauth' as const, provider: 'github', providerAccountId: `gh-${round}`, oauth_token: `t-${userId}` });
			const results = await settle([Promise.resolve(adapters[0]!.linkAccount(account(a.id))), Promise.resolve(adapters[1]!.linkAccount(account(b.id)))]);
			expect(codes(results).sort()).toEqual(['UNIQUE_VIOLATION', 'ok']);
			const rows = await authjs.query(`select "userId"::text as "userId" from accounts where "providerAccountId" = $1`, [`gh-${round}`]);
			expect(rows.rows).toHaveLength(1);
			const winner = rows.rows[0].userId as string;
			// the side-table fields belong to the winner, not to the loser's attempt
			expect(await adapters[0]!.getAccount(`gh-${round}`, 'github')).toMatchObject({ userId: winner, oauth_token: `t-${winner}` });
		}
	});

	test('sessions and accounts created while another server deletes their user never outlive it', async () => {
		const { adapters, authjs } = await database('pg-adapter', authjsPgAdapterTables);
		for (let round = 0; round < 20; round++) {
			const user = await adapters[0]!.createUser({ id: 'x', email: `d${round}@example.com`, emailVerified: null });
			const expires = new Date(Date.now() + 3_600_000);
			await settle<unknown>([
				Promise.resolve(adapters[0]!.deleteUser(user.id)),
				...Array.from({ length: 4 }, (_, i) =>
					Promise.resolve(adapters[1]!.createSession({ sessionToken: `s-${round}-${i}`, userId: user.id, expires }))
				),
				Promise.resolve(adapters[1]!.linkAccount({ userId: user.id, type: 'oauth', provider: 'p', providerAccountId: `p-${round}`, extra_field: 1 }))
			]);
			expect(await adapters[0]!.getUser(user.id)).toBeNull();
		}
		const orphans = await authjs.query(
			`select (select count(*)::int from sessions s where not exists (select 1 from users u where u.id = s."userId")) as sessions,
			        (select count(*)::int from accounts a where not exists (select 1 from users u where u.id = a."userId")) as accounts,
			        (select count(*)::int from kitgate_account_fields) as side_rows`
		);
		expect(orphans.rows).toEqual([{ sessions: 0, accounts: 0, side_rows: 0 }]);
	});

	test('two users moved to one address at once by two servers: one of them gets it', async () => {
		const { adapters, authjs } = await database('pg-adapter', authjsPgAdapterTables);
		for (let round = 0; round < 10; round++) {
			const [a, b] = await Promise.all([
				adapters[0]!.createUser({ id: 'a', email: `a${round}@example.com`, emailVerified: null }),
				adapters[1]!.createUser({ id: 'b', email: `b${round}@example.com`, emailVerified: null })
			]);
			const target = `taken${round}@example.com`;
			const results = await settle([
				Promise.resolve(adapters[0]!.updateUser({ id: a.id, email: target })),
				Promise.resolve(adapters[1]!.updateUser({ id: b.id, email: target })),
				Promise.resolve(adapters[1]!.createUser({ id: 'c', email: target, emailVerified: null }))
			]);
			expect(codes(results).filter((code) => code === 'ok')).toHaveLength(1);
			expect((await authjs.query('select count(*)::int as n from users where email = $1', [target])).rows).toEqual([{ n: 1 }]);
		}
	});
});

describe('kitgate_user_admin beside users kitgate deletes (no foreign key to hold it)', () => {
	const presets: [AuthjsSchema, TableMapping][] = [
		['pg-adapter', authjsPgAdapterTables],
		['drizzle-postgres', authjsDrizzlePostgresTables]
	];
	for (const [schema, tables] of presets) {
		test(`${tables.name}: admin records written while another server deletes their user never outlive it (fails without the row locks)`, async () => {
			const { adapters, authjs } = await database(schema, tables);
			for (let round = 0; round < 20; round++) {
				const user = await adapters[0]!.createUser({ id: crypto.randomUUID(), email: `ban${round}@example.com`, emailVerified: null });
				await settle<unknown>([
					Promise.resolve(adapters[0]!.deleteUser(user.id)),
					...Array.from({ length: 4 }, (_, i) =>
						Promise.resolve(adapters[1]!.setUserAdmin({ userId: user.id, ...(i % 2 ? { role: 'admin' } : { bannedAt: new Date(), banReason: 'spam' }) }))
					)
				]);
				expect(await adapters[0]!.getUser(user.id)).toBeNull();
				expect(await adapters[1]!.getUserAdmin(user.id)).toBeNull();
			}
			expect((await authjs.query('select count(*)::int as n from kitgate_user_admin')).rows).toEqual([{ n: 0 }]);
		});
	}
});

describe('kitgate_account_fields beside accounts that Auth.js deletes and writes', () => {
	// kitgate keeps OAuth 1.0a's oauth_token/oauth_token_secret (no column in these schemas) in its side
	// table, keyed by provider and provider account only. Auth.js, running side by side as docs/adapters.md
	// allows, deletes accounts without knowing of it; when the same provider account is later linked
	// to another user through Auth.js, kitgate serves that user the previous owner's tokens.

	test('@auth/pg-adapter: a provider account Auth.js unlinks from user A and links to user B does not carry A\'s oauth_token_secret (fails before the fix)', async () => {
		const { adapters, authjs } = await database('pg-adapter', authjsPgAdapterTables, 1);
		const kitgate = adapters[0]!;
		const a = await kitgate.createUser({ id: 'a', email: 'a@example.com', emailVerified: null });
		await kitgate.linkAccount({ userId: a.id, type: 'oauth', provider: 'twitter', providerAccountId: '1111', oauth_token: 'a-token', oauth_token_secret: 'a-secret' });
		// Auth.js (its deleteUser / unlinkAccount statements) removes A and A's account
		await authjs.query('delete from users where id = $1', [Number(a.id)]);
		await authjs.query('delete from sessions where "userId" = $1', [Number(a.id)]);
		await authjs.query('delete from accounts where "userId" = $1', [Number(a.id)]);
		// later B links the same provider account through Auth.js (its linkAccount statement)
		const b = await authjs.query(`insert into users (name, email) values ('B', 'b@example.com') returning id`);
		await authjs.query(
			`insert into accounts ("userId", provider, type, "providerAccountId", access_token, expires_at, refresh_token, id_token, scope, session_state, token_type)
			 values ($1, 'twitter', 'oauth', '1111', 'b-access', null, null, null, null, null, 'bearer')`,
			[b.rows[0].id]
		);
		const account = await kitgate.getAccount('1111', 'twitter');
		expect(account).toMatchObject({ userId: String(b.rows[0].id), access_token: 'b-access' });
		expect(account?.oauth_token_secret, "user B is served user A's token secret").toBeUndefined();
		expect((await kitgate.listAccountsByUserId(String(b.rows[0].id)))[0]?.oauth_token).toBeUndefined();
	});

	test('Drizzle on SQLite: the same, after Auth.js\'s cascade delete of user A (fails before the fix)', async () => {
		const { filename, remove } = sqliteFromDdl('drizzle-sqlite');
		const kitgate = SQLiteAdapter({ filename, tables: authjsDrizzleSqliteTables });
		cleanups.push(async () => {
			await kitgate.close();
			remove();
		});
		const db = kitgate.database;
		await kitgate.createUser({ id: 'user-a', email: 'a@example.com', emailVerified: null });
		await kitgate.linkAccount({ userId: 'user-a', type: 'oauth', provider: 'twitter', providerAccountId: '1111', oauth_token: 'a-token', oauth_token_secret: 'a-secret' });
		// Drizzle's deleteUser: one statement, the foreign keys cascade to account and session
		db.pragma('foreign_keys = ON');
		db.prepare('delete from user where id = ?').run('user-a');
		expect(db.prepare('select count(*) as n from account').get()).toEqual({ n: 0 });
		// Drizzle's createUser and linkAccount for user B
		db.prepare('insert into user (id, name, email, emailVerified, image) values (?, ?, ?, ?, ?)').run('user-b', 'B', 'b@example.com', null, null);
		db.prepare(
			'insert into account (userId, type, provider, providerAccountId, refresh_token, access_token, expires_at, token_type, scope, id_token, session_state) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
		).run('user-b', 'oauth', 'twitter', '1111', null, 'b-access', null, 'bearer', null, null, null);
		const account = await kitgate.getAccount('1111', 'twitter');
		expect(account).toMatchObject({ userId: 'user-b', access_token: 'b-access' });
		expect(account?.oauth_token_secret, "user B is served user A's token secret").toBeUndefined();
	});

	test('Drizzle PostgreSQL: a relink through kitgate itself, after Auth.js deleted the user, starts clean', async () => {
		const { adapters, authjs } = await database('drizzle-postgres', authjsDrizzlePostgresTables, 1);
		const kitgate = adapters[0]!;
		await kitgate.createUser({ id: 'user-a', email: 'a@example.com', emailVerified: null });
		await kitgate.createUser({ id: 'user-b', email: 'b@example.com', emailVerified: null });
		await kitgate.linkAccount({ userId: 'user-a', type: 'oauth', provider: 'twitter', providerAccountId: '1111', oauth_token: 'a-token', oauth_token_secret: 'a-secret' });
		await authjs.query(`delete from "user" where id = 'user-a'`);
		await kitgate.linkAccount({ userId: 'user-b', type: 'oauth', provider: 'twitter', providerAccountId: '1111', oauth_token: 'b-token', oauth_token_secret: 'b-secret' });
		expect(await kitgate.getAccount('1111', 'twitter')).toMatchObject({ userId: 'user-b', oauth_token: 'b-token', oauth_token_secret: 'b-secret' });
	});
});

describe('table mappings with hostile identifiers', () => {
	test('table and column names with quotes, semicolons, spaces and a schema are quoted as names, never run as SQL', async () => {
		const { adapters, authjs, connectionString } = await database('pg-adapter', authjsPgAdapterTables, 1);
		await adapters[0]!.migrate();
		// a copy of the pg adapter's tables under hostile names, in a schema of their own; a canary table
		await authjs.query(`
			create schema "we;ird";
			create table canary (n int); insert into canary values (1);
			create table "we;ird"."us""ers; drop table canary; --" (id serial primary key, name text, "e""mail; --" text, "emailVerified" timestamptz, image text);
			create table "we;ird"."acc ounts" (id serial, "userId" integer not null, type text not null, provider text not null, "providerAccountId" text not null,
				refresh_token text, access_token text, expires_at bigint, id_token text, scope text, session_state text, token_type text);
			create table "we;ird".sessions (id serial, "userId" integer not null, expires timestamptz not null, "sessionToken" text not null);
			create table "we;ird".verification_token (identifier text not null, expires timestamptz not null, token text not null);
		`);
		const tables: TableMapping = {
			...authjsPgAdapterTables,
			name: 'hostile',
			tables: {
				users: 'we;ird.us"ers; drop table canary; --',
				accounts: 'we;ird.acc ounts',
				sessions: 'we;ird.sessions',
				verificationTokens: 'we;ird.verification_token',
				authenticators: null
			},
			columns: { ...authjsPgAdapterTables.columns, email: 'e"mail; --' }
		};
		const pool = new pg.Pool({ connectionString, max: 2 });
		cleanups.push(() => pool.end());
		const hostile = PostgresAdapter({ pool, tables });
		const user = await hostile.createUser({ id: 'x', email: "o'hara@example.com; drop table canary", emailVerified: null });
		expect(await hostile.getUserByEmail("o'hara@example.com; drop table canary")).toEqual(user);
		await hostile.linkAccount({ userId: user.id, type: 'oauth', provider: 'p', providerAccountId: '1', oauth_token: 't' });
		expect(await hostile.getUserByAccount({ provider: 'p', providerAccountId: '1' })).toEqual(user);
		await expect(Promise.resolve(hostile.createUser({ id: 'y', email: "o'hara@example.com; drop table canary", emailVerified: null }))).rejects.toMatchObject({
			code: 'UNIQUE_VIOLATION'
		});
		await hostile.deleteUser(user.id);
		expect((await authjs.query('select n from canary')).rows).toEqual([{ n: 1 }]);
		expect((await authjs.query(`select count(*)::int as n from "we;ird"."us""ers; drop table canary; --"`)).rows).toEqual([{ n: 0 }]);
		// nothing landed in the public tables of the same names
		expect((await authjs.query('select count(*)::int as n from users')).rows).toEqual([{ n: 0 }]);
	});
});

describe('dates in `timestamp` columns whatever the database session\'s time zone', () => {
	test('Drizzle PostgreSQL: a server whose connections run in UTC+14 reads and writes the UTC Drizzle stored', async () => {
		const { authjs, connectionString } = await database('drizzle-postgres', authjsDrizzlePostgresTables, 1);
		const url = new URL(connectionString);
		url.searchParams.set('options', '-c TimeZone=Pacific/Kiritimati');
		const pool = new pg.Pool({ connectionString: url.href, max: 2 });
		cleanups.push(() => pool.end());
		const kitgate = PostgresAdapter({ pool, tables: authjsDrizzlePostgresTables });
		expect((await pool.query('show timezone')).rows[0].TimeZone).toBe('Pacific/Kiritimati');
		const verified = new Date('2024-03-31T02:30:00.123Z');
		await authjs.query(`insert into "user" (id, email, "emailVerified") values ('u', 'tz@example.com', $1)`, [verified.toISOString()]);
		expect((await kitgate.getUser('u'))?.emailVerified).toEqual(verified);
		await kitgate.createSession({ sessionToken: 'tok', userId: 'u', expires: new Date('2032-07-01T12:00:00.000Z') });
		const stored = await authjs.query(`select to_char(expires, 'YYYY-MM-DD HH24:MI:SS.MS') as expires from "session"`);
		expect(stored.rows).toEqual([{ expires: '2032-07-01 12:00:00.000' }]);
		expect((await kitgate.getSessionAndUser('tok'))?.session.expires).toEqual(new Date('2032-07-01T12:00:00.000Z'));
	});
});

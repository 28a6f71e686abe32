// SQLiteAdapter on the tables of an Auth.js Drizzle app (authjsDrizzleSqliteTables), made by the exact DDL
// before kitgate runs: the conformance suite, rows Auth.js wrote read back right, and its tables left as they were.

import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, test } from 'vitest';
import { InvalidConfiguration } from '../core/errors.js';
import { runAdapterTests } from '../../testing/index.js';
import { authjsDrizzlePostgresTables } from './postgres.js';
import { SqlRateLimitStore } from './rate-limit-store.js';
import { authjsDrizzleSqliteTables, SQLiteAdapter } from './sqlite.js';
import { sqliteFromDdl } from './test/authjs-databases.js';
import { storedPasskey } from './test/stored-passkey.js';

const made: { remove: () => void }[] = [];
afterAll(() => made.forEach((database) => database.remove()));

/** A fresh file with the Drizzle tables, and an adapter on it. */
function drizzleDatabase(): { filename: string; adapter: SQLiteAdapter } {
	const database = sqliteFromDdl('drizzle-sqlite');
	made.push(database);
	return { filename: database.filename, adapter: SQLiteAdapter({ filename: database.filename, tables: authjsDrizzleSqliteTables }) };
}

let suiteAdapter: SQLiteAdapter | undefined;
runAdapterTests({
	name: 'SQLiteAdapter on authjsDrizzleSqliteTables',
	adapter: () => (suiteAdapter = drizzleDatabase().adapter),
	cleanup: () => suiteAdapter?.close()
});

/** Every table's and index's CREATE statement, as SQLite keeps it. */
function schemaOf(database: Database.Database): Record<string, string> {
	const rows = database.prepare("select name, sql from sqlite_master where sql is not null order by name").all() as { name: string; sql: string }[];
	return Object.fromEntries(rows.map((row) => [row.name, row.sql]));
}

describe('SQLiteAdapter on authjsDrizzleSqliteTables', () => {
	test("migrations create kitgate's own tables only, and leave Drizzle's exactly as they were", async () => {
		const { filename, adapter } = drizzleDatabase();
		const before = schemaOf(new Database(filename, { readonly: true }));
		expect(await adapter.migrate()).toEqual(['0002_rate_limits', '0003_account_fields', '0004_account_fields_owner', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0009_user_admin_beside_mapping', '0011_organizations_beside_mapping']);
		const user = await adapter.createUser({ id: randomUUID(), email: 'ada@example.com', emailVerified: new Date() });
		await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'github', providerAccountId: '1', oauth_token: 't', extra_field: 1 });
		await SqlRateLimitStore(adapter).increment('k', 60, Date.now());

		const after = schemaOf(adapter.database);
		const added = Object.keys(after).filter((name) => !(name in before));
		expect(added.sort()).toEqual([
			'kitgate_account_fields',
			'kitgate_audit',
			'kitgate_audit_actor_id_idx',
			'kitgate_audit_subject_id_idx',
			'kitgate_invitations',
			'kitgate_invitations_email_idx',
			'kitgate_invitations_organization_id_idx',
			'kitgate_members',
			'kitgate_members_user_id_idx',
			'kitgate_migrations',
			'kitgate_organizations',
			'kitgate_passkey_details',
			'kitgate_passkey_details_user_id_idx',
			'kitgate_recovery_codes',
			'kitgate_session_details',
			'kitgate_session_details_user_id_idx',
			'kitgate_session_organizations',
			'kitgate_session_organizations_organization_id_idx',
			'kitgate_team_members',
			'kitgate_team_members_user_id_idx',
			'kitgate_teams',
			'kitgate_two_factor',
			'kitgate_user_admin',
			'rate_limits',
			'rate_limits_reset_at_idx',
			'session_revocations',
			'session_revocations_keep_until_idx'
		]);
		for (const [name, sql] of Object.entries(before)) expect(after[name], name).toBe(sql);
		await adapter.close();
	});

	test('rows written the way @auth/drizzle-adapter writes them read back right', async () => {
		const { adapter } = drizzleDatabase();
		await adapter.migrate();
		const db = adapter.database;
		// drizzle's timestamp_ms mode stores getTime(); its boolean mode 1/0; expires_at is seconds, as providers send it
		const verified = new Date('2024-03-31T02:30:00.123Z');
		db.prepare('insert into user (id, name, email, emailVerified, image) values (?, ?, ?, ?, ?)').run('u-1', 'Ada', 'ada@example.com', verified.getTime(), null);
		db.prepare(
			'insert into account (userId, type, provider, providerAccountId, refresh_token, access_token, expires_at, token_type, scope, id_token, session_state) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
		).run('u-1', 'oidc', 'google', 'g-1', 'r', 'a', 1_900_000_000, 'bearer', 'openid email', 'id', 'state-abc');
		db.prepare('insert into session (sessionToken, userId, expires) values (?, ?, ?)').run('tok', 'u-1', Date.UTC(2031, 0, 1, 0, 0, 0, 7));
		db.prepare('insert into verificationToken (identifier, token, expires) values (?, ?, ?)').run('ada@example.com', 'hashed', Date.UTC(2031, 0, 1));
		db.prepare(
			'insert into authenticator (credentialID, userId, providerAccountId, credentialPublicKey, counter, credentialDeviceType, credentialBackedUp, transports) values (?, ?, ?, ?, ?, ?, ?, ?)'
		).run('cred', 'u-1', 'cred', 'pk', 7, 'multiDevice', 1, 'internal');

		const user = { id: 'u-1', name: 'Ada', email: 'ada@example.com', emailVerified: verified, image: null };
		expect(await adapter.getUser('u-1')).toEqual(user);
		expect(await adapter.getUserByAccount({ provider: 'google', providerAccountId: 'g-1' })).toEqual(user);
		expect(await adapter.getAccount('g-1', 'google')).toEqual({
			userId: 'u-1',
			type: 'oidc',
			provider: 'google',
			providerAccountId: 'g-1',
			refresh_token: 'r',
			access_token: 'a',
			expires_at: 1_900_000_000,
			token_type: 'bearer',
			scope: 'openid email',
			id_token: 'id',
			session_state: 'state-abc'
		});
		expect(await adapter.getSessionAndUser('tok')).toEqual({
			session: { sessionToken: 'tok', userId: 'u-1', expires: new Date(Date.UTC(2031, 0, 1, 0, 0, 0, 7)) },
			user
		});
		expect(await adapter.useVerificationToken({ identifier: 'ada@example.com', token: 'hashed' })).toEqual({
			identifier: 'ada@example.com',
			token: 'hashed',
			expires: new Date(Date.UTC(2031, 0, 1))
		});
		expect(await adapter.getAuthenticator('cred')).toEqual({
			credentialID: 'cred',
			userId: 'u-1',
			providerAccountId: 'cred',
			credentialPublicKey: 'pk',
			counter: 7,
			credentialDeviceType: 'multiDevice',
			credentialBackedUp: true,
			transports: 'internal'
		});
		await adapter.close();
	});

	test('rows kitgate writes are what @auth/drizzle-adapter reads: epoch milliseconds, 0/1, the provider\'s strings', async () => {
		const { adapter } = drizzleDatabase();
		const db = adapter.database;
		await adapter.createUser({ id: 'u-2', email: 'grace@example.com', emailVerified: new Date(1234), name: 'Grace' });
		await adapter.linkAccount({ userId: 'u-2', type: 'oidc', provider: 'google', providerAccountId: 'g-2', expires_at: 1_900_000_000, session_state: 'st' });
		await adapter.createSession({ sessionToken: 'tok-2', userId: 'u-2', expires: new Date(5678) });
		await adapter.createAuthenticator(storedPasskey('u-2', 'c-2'));
		expect(db.prepare('select * from user').get()).toEqual({ id: 'u-2', name: 'Grace', email: 'grace@example.com', emailVerified: 1234, image: null });
		expect(db.prepare('select expires_at, session_state, scope from account').get()).toEqual({ expires_at: 1_900_000_000, session_state: 'st', scope: null });
		expect(db.prepare('select * from session').get()).toEqual({ sessionToken: 'tok-2', userId: 'u-2', expires: 5678 });
		expect(db.prepare('select counter, credentialBackedUp, transports from authenticator').get()).toEqual({ counter: 0, credentialBackedUp: 0, transports: null });
		// nothing without a column of its own, so nothing beside the account
		expect(db.prepare('select count(*) as n from kitgate_account_fields').get()).toEqual({ n: 0 });
		await adapter.close();
	});

	test('account fields without a column live in kitgate_account_fields, and go with the account', async () => {
		const { adapter } = drizzleDatabase();
		const db = adapter.database;
		await adapter.createUser({ id: 'u-3', email: 'x@example.com', emailVerified: null });
		const account = {
			userId: 'u-3',
			type: 'oauth' as const,
			provider: 'twitter',
			providerAccountId: 't-3',
			oauth_token: 'ot',
			oauth_token_secret: 'ots',
			refresh_token_expires_in: 600,
			session_state: { sid: 'object, not a string' }
		};
		await adapter.linkAccount(account);
		expect(await adapter.getAccount('t-3', 'twitter')).toEqual(account);
		expect(JSON.parse((db.prepare('select fields from kitgate_account_fields').get() as { fields: string }).fields)).toEqual({
			oauth_token: 'ot',
			oauth_token_secret: 'ots',
			refresh_token_expires_in: 600,
			session_state: { sid: 'object, not a string' }
		});
		await adapter.unlinkAccount(account);
		expect(db.prepare('select count(*) as n from kitgate_account_fields').get()).toEqual({ n: 0 });

		// Auth.js deletes an account kitgate linked (its own delete knows nothing of the side table): relinking starts clean
		await adapter.linkAccount(account);
		db.prepare("delete from account where provider = 'twitter'").run();
		await adapter.linkAccount({ userId: 'u-3', type: 'oauth', provider: 'twitter', providerAccountId: 't-3' });
		expect(await adapter.getAccount('t-3', 'twitter')).toEqual({ userId: 'u-3', type: 'oauth', provider: 'twitter', providerAccountId: 't-3' });

		await adapter.linkAccount({ ...account, providerAccountId: 't-4' });
		await adapter.deleteUser('u-3');
		expect(db.prepare('select count(*) as n from kitgate_account_fields').get()).toEqual({ n: 0 });
		await adapter.close();
	});

	test('users sharing an address in a users table without a unique key: the earliest proof wins over NULLs, which SQLite sorts first', async () => {
		const { filename } = drizzleDatabase();
		const db = new Database(filename);
		db.exec('create table loose_user (id text primary key, name text, email text, emailVerified integer, image text)');
		const insert = db.prepare('insert into loose_user (id, email, emailVerified) values (?, ?, ?)');
		insert.run('c', 'dup@example.com', null);
		insert.run('b', 'dup@example.com', 2000);
		insert.run('d', 'dup@example.com', 1000);
		insert.run('a', 'dup@example.com', null);
		const adapter = SQLiteAdapter({ filename, tables: { ...authjsDrizzleSqliteTables, tables: { ...authjsDrizzleSqliteTables.tables, users: 'loose_user' } } });
		expect((await adapter.getUserByEmail('dup@example.com'))?.id).toBe('d');
		db.prepare('update loose_user set emailVerified = null').run();
		expect((await adapter.getUserByEmail('dup@example.com'))?.id).toBe('a');
		await adapter.close();
		db.close();
	});

	test('a PostgreSQL mapping is refused at creation', () => {
		expect(() => SQLiteAdapter({ filename: ':memory:', tables: authjsDrizzlePostgresTables })).toThrow(InvalidConfiguration);
		expect(() => SQLiteAdapter({ filename: ':memory:', tables: authjsDrizzlePostgresTables })).toThrow(/authjsDrizzlePostgresTables" is for PostgreSQL tables/);
	});
});

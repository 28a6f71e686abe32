import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { PostgresAdapter } from '../postgres.js';
import { SQLiteAdapter } from '../sqlite.js';
import { d1Folders, d1MigrationFiles } from './d1-migrations.js';
import type { Migration } from './migrate.js';
import { postgresMigrations } from './postgres-migrations.js';
import { sqliteMigrations } from './sqlite-migrations.js';

const migrationLists: Record<'postgres' | 'sqlite', readonly Migration[]> = {
	postgres: postgresMigrations,
	sqlite: sqliteMigrations
};

describe('shipped .sql files (written from the lists by scripts/write-sql-files.js when the config loads)', () => {
	for (const [dialect, migrations] of Object.entries(migrationLists)) {
		test(`migrations/${dialect}/*.sql are exactly the SQL the ${dialect} runner applies`, () => {
			const folder = new URL(`./migrations/${dialect}/`, import.meta.url);
			const files = readdirSync(folder).sort();
			expect(files).toEqual(migrations.map((migration) => `${migration.name}.sql`));
			for (const migration of migrations) {
				expect(readFileSync(new URL(`${migration.name}.sql`, folder), 'utf8')).toBe(migration.sql);
			}
		});
	}

	for (const folder of d1Folders) {
		test(`migrations/d1/${folder}/*.sql are the SQLite migrations of those tables, without BEGIN or COMMIT, each recording itself`, () => {
			const directory = new URL(`./migrations/d1/${folder}/`, import.meta.url);
			const files = d1MigrationFiles(folder);
			expect(readdirSync(directory).sort()).toEqual(files.map(({ file }) => file));
			const applies = sqliteMigrations.filter((migration) => !migration.onlyWith || migration.onlyWith === folder);
			expect(files.map(({ name }) => name)).toEqual(applies.map((migration) => migration.name));
			for (const { file, name, sql } of files) {
				const text = readFileSync(new URL(file, directory), 'utf8');
				expect(text).toBe(sql);
				expect(text.startsWith(applies.find((migration) => migration.name === name)!.sql)).toBe(true);
				expect(text).not.toMatch(/^\s*(BEGIN|COMMIT|ROLLBACK|END|SAVEPOINT|RELEASE)\b/im);
				expect(text).toContain(`INSERT OR IGNORE INTO kitgate_migrations (name, applied_at) VALUES ('${name}',`);
			}
		});
	}

	test('migration names are unique and sorted', () => {
		for (const migrations of Object.values(migrationLists)) {
			const names = migrations.map((migration) => migration.name);
			expect(new Set(names).size).toBe(names.length);
			expect([...names].sort()).toEqual(names);
		}
	});
});

describe('SQLite migrations', () => {
	test('a database set up with the .sql file by hand is adopted: the runner records it and changes nothing', async () => {
		const database = new Database(':memory:');
		database.exec(sqliteMigrations[0]!.sql);
		database.prepare("insert into users (id, email) values ('u1', 'a@example.com')").run();
		const adapter = SQLiteAdapter({ database });
		expect(await adapter.migrate()).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']);
		expect((await adapter.getUser('u1'))?.email).toBe('a@example.com');
		database.close();
	});

	test('every table has the documented unique keys and cascading foreign keys', async () => {
		const adapter = SQLiteAdapter({ filename: ':memory:' });
		await adapter.migrate();
		const db = adapter.database;
		const uniqueColumns = (table: string) =>
			(db.prepare(`pragma index_list(${table})`).all() as { name: string; unique: number }[])
				.filter((index) => index.unique === 1)
				.map((index) =>
					(db.prepare(`pragma index_info('${index.name}')`).all() as { name: string }[]).map((c) => c.name).join(',')
				)
				.sort();
		expect(uniqueColumns('users')).toEqual(['email', 'id']);
		expect(uniqueColumns('accounts')).toEqual(['id', 'provider,provider_account_id']);
		expect(uniqueColumns('sessions')).toEqual(['id', 'session_token']);
		expect(uniqueColumns('verification_tokens')).toEqual(['identifier,token']);
		expect(uniqueColumns('authenticators')).toEqual(['credential_id']);
		for (const table of ['accounts', 'sessions', 'authenticators', 'kitgate_user_admin']) {
			expect(db.prepare(`pragma foreign_key_list(${table})`).all()).toEqual([
				expect.objectContaining({ table: 'users', from: 'user_id', to: 'id', on_delete: 'CASCADE' })
			]);
		}
		// the audit trail outlives the users it names
		expect(db.prepare('pragma foreign_key_list(kitgate_audit)').all()).toEqual([]);
		await adapter.close();
	});
});

describe('PostgreSQL migrations', () => {
	const connectionString = inject('databaseUrl');
	const admin = new pg.Pool({ connectionString, max: 2 });
	const schemas: string[] = [];
	afterAll(async () => {
		for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
		await admin.end();
	});

	function freshSchema(): string {
		const schema = `m_${randomBytes(6).toString('hex')}`;
		schemas.push(schema);
		return schema;
	}

	test('a schema set up with the .sql file by hand is adopted: the runner records it and changes nothing', async () => {
		const schema = freshSchema();
		const client = await admin.connect();
		try {
			await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
			await client.query(postgresMigrations[0]!.sql);
			await client.query("insert into users (id, email) values ('u1', 'a@example.com')");
			await client.query('RESET search_path');
		} finally {
			client.release();
		}
		const adapter = PostgresAdapter({ connectionString, schema });
		expect(await adapter.migrate()).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']);
		expect((await adapter.getUser('u1'))?.email).toBe('a@example.com');
		await adapter.close();
	});

	test('a second adapter on a migrated schema applies nothing', async () => {
		const schema = freshSchema();
		const first = PostgresAdapter({ connectionString, schema });
		expect(await first.migrate()).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']);
		await first.close();
		const second = PostgresAdapter({ connectionString, schema });
		expect(await second.migrate()).toEqual([]);
		await second.close();
	});

	test('a failed migration leaves nothing behind and can be retried', async () => {
		const schema = freshSchema();
		await admin.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.sessions (id int)`);
		const adapter = PostgresAdapter({ connectionString, schema });
		// The hand-made "sessions" table lacks the columns the index needs.
		await expect(adapter.migrate()).rejects.toThrow(/user_id/);
		const left = await admin.query('select table_name from information_schema.tables where table_schema = $1', [schema]);
		expect(left.rows).toEqual([{ table_name: 'sessions' }]);

		await admin.query(`DROP TABLE ${schema}.sessions`);
		expect(await adapter.migrate()).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']);
		await adapter.close();
	});
});

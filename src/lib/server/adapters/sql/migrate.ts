// The migration runner of the SQL adapters: applies each migration once per database and records it
// in a `kitgate_migrations` table. Internal; reached through the SQLite and PostgreSQL adapters.
import { sql, type Kysely } from 'kysely';
import type { BatchRunner } from './batches.js';
import { postgresMigrations } from './postgres-migrations.js';
import { sqliteMigrations } from './sqlite-migrations.js';

/**
 * One schema change: a stable name and the SQL statements, each ending with `;` at the end of a line.
 *
 * @example
 * const migration: Migration = { name: '0002_users_locale', sql: 'ALTER TABLE users ADD COLUMN locale text;\n' };
 */
export interface Migration {
	name: string;
	sql: string;
	/** Applies only to kitgate's own auth tables, or only beside a table mapping; absent: to both. */
	onlyWith?: MigrationTables;
}

/**
 * Whose auth tables the database has: kitgate's (migration 0001 creates them), or another
 * library's, reached through a table mapping (kitgate creates only its own tables beside them).
 *
 * @example
 * const tables: MigrationTables = 'table-mapping';
 */
export type MigrationTables = 'kitgate-tables' | 'table-mapping';

/**
 * Where migrations go: a SQLite database, or one schema of a PostgreSQL database; and whose auth
 * tables it has (default `kitgate-tables`). A SQLite database is migrated in one of three ways:
 * `batch` (D1, libSQL: each migration one all-or-nothing batch, no BEGIN), `oneConnection` (a
 * better-sqlite3 connection, which Kysely hands out in turn: BEGIN IMMEDIATE on it), or else in a
 * Kysely transaction.
 *
 * @example
 * const target: MigrationTarget = { dialect: 'postgres', schema: 'auth', tables: 'table-mapping' };
 */
export type MigrationTarget = (
	| { dialect: 'sqlite'; batch?: BatchRunner | null; oneConnection?: boolean }
	| { dialect: 'postgres'; schema: string }
) & { tables?: MigrationTables };

/** kitgate's record of applied migrations in SQLite; the D1 files made for wrangler create it alike (d1-migrations.js). */
const SQLITE_MIGRATIONS_TABLE = 'create table if not exists kitgate_migrations (name TEXT NOT NULL PRIMARY KEY, applied_at INTEGER NOT NULL)';

// First key of the two-key advisory lock; the second is a hash of the schema name, so
// migrations of different schemas do not wait for each other.
const ADVISORY_LOCK_NAMESPACE = 0x6b67_6174;

/**
 * Applies the migrations the database has not seen yet, all in one transaction that holds an
 * exclusive lock, so two processes starting at once apply each migration exactly once; on D1 and
 * libSQL (`batch`), each migration in one batch that first records it, so of two runners one applies it.
 * Returns the names applied by this call (empty when the schema was already current).
 *
 * @example
 * const applied = await runMigrations(db, { dialect: 'postgres', schema: 'public' });
 */
export async function runMigrations<DB>(db: Kysely<DB>, target: MigrationTarget): Promise<string[]> {
	if (target.dialect === 'postgres') {
		return db.transaction().execute(async (trx) => {
			await enterPostgresSchema(trx, target.schema);
			return applyPending(trx, target);
		});
	}
	if (target.batch) return applyInBatches(db, target.batch, target);
	// another driver (libSQL without its client, a Kysely instance of the app's): its own transaction
	if (!target.oneConnection) return db.transaction().execute((trx) => applyPending(trx, target));
	return db.connection().execute(async (connection) => {
		// IMMEDIATE takes the write lock now; a deferred transaction could fail to upgrade later.
		await sql.raw('begin immediate').execute(connection);
		try {
			const applied = await applyPending(connection, target);
			await sql`commit`.execute(connection);
			return applied;
		} catch (error) {
			await sql`rollback`.execute(connection).catch(() => undefined);
			throw error;
		}
	});
}

/**
 * Applies each pending migration as one batch: the record of it first, then its statements. D1
 * runs a batch as one transaction and refuses BEGIN. When two runners race, the second one's
 * record breaks the primary key and its whole batch rolls back: it finds the migration recorded
 * and goes on; any other failure is thrown.
 */
async function applyInBatches<DB>(db: Kysely<DB>, batch: BatchRunner, target: MigrationTarget): Promise<string[]> {
	await sql.raw(SQLITE_MIGRATIONS_TABLE).execute(db);
	const applied: string[] = [];
	for (const migration of await pendingMigrations(db, target)) {
		const record = sql`insert into kitgate_migrations (name, applied_at) values (${migration.name}, ${Date.now()})`.compile(db);
		try {
			await batch([record, ...splitStatements(migration.sql).map((statement) => sql.raw(statement).compile(db))]);
			applied.push(migration.name);
		} catch (error) {
			const recorded = await sql`select 1 as found from kitgate_migrations where name = ${migration.name}`.execute(db);
			if (recorded.rows.length === 0) throw error;
		}
	}
	return applied;
}

/** Takes the migration lock of `schema`, creates the schema if needed and makes it the default for this transaction. */
async function enterPostgresSchema<DB>(connection: Kysely<DB>, schema: string): Promise<void> {
	await sql`select pg_advisory_xact_lock(${ADVISORY_LOCK_NAMESPACE}, hashtext(${schema}))`.execute(connection);
	// Checked first because CREATE SCHEMA IF NOT EXISTS still needs the CREATE privilege.
	const existing = await sql`select 1 from pg_namespace where nspname = ${schema}`.execute(connection);
	if (existing.rows.length === 0) await sql`create schema ${sql.id(schema)}`.execute(connection);
	await sql`set local search_path to ${sql.id(schema)}`.execute(connection);
}

/** The migrations of the target's dialect and tables that `kitgate_migrations` does not list, in order. */
async function pendingMigrations<DB>(connection: Kysely<DB>, target: MigrationTarget): Promise<Migration[]> {
	const done = await sql<{ name: string }>`select name from kitgate_migrations`.execute(connection);
	const seen = new Set(done.rows.map((row) => row.name));
	const tables = target.tables ?? 'kitgate-tables';
	const migrations: readonly Migration[] = target.dialect === 'postgres' ? postgresMigrations : sqliteMigrations;
	return migrations.filter((migration) => !seen.has(migration.name) && (!migration.onlyWith || migration.onlyWith === tables));
}

async function applyPending<DB>(connection: Kysely<DB>, target: MigrationTarget): Promise<string[]> {
	const postgres = target.dialect === 'postgres';
	await sql
		.raw(postgres ? 'create table if not exists kitgate_migrations (name text primary key, applied_at timestamptz not null)' : SQLITE_MIGRATIONS_TABLE)
		.execute(connection);
	const applied: string[] = [];
	for (const migration of await pendingMigrations(connection, target)) {
		for (const statement of splitStatements(migration.sql)) {
			await sql.raw(statement).execute(connection);
		}
		const now = postgres ? new Date() : Date.now();
		await sql`insert into kitgate_migrations (name, applied_at) values (${migration.name}, ${now})`.execute(
			connection
		);
		applied.push(migration.name);
	}
	return applied;
}

/** Splits a migration into statements; SQLite prepares one statement at a time. */
function splitStatements(text: string): string[] {
	return text
		.split(/;[ \t]*(?:\r?\n|$)/)
		.map((chunk) =>
			chunk
				.split('\n')
				.filter((line) => !line.trimStart().startsWith('--'))
				.join('\n')
				.trim()
		)
		.filter((statement) => statement.length > 0);
}

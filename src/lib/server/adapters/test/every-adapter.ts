// Test helper: the three shipped adapters (memory and a SQLite file from stored-adapters.ts, PostgreSQL in a fresh schema), and on
// request the SQL adapters on Auth.js's tables (made by their exact DDL), for tests of one adapter method
// on every backend. Closes and removes everything after the file.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Adapter } from '../../core/types.js';
import { authjsDrizzlePostgresTables, authjsPgAdapterTables, PostgresAdapter } from '../postgres.js';
import { authjsDrizzleSqliteTables, SQLiteAdapter } from '../sqlite.js';
import { memoryAndSqliteAdapters } from '../../core/test/stored-adapters.js';
import { postgresFromDdl, sqliteFromDdl } from './authjs-databases.js';

/**
 * Options of {@link everyAdapter}.
 *
 * @example
 * everyAdapter('update-account', { authjsTables: 'all' });
 */
export interface EveryAdapterOptions {
	/** Add the SQL adapters on Auth.js's tables: every preset, or those whose schema has a passkey table. */
	authjsTables?: 'all' | 'with-passkeys';
}

/**
 * `[name, make]` pairs for `describe.each`; call once per test file (it registers the set-up and clean-up).
 *
 * @example
 * describe.each(everyAdapter('update-account'))('updateAccount (%s)', (_name, make) => { … });
 */
export function everyAdapter(label: string, options: EveryAdapterOptions = {}): [string, () => Required<Adapter>][] {
	const schema = `t_${randomBytes(6).toString('hex')}`;
	const connectionString = inject('databaseUrl');
	const closers: (() => Promise<void> | void)[] = [];

	afterAll(async () => {
		for (const close of closers.reverse()) await close();
		const admin = new pg.Pool({ connectionString, max: 1 });
		await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
		await admin.end();
	});

	const adapters: [string, () => Required<Adapter>][] = [
		...memoryAndSqliteAdapters(label),
		[
			'postgres',
			() => {
				const adapter = PostgresAdapter({ connectionString, schema });
				closers.push(() => adapter.close());
				return adapter;
			}
		]
	];
	if (options.authjsTables) adapters.push(...authjsAdapters(connectionString, options.authjsTables, closers));
	return adapters;
}

/** The SQL adapters on Auth.js's tables; the PostgreSQL databases are made before the file's first test. */
function authjsAdapters(
	connectionString: string,
	which: 'all' | 'with-passkeys',
	closers: (() => Promise<void> | void)[]
): [string, () => Required<Adapter>][] {
	const databases = new Map<string, string>();
	beforeAll(async () => {
		for (const schema of ['pg-adapter', 'drizzle-postgres'] as const) {
			if (schema === 'pg-adapter' && which === 'with-passkeys') continue;
			const database = await postgresFromDdl(connectionString, schema);
			databases.set(schema, database.connectionString);
			closers.push(database.drop);
		}
	});
	const sqlite = sqliteFromDdl('drizzle-sqlite');
	closers.push(sqlite.remove);
	const onPostgres = (schema: 'pg-adapter' | 'drizzle-postgres', tables: typeof authjsPgAdapterTables) => () => {
		const adapter = PostgresAdapter({ connectionString: databases.get(schema), tables });
		closers.push(() => adapter.close());
		return adapter;
	};
	const adapters: [string, () => Required<Adapter>][] = [
		[
			'sqlite, authjsDrizzleSqliteTables',
			() => {
				const adapter = SQLiteAdapter({ filename: sqlite.filename, tables: authjsDrizzleSqliteTables });
				closers.push(() => adapter.close());
				return adapter;
			}
		],
		['postgres, authjsDrizzlePostgresTables', onPostgres('drizzle-postgres', authjsDrizzlePostgresTables)]
	];
	if (which === 'all') adapters.push(['postgres, authjsPgAdapterTables', onPostgres('pg-adapter', authjsPgAdapterTables)]);
	return adapters;
}

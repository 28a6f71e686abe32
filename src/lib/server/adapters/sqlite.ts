// The SQLite adapter: users, accounts, sessions, email tokens and passkeys in one SQLite file, through
// better-sqlite3 and Kysely; the schema is created on first use. Export path: `kitgate/adapters/sqlite`.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { InvalidConfiguration } from '../core/errors.js';
import { createSqlAdapter, type SqlAdapter } from './sql/adapter.js';
import { runMigrations } from './sql/migrate.js';
import { sqliteEncoding } from './sql/rows.js';
import type { KitgateTables } from './sql/tables.js';

export type { SqlAdapter } from './sql/adapter.js';

/**
 * The file used when neither `filename` nor `database` is given, relative to the working directory.
 *
 * @example
 * SQLiteAdapter(); // same as SQLiteAdapter({ filename: DEFAULT_SQLITE_FILENAME })
 */
export const DEFAULT_SQLITE_FILENAME = '.data/kitgate.sqlite';

/** How long a write waits for another connection's lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Options of {@link SQLiteAdapter}.
 *
 * @example
 * const options: SQLiteAdapterOptions = { filename: 'data/auth.sqlite' };
 */
export interface SQLiteAdapterOptions {
	/**
	 * Path of the database file (default {@link DEFAULT_SQLITE_FILENAME}); its folder is created if
	 * missing. `:memory:` keeps everything in memory.
	 */
	filename?: string;
	/**
	 * An open better-sqlite3 database to use instead of `filename`. The adapter turns on its
	 * foreign keys but leaves journal mode and timeouts to you, and `close()` leaves it open.
	 */
	database?: Database.Database;
	/** Apply pending migrations before the first query (default `true`). */
	autoMigrate?: boolean;
}

/**
 * The SQLite adapter: every adapter method, `migrate()`, `close()`, and the database it uses.
 *
 * @example
 * const adapter: SQLiteAdapter = SQLiteAdapter({ filename: 'data/auth.sqlite' });
 * adapter.database.backup('backups/auth.sqlite');
 */
export interface SQLiteAdapter extends SqlAdapter {
	/** The better-sqlite3 database, e.g. for `database.backup(path)`. */
	readonly database: Database.Database;
}

/**
 * Creates an adapter that stores everything in a SQLite database. A file it opens itself runs in
 * WAL mode with `foreign_keys = ON` and a busy timeout; call `close()` on shutdown to close it.
 *
 * @example
 * import { SvelteKitAuth } from 'kitgate/sveltekit';
 * import { SQLiteAdapter } from 'kitgate/adapters/sqlite';
 *
 * const adapter = SQLiteAdapter({ filename: 'data/auth.sqlite' });
 * export const { handle } = SvelteKitAuth({ adapter, providers });
 * process.on('SIGTERM', () => adapter.close());
 */
export function SQLiteAdapter(options: SQLiteAdapterOptions = {}): SQLiteAdapter {
	if (options.database && options.filename !== undefined) {
		throw new InvalidConfiguration('SQLiteAdapter: pass either `filename` or `database`, not both');
	}
	const database = options.database ?? openDatabase(options.filename ?? DEFAULT_SQLITE_FILENAME);
	// Cascading deletes need this, and SQLite turns it off on every new connection.
	database.pragma('foreign_keys = ON');
	const db = new Kysely<KitgateTables>({ dialect: new SqliteDialect({ database }) });

	const adapter = createSqlAdapter({
		db,
		encoding: sqliteEncoding,
		autoMigrate: options.autoMigrate ?? true,
		runMigrations: () => runMigrations(db, { dialect: 'sqlite' }),
		async close() {
			if (!options.database && database.open) database.close();
		}
	});
	return { ...adapter, database };
}

/**
 * Loads the native driver at run time: bundlers (e.g. adapter-node) must not inline it, and a
 * missing optional peer gets a message that says what to install.
 */
function loadBetterSqlite3(): typeof Database {
	try {
		return createRequire(import.meta.url)('better-sqlite3') as typeof Database;
	} catch (error) {
		throw new InvalidConfiguration('SQLiteAdapter needs the `better-sqlite3` package: npm install better-sqlite3', {
			cause: { err: error }
		});
	}
}

function openDatabase(filename: string): Database.Database {
	const inMemory = filename === ':memory:' || filename === '';
	if (!inMemory) mkdirSync(dirname(resolve(filename)), { recursive: true });
	const database = new (loadBetterSqlite3())(filename);
	// WAL lets readers run while one process writes.
	database.pragma('journal_mode = WAL');
	database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
	return database;
}

// The SQLite adapter: users, accounts, sessions, email tokens and passkeys in one SQLite file, through
// better-sqlite3 and Kysely; the schema is created on first use. Export path: `kitgate/adapters/sqlite`.
import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { InvalidConfiguration } from '../core/errors.js';
import { nodeBuiltin, nodeRequire, runtimeName } from '../core/util/runtime.js';
import { createSqlAdapter, migrateOnce, type SqlAdapter, type SqlConnection } from './sql/adapter.js';
import { runMigrations, type MigrationTables } from './sql/migrate.js';
import { kitgateSqliteTables, resolveTableMapping, type TableMapping } from './sql/table-mapping.js';
import type { KitgateTables } from './sql/tables.js';

export type { SqlAdapter } from './sql/adapter.js';
export type { MappedColumn, OptionalAccountColumn, TableMapping } from './sql/table-mapping.js';
export { authjsDrizzleSqliteTables } from './sql/authjs-tables.js';

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
	 * Path of the database file (default {@link DEFAULT_SQLITE_FILENAME}); it and its folder are
	 * created on the first query. Adapters of the same file in one process share one connection.
	 * `:memory:` keeps everything in memory, in a database of this adapter's own.
	 */
	filename?: string;
	/**
	 * An open better-sqlite3 database to use instead of `filename`. The adapter turns on its
	 * foreign keys but leaves journal mode and timeouts to you, and `close()` leaves it open.
	 */
	database?: Database.Database;
	/** Apply pending migrations before the first query (default `true`). */
	autoMigrate?: boolean;
	/**
	 * The tables to use instead of kitgate's own, e.g. {@link authjsDrizzleSqliteTables} for the
	 * tables of an Auth.js Drizzle app. kitgate reads and writes them as they are; its migrations
	 * then create only kitgate's own tables beside them.
	 */
	tables?: TableMapping;
}

/**
 * The SQLite adapter: every adapter method, `migrate()`, `close()`, and the database it uses.
 *
 * @example
 * const adapter: SQLiteAdapter = SQLiteAdapter({ filename: 'data/auth.sqlite' });
 * await adapter.database.backup('backups/auth.sqlite');
 */
export interface SQLiteAdapter extends SqlAdapter {
	/**
	 * The better-sqlite3 database, e.g. for `database.backup(path)`: the connection this adapter
	 * uses, shared with the other adapters of its file. Reading it opens the file if nothing has yet.
	 */
	readonly database: Database.Database;
}

/** One open database and its migration state (one run per kind of auth tables). */
interface Connection {
	database: Database.Database;
	db: SqlConnection['db'];
	migrate: (tables: MigrationTables) => SqlConnection['migrate'];
	closed: boolean;
}

/**
 * Files opened by adapters, by resolved path. A lazy config creates an adapter per request; they
 * all use the file's one connection, so handles and migration runs do not grow with requests.
 */
const openFiles = new Map<string, Connection>();
/** Databases passed in (`{ database }`): migrations run once per database, not once per adapter. */
const passedIn = new WeakMap<Database.Database, Connection>();

/**
 * Creates an adapter that stores everything in a SQLite database. Creating it opens nothing: the
 * file (and its folder) is opened on the first query, in WAL mode with `foreign_keys = ON` and a
 * busy timeout. Adapters of the same file share that connection, so creating one per request
 * (a lazy config) is safe. `close()` closes it, e.g. on shutdown.
 *
 * @example
 * import { SvelteKitAuth } from 'kitgate/sveltekit';
 * import { SQLiteAdapter } from 'kitgate/adapters/sqlite';
 *
 * const adapter = SQLiteAdapter({ filename: 'data/auth.sqlite' });
 * export const { handle } = SvelteKitAuth({ adapter, providers });
 * process.on('sveltekit:shutdown', () => adapter.close()); // adapter-node, after the last request
 */
export function SQLiteAdapter(options: SQLiteAdapterOptions = {}): SQLiteAdapter {
	if (options.database && options.filename !== undefined) {
		throw new InvalidConfiguration('SQLiteAdapter: pass either `filename` or `database`, not both');
	}
	const mapping = resolveTableMapping(options.tables ?? kitgateSqliteTables, 'sqlite', 'SQLiteAdapter');
	const tables: MigrationTables = mapping.isOwnSchema ? 'kitgate-tables' : 'table-mapping';
	let attached: Connection | undefined;
	let connection: () => Connection;
	let close: () => Promise<void>;

	if (options.database) {
		const database = options.database;
		let known = passedIn.get(database);
		if (!known) passedIn.set(database, (known = connect(database)));
		attached = known;
		connection = () => known;
		close = async () => undefined; // yours to close
	} else {
		const filename = options.filename ?? DEFAULT_SQLITE_FILENAME;
		// a missing driver (or a runtime without Node's modules) is a configuration error, not a first-request one
		const file = fileSupport();
		if (filename === ':memory:' || filename === '') {
			// every in-memory database is a new one: nothing to share, and nothing to reopen after close()
			connection = () => (attached ??= connect(openDatabase(file, filename)));
			close = async () => {
				if (attached) await closeConnection(attached);
			};
		} else {
			const path = file.path.resolve(filename);
			connection = () => {
				if (!attached || attached.closed) {
					let shared = openFiles.get(path);
					if (!shared) openFiles.set(path, (shared = connect(openDatabase(file, path))));
					attached = shared;
				}
				return attached;
			};
			close = async () => {
				const shared = openFiles.get(path);
				if (!shared) return;
				openFiles.delete(path);
				await closeConnection(shared);
			};
		}
	}

	const adapter = createSqlAdapter({
		adapterName: 'SQLiteAdapter',
		connection: () => {
			const current = connection();
			return { db: current.db, migrate: current.migrate(tables) };
		},
		mapping,
		autoMigrate: options.autoMigrate ?? true,
		close
	});
	return Object.defineProperty(adapter, 'database', {
		enumerable: true,
		get: () => (attached ?? connection()).database
	}) as SQLiteAdapter;
}

function connect(database: Database.Database): Connection {
	// Cascading deletes need this, and SQLite turns it off on every new connection.
	database.pragma('foreign_keys = ON');
	const db = new Kysely<KitgateTables>({ dialect: new SqliteDialect({ database }) });
	const runs = new Map<MigrationTables, SqlConnection['migrate']>();
	const migrate = (tables: MigrationTables) => {
		let run = runs.get(tables);
		if (!run) runs.set(tables, (run = migrateOnce(() => runMigrations(db, { dialect: 'sqlite', tables }))));
		return run;
	};
	return { database, db, migrate, closed: false };
}

/** Closes a connection once the query or transaction holding it (Kysely hands SQLite's one connection out in turn) is done. */
async function closeConnection(connection: Connection): Promise<void> {
	connection.closed = true;
	await connection.db.connection().execute(async () => {
		if (connection.database.open) connection.database.close();
	});
}

/** What opening a file takes: the better-sqlite3 driver, and Node's `fs` and `path` for its folder. */
interface FileSupport {
	Driver: typeof Database;
	fs: typeof import('node:fs');
	path: typeof import('node:path');
}

let betterSqlite3: typeof Database | undefined;

/**
 * Loads the native driver and Node's file modules at run time: bundlers (e.g. adapter-node) must
 * not inline the driver, a Worker bundle must not import `node:` modules, and a missing optional
 * peer or a runtime without Node's modules gets a message that says what to use instead.
 */
function fileSupport(): FileSupport {
	const fs = nodeBuiltin<typeof import('node:fs')>('node:fs');
	const path = nodeBuiltin<typeof import('node:path')>('node:path');
	const require = nodeRequire(import.meta.url);
	const elsewhere = 'Use a database that needs no Node.js module instead, such as Cloudflare D1 or libSQL: docs/adapters.md.';
	if (!fs || !path || !require) {
		throw new InvalidConfiguration(
			`SQLiteAdapter with \`filename\` opens the file through better-sqlite3, which needs Node.js; this is ${runtimeName()}. ${elsewhere}`
		);
	}
	try {
		betterSqlite3 ??= require('better-sqlite3') as typeof Database;
	} catch (error) {
		const runtime = runtimeName();
		const message =
			runtime === 'Node.js'
				? 'SQLiteAdapter needs the `better-sqlite3` package, which is not installed: run `npm install better-sqlite3`.'
				: `SQLiteAdapter with \`filename\` could not load better-sqlite3 (a Node.js native module) on ${runtime}. ${elsewhere}`;
		throw new InvalidConfiguration(message, { cause: { err: error } });
	}
	return { Driver: betterSqlite3, fs, path };
}

function openDatabase(file: FileSupport, filename: string): Database.Database {
	const inMemory = filename === ':memory:' || filename === '';
	if (!inMemory) file.fs.mkdirSync(file.path.dirname(filename), { recursive: true });
	const database = new file.Driver(filename);
	// WAL lets readers run while one process writes.
	database.pragma('journal_mode = WAL');
	database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
	return database;
}

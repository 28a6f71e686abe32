// The SQLite adapter: users, accounts, sessions, email tokens and passkeys in SQLite, through Kysely: a
// file through better-sqlite3 (Node), Cloudflare D1, libSQL, or a Kysely instance or dialect of the
// app's own; the schema is created on first use. Export path: `kitgate/adapters/sqlite`.
import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type Dialect } from 'kysely';
import { InvalidConfiguration } from '../core/errors.js';
import { nodeBuiltin, nodeRequire, runtimeName } from '../core/util/runtime.js';
import { createSqlAdapter, migrateOnce, type AnyKysely, type SqlAdapter, type SqlConnection } from './sql/adapter.js';
import { batchesOf, d1Batches, type BatchRunner, type D1DatabaseLike } from './sql/batches.js';
import { d1Dialect } from './sql/d1-dialect.js';
import { runMigrations, type MigrationTables } from './sql/migrate.js';
import { kitgateSqliteTables, resolveTableMapping, type TableMapping } from './sql/table-mapping.js';
import type { KitgateTables } from './sql/tables.js';

export type { AnyKysely, SqlAdapter } from './sql/adapter.js';
export type { D1DatabaseLike, D1PreparedStatementLike, D1ResultLike } from './sql/batches.js';
export type { MappedColumn, OptionalAccountColumn, TableMapping } from './sql/table-mapping.js';
export { authjsDrizzleSqliteTables } from './sql/authjs-tables.js';

/**
 * The file used when no database is given (no `filename`, `database`, `db`, `dialect` or `d1`),
 * relative to the working directory.
 *
 * @example
 * SQLiteAdapter(); // same as SQLiteAdapter({ filename: DEFAULT_SQLITE_FILENAME })
 */
export const DEFAULT_SQLITE_FILENAME = '.data/kitgate.sqlite';

/** How long a write waits for another connection's lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Options of {@link SQLiteAdapter}. Give the database one way: `filename` or `database`
 * (better-sqlite3, Node only), `db` or `dialect` (Kysely), or `d1` (Cloudflare D1), which may come
 * with `db` or `dialect` on the same D1 database.
 *
 * @example
 * const options: SQLiteAdapterOptions = { filename: 'data/auth.sqlite' };
 */
export interface SQLiteAdapterOptions {
	/**
	 * Path of the database file (default {@link DEFAULT_SQLITE_FILENAME}); it and its folder are
	 * created on the first query. Adapters of the same file in one process share one connection.
	 * `:memory:` keeps everything in memory, in a database of this adapter's own. Needs Node.js
	 * and better-sqlite3; elsewhere creating the adapter throws, naming the runtime.
	 */
	filename?: string;
	/**
	 * An open better-sqlite3 database to use instead of `filename`. The adapter turns on its
	 * foreign keys but leaves journal mode and timeouts to you, and `close()` leaves it open.
	 */
	database?: Database.Database;
	/**
	 * A Kysely instance on a SQLite database, made (and destroyed) by your app: libSQL or Turso
	 * through `@libsql/kysely-libsql`, Cloudflare D1 through `kysely-d1` (with `d1`), better-sqlite3
	 * through Kysely's `SqliteDialect`. Its connections must enforce foreign keys (D1 and libSQL do).
	 * Writes that must succeed together run in its transactions, or, on libSQL, as one `batch()` of
	 * the client the dialect holds.
	 */
	db?: AnyKysely;
	/**
	 * A Kysely dialect for a SQLite database (the same databases as `db`): kitgate makes the Kysely
	 * instance on the first query, shares it among the adapters of this dialect object, and
	 * `close()` destroys it.
	 */
	dialect?: Dialect;
	/**
	 * A Cloudflare D1 binding (`env.DB`, or `platform.env.DB` in SvelteKit). D1 has no interactive
	 * transactions: every write that must succeed together goes as one `batch()` of this binding.
	 * Alone, kitgate also queries D1 through it (no other package needed); with `db` or `dialect`
	 * (e.g. `kysely-d1` on the same binding), single queries go through those.
	 */
	d1?: D1DatabaseLike;
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
	 * An adapter on `db`, `dialect` or `d1` has none: reading it throws.
	 */
	readonly database: Database.Database;
}

/** One database and its migration state (one run per kind of auth tables). */
interface Connection {
	/** The better-sqlite3 handle (`filename`, `database`); absent on `db`, `dialect` and `d1`. */
	database?: Database.Database;
	db: SqlConnection['db'];
	migrate: (tables: MigrationTables) => SqlConnection['migrate'];
	batches: NonNullable<SqlConnection['batches']>;
	closed: boolean;
}

/** How a connection writes several statements all or none, and whether Kysely hands it out in turn. */
type Writes = { batch: BatchRunner } | { batch: 'find' } | { oneConnection: true };

/**
 * Files opened by adapters, by resolved path. A lazy config creates an adapter per request; they
 * all use the file's one connection, so handles and migration runs do not grow with requests.
 */
const openFiles = new Map<string, Connection>();
/** Databases passed in (`{ database }`): migrations run once per database, not once per adapter. */
const passedIn = new WeakMap<Database.Database, Connection>();
/** Kysely instances, dialects and D1 bindings passed in: one connection (and migration run) each, whichever adapter of a lazy config asks. */
const passedKysely = new WeakMap<object, Connection>();

/**
 * Creates an adapter that stores everything in a SQLite database. Creating it opens nothing: a
 * file (and its folder) is opened on the first query, in WAL mode with `foreign_keys = ON` and a
 * busy timeout. Adapters of the same file (or the same `db`, `dialect` or `d1` object) share one
 * connection, so creating one per request (a lazy config) is safe. `close()` closes it, e.g. on
 * shutdown.
 *
 * @example
 * import { SvelteKitAuth } from 'kitgate/sveltekit';
 * import { SQLiteAdapter } from 'kitgate/adapters/sqlite';
 *
 * const adapter = SQLiteAdapter({ filename: 'data/auth.sqlite' });
 * export const { handle } = SvelteKitAuth({ adapter, providers });
 * process.on('sveltekit:shutdown', () => adapter.close()); // adapter-node, after the last request
 *
 * @example
 * // Cloudflare D1 (wrangler.toml binds it as DB), in a lazy SvelteKit config
 * export const { handle } = SvelteKitAuth(async (event) => ({
 * 	adapter: SQLiteAdapter({ d1: event.platform!.env.DB }),
 * 	providers
 * }));
 */
export function SQLiteAdapter(options: SQLiteAdapterOptions = {}): SQLiteAdapter {
	const given = (['filename', 'database', 'db', 'dialect', 'd1'] as const).filter((option) => options[option] !== undefined);
	const alongsideD1 = given.length === 2 && given.includes('d1') && (given.includes('db') || given.includes('dialect'));
	if (given.length > 1 && !alongsideD1) {
		throw new InvalidConfiguration(
			`SQLiteAdapter: pass one of \`filename\`, \`database\`, \`db\`, \`dialect\` or \`d1\` (\`d1\` may come with \`db\` or \`dialect\`), not ${given.map((option) => `\`${option}\``).join(' and ')}`
		);
	}
	const mapping = resolveTableMapping(options.tables ?? kitgateSqliteTables, 'sqlite', 'SQLiteAdapter');
	const tables: MigrationTables = mapping.isOwnSchema ? 'kitgate-tables' : 'table-mapping';
	let attached: Connection | undefined;
	let connection: () => Connection;
	let close: () => Promise<void>;

	if (options.database) {
		const database = options.database;
		let known = passedIn.get(database);
		if (!known) passedIn.set(database, (known = connect(kyselyOn(database), { oneConnection: true }, database)));
		attached = known;
		connection = () => known;
		close = async () => undefined; // yours to close
	} else if (options.db || options.dialect || options.d1) {
		const { db, dialect, d1 } = options;
		const key: object = db ?? dialect ?? d1!;
		const writes: Writes = d1 ? { batch: d1Batches(d1) } : { batch: 'find' };
		const open = (): Connection =>
			connect((db as Kysely<KitgateTables> | undefined) ?? new Kysely<KitgateTables>({ dialect: dialect ?? d1Dialect(d1!) }), writes);
		connection = () => {
			if (!attached || attached.closed) {
				let shared = passedKysely.get(key);
				if (!shared || shared.closed) passedKysely.set(key, (shared = open()));
				attached = shared;
			}
			return attached;
		};
		// a Kysely instance of kitgate's own (made from a dialect) is destroyed; yours, and a binding, stay
		close = async () => {
			const shared = passedKysely.get(key);
			if (!shared || !dialect) return;
			passedKysely.delete(key);
			shared.closed = true;
			await shared.db.destroy();
		};
	} else {
		const filename = options.filename ?? DEFAULT_SQLITE_FILENAME;
		// a missing driver (or a runtime without Node's modules) is a configuration error, not a first-request one
		const file = fileSupport();
		const openFile = (path: string) => {
			const database = openDatabase(file, path);
			return connect(kyselyOn(database), { oneConnection: true }, database);
		};
		if (filename === ':memory:' || filename === '') {
			// every in-memory database is a new one: nothing to share, and nothing to reopen after close()
			connection = () => (attached ??= openFile(filename));
			close = async () => {
				if (attached) await closeConnection(attached);
			};
		} else {
			const path = file.path.resolve(filename);
			connection = () => {
				if (!attached || attached.closed) {
					let shared = openFiles.get(path);
					if (!shared) openFiles.set(path, (shared = openFile(path)));
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
			return { db: current.db, migrate: current.migrate(tables), batches: current.batches };
		},
		mapping,
		autoMigrate: options.autoMigrate ?? true,
		close
	});
	return Object.defineProperty(adapter, 'database', {
		enumerable: true,
		get: () => {
			const database = (attached ?? connection()).database;
			if (!database) {
				throw new InvalidConfiguration('SQLiteAdapter: `database` is the better-sqlite3 handle of an adapter on `filename` or `database`; this one uses `db`, `dialect` or `d1`');
			}
			return database;
		}
	}) as SQLiteAdapter;
}

/** The Kysely instance of a better-sqlite3 handle, with the foreign keys cascading deletes need. */
function kyselyOn(database: Database.Database): Kysely<KitgateTables> {
	// SQLite turns foreign keys off on every new connection.
	database.pragma('foreign_keys = ON');
	return new Kysely<KitgateTables>({ dialect: new SqliteDialect({ database }) });
}

function connect(db: Kysely<KitgateTables>, writes: Writes, database?: Database.Database): Connection {
	let batches: Promise<BatchRunner | null> | undefined;
	const findBatches = (): Promise<BatchRunner | null> => {
		if ('oneConnection' in writes) return Promise.resolve(null);
		if (writes.batch !== 'find') return Promise.resolve(writes.batch);
		// found once; a failed look (a database not reachable yet) is tried again
		return (batches ??= batchesOf(db as Kysely<never>, 'SQLiteAdapter').catch((error: unknown) => {
			batches = undefined;
			throw error;
		}));
	};
	const runs = new Map<MigrationTables, SqlConnection['migrate']>();
	const migrate = (tables: MigrationTables) => {
		let run = runs.get(tables);
		if (!run) {
			const oneConnection = 'oneConnection' in writes;
			run = migrateOnce(async () => runMigrations(db, { dialect: 'sqlite', tables, oneConnection, batch: await findBatches() }));
			runs.set(tables, run);
		}
		return run;
	};
	return { database, db, migrate, batches: findBatches, closed: false };
}

/** Closes a connection once the query or transaction holding it (Kysely hands SQLite's one connection out in turn) is done. */
async function closeConnection(connection: Connection): Promise<void> {
	connection.closed = true;
	const database = connection.database;
	await connection.db.connection().execute(async () => {
		if (database?.open) database.close();
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
	const elsewhere =
		'Use Cloudflare D1 (`SQLiteAdapter({ d1: env.DB })`) or libSQL through Kysely ' +
		'(`SQLiteAdapter({ dialect: new LibsqlDialect({ client }) })`) instead: docs/adapters.md.';
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

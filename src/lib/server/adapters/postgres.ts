// The PostgreSQL adapter: users, accounts, sessions, email tokens and passkeys in PostgreSQL, through
// a `pg` pool and Kysely; the schema is created on first use. Export path: `kitgate/adapters/postgres`.
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { processEnv } from '../core/config/env.js';
import { hex } from '../core/crypto/bytes.js';
import { digest } from '../core/crypto/hash.js';
import { InvalidConfiguration } from '../core/errors.js';
import { nodeRequire, runtimeName } from '../core/util/runtime.js';
import { createSqlAdapter, migrateOnce, type SqlAdapter, type SqlConnection } from './sql/adapter.js';
import { runMigrations, type MigrationTables } from './sql/migrate.js';
import { kitgatePostgresTables, resolveTableMapping, type TableMapping } from './sql/table-mapping.js';
import type { KitgateTables } from './sql/tables.js';

export type { SqlAdapter } from './sql/adapter.js';
export type { MappedColumn, OptionalAccountColumn, TableMapping } from './sql/table-mapping.js';
export { authjsDrizzlePostgresTables, authjsPgAdapterTables } from './sql/authjs-tables.js';

/**
 * Options of {@link PostgresAdapter}.
 *
 * @example
 * const options: PostgresAdapterOptions = { connectionString: process.env.DATABASE_URL, schema: 'auth' };
 */
export interface PostgresAdapterOptions {
	/** A pool you own; `close()` leaves it open. */
	pool?: pg.Pool;
	/**
	 * Connection URL for a pool the adapter creates (and `close()` ends). Defaults to
	 * `process.env.DATABASE_URL` when neither `pool` nor `connectionString` is given. Adapters with
	 * the same connection string and schema in one process share one pool.
	 */
	connectionString?: string;
	/** Schema that holds kitgate's tables (default `public`); created on first use if missing. */
	schema?: string;
	/** Apply pending migrations before the first query (default `true`). */
	autoMigrate?: boolean;
	/**
	 * Run the session check (every request's query) as a named statement that PostgreSQL parses and
	 * plans once per connection (default `true`). Turn it off behind a pooler that cannot keep
	 * statements (PgBouncer in transaction mode before 1.21); a statement the server lost is run
	 * unnamed anyway.
	 */
	preparedStatements?: boolean;
	/**
	 * The tables to use instead of kitgate's own, e.g. {@link authjsPgAdapterTables} or
	 * {@link authjsDrizzlePostgresTables} for an Auth.js database; they are looked up in `schema`.
	 * kitgate reads and writes them as they are; its migrations then create only kitgate's own
	 * tables beside them.
	 */
	tables?: TableMapping;
}

/**
 * The PostgreSQL adapter: every adapter method, `migrate()`, `close()`, and the pool it uses.
 *
 * @example
 * const adapter: PostgresAdapter = PostgresAdapter({ pool });
 * await adapter.migrate(); // create the tables at start-up instead of on the first request
 */
export interface PostgresAdapter extends SqlAdapter {
	/** The `pg` pool: the one passed in, or the one shared by adapters of the same connection string and schema. */
	readonly pool: pg.Pool;
	/** The schema holding kitgate's tables. */
	readonly schema: string;
}

/** One pool, the Kysely instance scoped to a schema, and that schema's migration state (one run per kind of auth tables). */
interface Connection {
	pool: pg.Pool;
	db: SqlConnection['db'];
	migrate: (tables: MigrationTables) => SqlConnection['migrate'];
	prepared: NonNullable<SqlConnection['prepared']>;
	closed: boolean;
}

/**
 * Pools created by adapters, by schema and connection string. A lazy config creates an adapter per
 * request; they all use one pool, so connections and migration runs do not grow with requests.
 */
const ownPools = new Map<string, Connection>();
/** Pools passed in (`{ pool }`), by schema: migrations run once per pool and schema, not once per adapter. */
const passedIn = new WeakMap<pg.Pool, Map<string, Connection>>();

/**
 * Creates an adapter that stores everything in PostgreSQL. Creating it connects to nothing; the
 * pool connects on the first query. Adapters with the same connection string and schema share one
 * pool, so creating one per request (a lazy config) is safe. Several processes may share one
 * database: migrations take an advisory lock, and unique constraints settle races.
 * Call `close()` on shutdown to end the pool the adapters created.
 *
 * @example
 * import { SvelteKitAuth } from 'kitgate/sveltekit';
 * import { PostgresAdapter } from 'kitgate/adapters/postgres';
 *
 * const adapter = PostgresAdapter({ connectionString: process.env.DATABASE_URL, schema: 'auth' });
 * export const { handle } = SvelteKitAuth({ adapter, providers });
 * process.on('sveltekit:shutdown', () => adapter.close()); // adapter-node, after the last request
 */
export function PostgresAdapter(options: PostgresAdapterOptions = {}): PostgresAdapter {
	if (options.pool && options.connectionString !== undefined) {
		throw new InvalidConfiguration('PostgresAdapter: pass either `pool` or `connectionString`, not both');
	}
	const connectionString = options.connectionString ?? processEnv().DATABASE_URL;
	if (!options.pool && !connectionString) {
		throw new InvalidConfiguration('PostgresAdapter: pass `pool` or `connectionString`, or set DATABASE_URL');
	}
	const schema = options.schema ?? 'public';
	const mapping = resolveTableMapping(options.tables ?? kitgatePostgresTables, 'postgres', 'PostgresAdapter');
	const tables: MigrationTables = mapping.isOwnSchema ? 'kitgate-tables' : 'table-mapping';
	let attached: Connection | undefined;
	let connection: () => Connection;
	let close: () => Promise<void>;

	if (options.pool) {
		const pool = options.pool;
		let schemas = passedIn.get(pool);
		if (!schemas) {
			passedIn.set(pool, (schemas = new Map()));
			ignoreClientErrors(pool);
		}
		let known = schemas.get(schema);
		if (!known) schemas.set(schema, (known = connect(pool, schema)));
		attached = known;
		connection = () => known;
		close = async () => undefined; // yours to end
	} else {
		const { Pool } = loadPg(); // a missing driver is a configuration error, not a first-request one
		const key = JSON.stringify([connectionString, schema]);
		connection = () => {
			if (!attached || attached.closed) {
				let shared = ownPools.get(key);
				if (!shared) ownPools.set(key, (shared = connect(createPool(Pool, connectionString), schema)));
				attached = shared;
			}
			return attached;
		};
		close = async () => {
			const shared = ownPools.get(key);
			if (!shared) return;
			ownPools.delete(key);
			shared.closed = true;
			if (!shared.pool.ending && !shared.pool.ended) await shared.pool.end();
		};
	}

	const adapter = createSqlAdapter({
		adapterName: 'PostgresAdapter',
		connection: () => {
			const current = connection();
			return { db: current.db, migrate: current.migrate(tables), ...(options.preparedStatements === false ? {} : { prepared: current.prepared }) };
		},
		mapping,
		autoMigrate: options.autoMigrate ?? true,
		close
	});
	return Object.defineProperties(adapter, {
		pool: { enumerable: true, get: () => (attached ?? connection()).pool },
		schema: { enumerable: true, value: schema }
	}) as PostgresAdapter;
}

function connect(pool: pg.Pool, schema: string): Connection {
	const base = new Kysely<KitgateTables>({ dialect: new PostgresDialect({ pool }) });
	const runs = new Map<MigrationTables, SqlConnection['migrate']>();
	const migrate = (tables: MigrationTables) => {
		let run = runs.get(tables);
		if (!run) runs.set(tables, (run = migrateOnce(() => runMigrations(base, { dialect: 'postgres', schema, tables }))));
		return run;
	};
	return { pool, db: base.withSchema(schema), migrate, prepared: preparedRunner(pool), closed: false };
}

/** PostgreSQL's codes for a named statement the server no longer has, or whose plan no longer fits. */
const LOST_STATEMENT = new Set(['26000', '0A000']);

/**
 * Runs compiled queries as named statements: each connection of the pool parses and plans one
 * once, then only binds values (`pg` remembers which statements a connection has). One name per
 * SQL text, so another schema or table mapping gets its own.
 */
function preparedRunner(pool: pg.Pool): NonNullable<SqlConnection['prepared']> {
	const names = new Map<string, string>();
	return async (query) => {
		let name = names.get(query.sql);
		if (!name) names.set(query.sql, (name = `kitgate_${hex(digest('sha256', query.sql)).slice(0, 24)}`));
		const values = [...query.parameters];
		try {
			return await pool.query({ name, text: query.sql, values });
		} catch (error) {
			// a pooler or a server restart lost the statement, or a migration changed the tables under it
			if (!LOST_STATEMENT.has((error as { code?: string }).code ?? '')) throw error;
			return pool.query({ text: query.sql, values });
		}
	};
}

/**
 * A connection that drops while a query holds it makes pg emit 'error' on the client; without a
 * listener that event would crash the process. The query itself still fails, and the pool drops the client.
 */
function ignoreClientErrors(pool: pg.Pool): void {
	pool.on('connect', (client) => client.on('error', () => undefined));
}

function createPool(Pool: typeof pg.Pool, connectionString: string | undefined): pg.Pool {
	const pool = new Pool({ connectionString });
	// An idle connection dropped by the server (restart, failover) must not crash the process:
	// the pool discards it, and the next query opens a new one.
	pool.on('error', () => undefined);
	ignoreClientErrors(pool);
	return pool;
}

let pgModule: typeof pg | undefined;

/**
 * Loads `pg` at run time, not with a static import: an app without it still imports and builds,
 * and creating the adapter says what to install.
 */
function loadPg(): typeof pg {
	if (pgModule) return pgModule;
	const require = nodeRequire(import.meta.url);
	if (!require) {
		throw new InvalidConfiguration(
			`PostgresAdapter({ connectionString }) loads the \`pg\` package itself, which needs Node.js's module loader; this is ${runtimeName()}. ` +
				'Import `pg` yourself and pass the pool: `PostgresAdapter({ pool: new pg.Pool({ connectionString }) })`.'
		);
	}
	try {
		return (pgModule = require('pg') as typeof pg);
	} catch (error) {
		throw new InvalidConfiguration('PostgresAdapter needs the `pg` package, which is not installed: run `npm install pg`.', {
			cause: { err: error }
		});
	}
}

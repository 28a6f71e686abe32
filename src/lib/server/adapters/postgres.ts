// The PostgreSQL adapter: users, accounts, sessions, email tokens and passkeys in PostgreSQL, through
// Kysely: on a `pg` pool, or on a Kysely instance or dialect of the app's own; the schema is created
// on first use. Export path: `kitgate/adapters/postgres`.
import { Kysely, PostgresDialect, type Dialect } from 'kysely';
import type pg from 'pg';
import { processEnv } from '../core/config/env.js';
import { hex } from '../core/crypto/bytes.js';
import { digest } from '../core/crypto/hash.js';
import { InvalidConfiguration } from '../core/errors.js';
import { nodeRequire, runtimeName } from '../core/util/runtime.js';
import { createSqlAdapter, migrateOnce, type AnyKysely, type SqlAdapter, type SqlConnection } from './sql/adapter.js';
import { runMigrations, type MigrationTables } from './sql/migrate.js';
import { kitgatePostgresTables, resolveTableMapping, type TableMapping } from './sql/table-mapping.js';
import type { KitgateTables } from './sql/tables.js';

export type { AnyKysely, SqlAdapter } from './sql/adapter.js';
export type { MappedColumn, OptionalAccountColumn, TableMapping } from './sql/table-mapping.js';
export { authjsDrizzlePostgresTables, authjsPgAdapterTables } from './sql/authjs-tables.js';

/**
 * Options of {@link PostgresAdapter}. Give the database one way: `pool` or `connectionString`
 * (the `pg` driver), or `db` or `dialect` (Kysely, any PostgreSQL driver it has a dialect for).
 *
 * @example
 * const options: PostgresAdapterOptions = { connectionString: process.env.DATABASE_URL, schema: 'auth' };
 */
export interface PostgresAdapterOptions {
	/** A pool you own; `close()` leaves it open. */
	pool?: pg.Pool;
	/**
	 * Connection URL for a pool the adapter creates (and `close()` ends). Defaults to
	 * `process.env.DATABASE_URL` when no other way to the database is given. Adapters with
	 * the same connection string and schema in one process share one pool. kitgate loads `pg`
	 * itself, which needs Node.js's module loader: elsewhere pass `pool`, `db` or `dialect`.
	 */
	connectionString?: string;
	/**
	 * A Kysely instance on PostgreSQL, made (and destroyed) by your app, e.g. on `pg`, `postgres`
	 * (kysely-postgres-js) or a serverless driver with interactive transactions. kitgate scopes it to
	 * `schema`; writes that must succeed together run in its transactions. Prepared statements
	 * (`preparedStatements`) need kitgate's own `pg` pool and are not used here.
	 */
	db?: AnyKysely;
	/**
	 * A Kysely dialect for PostgreSQL (the same drivers as `db`): kitgate makes the Kysely instance
	 * on the first query, shares it among the adapters of this dialect object, and `close()`
	 * destroys it.
	 */
	dialect?: Dialect;
	/** Schema that holds kitgate's tables (default `public`); created on first use if missing. */
	schema?: string;
	/** Apply pending migrations before the first query (default `true`). */
	autoMigrate?: boolean;
	/**
	 * Run the session check (every request's query) as a named statement that PostgreSQL parses and
	 * plans once per connection (default `true`). Turn it off behind a pooler that cannot keep
	 * statements (PgBouncer in transaction mode before 1.21); a statement the server lost is run
	 * unnamed anyway. Applies to `pool` and `connectionString` only.
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
	/**
	 * The `pg` pool: the one passed in, or the one shared by adapters of the same connection string
	 * and schema. An adapter on `db` or `dialect` has none: reading it throws.
	 */
	readonly pool: pg.Pool;
	/** The schema holding kitgate's tables. */
	readonly schema: string;
}

/** One pool (or Kysely instance), the Kysely instance scoped to a schema, and that schema's migration state (one run per kind of auth tables). */
interface Connection {
	/** The `pg` pool (`pool`, `connectionString`); absent on `db` and `dialect`. */
	pool?: pg.Pool;
	db: SqlConnection['db'];
	migrate: (tables: MigrationTables) => SqlConnection['migrate'];
	prepared?: NonNullable<SqlConnection['prepared']>;
	closed: boolean;
}

/**
 * Pools created by adapters, by schema and connection string. A lazy config creates an adapter per
 * request; they all use one pool, so connections and migration runs do not grow with requests.
 */
const ownPools = new Map<string, Connection>();
/** Pools passed in (`{ pool }`), by schema: migrations run once per pool and schema, not once per adapter. */
const passedIn = new WeakMap<pg.Pool, Map<string, Connection>>();
/** Kysely instances and dialects passed in: one base instance each, and one connection per schema. */
const passedKysely = new WeakMap<object, { base: Kysely<KitgateTables>; schemas: Map<string, Connection> }>();

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
 *
 * @example
 * // a Kysely instance of your own (here on postgres.js), e.g. where kitgate cannot load `pg` itself
 * import { Kysely } from 'kysely';
 * import { PostgresJSDialect } from 'kysely-postgres-js';
 * import postgres from 'postgres';
 *
 * const db = new Kysely<AppTables>({ dialect: new PostgresJSDialect({ postgres: postgres(env.DATABASE_URL) }) });
 * const adapter = PostgresAdapter({ db, schema: 'auth' });
 */
export function PostgresAdapter(options: PostgresAdapterOptions = {}): PostgresAdapter {
	const given = (['pool', 'connectionString', 'db', 'dialect'] as const).filter((option) => options[option] !== undefined);
	if (given.length > 1) {
		throw new InvalidConfiguration(
			`PostgresAdapter: pass one of \`pool\`, \`connectionString\`, \`db\` or \`dialect\`, not ${given.map((option) => `\`${option}\``).join(' and ')}`
		);
	}
	const viaKysely = options.db ?? options.dialect;
	const connectionString = options.connectionString ?? processEnv().DATABASE_URL;
	if (!options.pool && !viaKysely && !connectionString) {
		throw new InvalidConfiguration('PostgresAdapter: pass `pool`, `connectionString`, `db` or `dialect`, or set DATABASE_URL');
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
	} else if (viaKysely) {
		const { db, dialect } = options;
		const key: object = viaKysely;
		connection = () => {
			if (!attached || attached.closed) {
				let known = passedKysely.get(key);
				if (!known) passedKysely.set(key, (known = { base: (db as Kysely<KitgateTables> | undefined) ?? new Kysely<KitgateTables>({ dialect: dialect! }), schemas: new Map() }));
				let shared = known.schemas.get(schema);
				if (!shared) known.schemas.set(schema, (shared = connectKysely(known.base, schema)));
				attached = shared;
			}
			return attached;
		};
		// the instance kitgate made from a dialect is destroyed (every schema's adapters); yours stays
		close = async () => {
			const known = passedKysely.get(key);
			if (!known || !dialect) return;
			passedKysely.delete(key);
			for (const shared of known.schemas.values()) shared.closed = true;
			await known.base.destroy();
		};
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
			const pool = shared.pool!;
			if (!pool.ending && !pool.ended) await pool.end();
		};
	}

	const adapter = createSqlAdapter({
		adapterName: 'PostgresAdapter',
		connection: () => {
			const current = connection();
			const prepared = options.preparedStatements === false ? undefined : current.prepared;
			return { db: current.db, migrate: current.migrate(tables), ...(prepared ? { prepared } : {}) };
		},
		mapping,
		autoMigrate: options.autoMigrate ?? true,
		close
	});
	return Object.defineProperties(adapter, {
		pool: {
			enumerable: true,
			get: () => {
				const pool = (attached ?? connection()).pool;
				if (!pool) throw new InvalidConfiguration('PostgresAdapter: `pool` is the pg pool of an adapter on `pool` or `connectionString`; this one uses `db` or `dialect`');
				return pool;
			}
		},
		schema: { enumerable: true, value: schema }
	}) as PostgresAdapter;
}

function connect(pool: pg.Pool, schema: string): Connection {
	const base = new Kysely<KitgateTables>({ dialect: new PostgresDialect({ pool }) });
	return { ...connectKysely(base, schema), pool, prepared: preparedRunner(pool) };
}

/** A connection on a Kysely instance, scoped to `schema`, with that schema's migration runs. */
function connectKysely(base: Kysely<KitgateTables>, schema: string): Connection {
	const runs = new Map<MigrationTables, SqlConnection['migrate']>();
	const migrate = (tables: MigrationTables) => {
		let run = runs.get(tables);
		if (!run) runs.set(tables, (run = migrateOnce(() => runMigrations(base, { dialect: 'postgres', schema, tables }))));
		return run;
	};
	return { db: base.withSchema(schema), migrate, closed: false };
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
				'Import a driver yourself and pass it: `PostgresAdapter({ pool: new pg.Pool({ connectionString }) })`, or a Kysely instance or dialect (`db`, `dialect`).'
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

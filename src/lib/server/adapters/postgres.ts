// The PostgreSQL adapter: users, accounts, sessions, email tokens and passkeys in PostgreSQL, through
// a `pg` pool and Kysely; the schema is created on first use. Export path: `kitgate/adapters/postgres`.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { InvalidConfiguration } from '../core/errors.js';
import { createSqlAdapter, type SqlAdapter } from './sql/adapter.js';
import { runMigrations } from './sql/migrate.js';
import { postgresEncoding } from './sql/rows.js';
import type { KitgateTables } from './sql/tables.js';

export type { SqlAdapter } from './sql/adapter.js';

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
	 * `process.env.DATABASE_URL` when neither `pool` nor `connectionString` is given.
	 */
	connectionString?: string;
	/** Schema that holds kitgate's tables (default `public`); created on first use if missing. */
	schema?: string;
	/** Apply pending migrations before the first query (default `true`). */
	autoMigrate?: boolean;
}

/**
 * The PostgreSQL adapter: every adapter method, `migrate()`, `close()`, and the pool it uses.
 *
 * @example
 * const adapter: PostgresAdapter = PostgresAdapter({ pool });
 * await adapter.migrate(); // create the tables at start-up instead of on the first request
 */
export interface PostgresAdapter extends SqlAdapter {
	/** The `pg` pool: the one passed in, or the one the adapter created. */
	readonly pool: pg.Pool;
	/** The schema holding kitgate's tables. */
	readonly schema: string;
}

/**
 * Creates an adapter that stores everything in PostgreSQL. Several processes may share one
 * database: migrations take an advisory lock, and unique constraints settle races.
 * Call `close()` on shutdown to end the pool the adapter created.
 *
 * @example
 * import { SvelteKitAuth } from 'kitgate/sveltekit';
 * import { PostgresAdapter } from 'kitgate/adapters/postgres';
 *
 * const adapter = PostgresAdapter({ connectionString: process.env.DATABASE_URL, schema: 'auth' });
 * export const { handle } = SvelteKitAuth({ adapter, providers });
 * process.on('SIGTERM', () => adapter.close());
 */
export function PostgresAdapter(options: PostgresAdapterOptions = {}): PostgresAdapter {
	if (options.pool && options.connectionString !== undefined) {
		throw new InvalidConfiguration('PostgresAdapter: pass either `pool` or `connectionString`, not both');
	}
	const connectionString = options.connectionString ?? process.env.DATABASE_URL;
	if (!options.pool && !connectionString) {
		throw new InvalidConfiguration('PostgresAdapter: pass `pool` or `connectionString`, or set DATABASE_URL');
	}
	const pool = options.pool ?? createPool(connectionString);
	// A connection that drops while a query holds it makes pg emit 'error' on the client; without a
	// listener that event would crash the process. The query itself still fails, and the pool drops the client.
	pool.on('connect', (client) => client.on('error', () => undefined));
	const schema = options.schema ?? 'public';
	const base = new Kysely<KitgateTables>({ dialect: new PostgresDialect({ pool }) });

	const adapter = createSqlAdapter({
		db: base.withSchema(schema),
		encoding: postgresEncoding,
		autoMigrate: options.autoMigrate ?? true,
		runMigrations: () => runMigrations(base, { dialect: 'postgres', schema }),
		async close() {
			if (!options.pool && !pool.ending && !pool.ended) await pool.end();
		}
	});
	return { ...adapter, pool, schema };
}

function createPool(connectionString: string | undefined): pg.Pool {
	const pool = new pg.Pool({ connectionString });
	// An idle connection dropped by the server (restart, failover) must not crash the process:
	// the pool discards it, and the next query opens a new one.
	pool.on('error', () => undefined);
	return pool;
}

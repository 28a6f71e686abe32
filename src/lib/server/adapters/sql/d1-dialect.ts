// A Kysely dialect over a Cloudflare D1 binding, for `SQLiteAdapter({ d1: env.DB })` without a
// Kysely instance of the app's own: each query is one prepared statement. D1 has no interactive
// transactions, so this driver refuses them; the adapter writes atomically with the binding's
// batch() (./batches.ts). Internal.
import {
	SqliteAdapter,
	SqliteIntrospector,
	SqliteQueryCompiler,
	type CompiledQuery,
	type DatabaseConnection,
	type Dialect,
	type Driver,
	type QueryResult
} from 'kysely';
import type { D1DatabaseLike } from './batches.js';

/**
 * The dialect of a D1 binding.
 *
 * @example
 * const db = new Kysely<KitgateTables>({ dialect: d1Dialect(env.DB) });
 */
export function d1Dialect(database: D1DatabaseLike): Dialect {
	return {
		createAdapter: () => new SqliteAdapter(),
		createDriver: () => new D1Driver(database),
		createQueryCompiler: () => new SqliteQueryCompiler(),
		createIntrospector: (db) => new SqliteIntrospector(db)
	};
}

const NO_TRANSACTIONS = 'D1 has no interactive transactions: kitgate writes what must succeed together with the binding\'s batch()';

class D1Driver implements Driver {
	readonly #connection: D1Connection;

	constructor(database: D1DatabaseLike) {
		this.#connection = new D1Connection(database);
	}

	async init(): Promise<void> {}

	async acquireConnection(): Promise<DatabaseConnection> {
		return this.#connection;
	}

	async beginTransaction(): Promise<void> {
		throw new Error(NO_TRANSACTIONS);
	}

	async commitTransaction(): Promise<void> {
		throw new Error(NO_TRANSACTIONS);
	}

	async rollbackTransaction(): Promise<void> {
		throw new Error(NO_TRANSACTIONS);
	}

	async releaseConnection(): Promise<void> {}

	async destroy(): Promise<void> {}
}

class D1Connection implements DatabaseConnection {
	readonly #database: D1DatabaseLike;

	constructor(database: D1DatabaseLike) {
		this.#database = database;
	}

	async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
		const result = await this.#database
			.prepare(query.sql)
			.bind(...query.parameters)
			.all();
		const changes = result.meta?.changes ?? 0;
		const lastRowId = result.meta?.last_row_id;
		return {
			rows: (result.results ?? []) as R[],
			...(changes > 0 ? { numAffectedRows: BigInt(changes) } : {}),
			...(lastRowId === undefined || lastRowId === null ? {} : { insertId: BigInt(lastRowId) })
		};
	}

	// eslint-disable-next-line require-yield -- D1 answers whole results
	async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
		throw new Error('D1 does not stream query results');
	}
}

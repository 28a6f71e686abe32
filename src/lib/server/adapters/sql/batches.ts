// Statements that apply together or not at all, sent in one call: D1's `batch()` (D1 has no
// interactive transactions) and libSQL's `batch()` (its interactive transactions hold a connection
// of the client's pool across awaits, and concurrent ones fail with SQLITE_BUSY). Internal to the
// SQL adapters; `../sqlite.ts` picks the runner.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { InvalidConfiguration } from '../../core/errors.js';

/**
 * A query builder that runs alone (`execute()`), or compiled, as one statement of a batch or of a
 * transaction.
 *
 * @example
 * const statements: Statement[] = [db.deleteFrom('kitgate_two_factor').where('user_id', '=', id)];
 */
export type Statement = Compilable<unknown> & { execute(): Promise<unknown> };

/**
 * What one statement of a batch gave back: its rows (a SELECT, or a write's RETURNING) and how many
 * rows it changed.
 *
 * @example
 * const [{ rows, changes }] = await batch([query]);
 */
export interface BatchResult {
	rows: Record<string, unknown>[];
	changes: number;
}

/**
 * Runs compiled statements in order, as one transaction the database holds for the call: all of
 * them apply, or (one failing) none, and no other write runs between them.
 *
 * @example
 * const results = await batch([insert.compile(), select.compile()]);
 */
export type BatchRunner = (queries: readonly CompiledQuery[]) => Promise<BatchResult[]>;

/**
 * A Cloudflare D1 database binding (`env.DB`), as kitgate uses it: `prepare`, `bind`, `all` and
 * `batch`. The binding's own type, `D1Database` of `@cloudflare/workers-types`, fits it.
 *
 * @example
 * const d1: D1DatabaseLike = env.DB;
 */
export interface D1DatabaseLike {
	prepare(query: string): D1PreparedStatementLike;
	batch(statements: D1PreparedStatementLike[]): Promise<D1ResultLike[]>;
}

/**
 * A prepared D1 statement, as kitgate uses it.
 *
 * @example
 * const statement: D1PreparedStatementLike = env.DB.prepare('select 1');
 */
export interface D1PreparedStatementLike {
	bind(...values: unknown[]): D1PreparedStatementLike;
	all(): Promise<D1ResultLike>;
}

/**
 * What D1 answers for one statement, as kitgate reads it.
 *
 * @example
 * const { results, meta } = await env.DB.prepare('select 1').all();
 */
export interface D1ResultLike {
	results?: unknown[];
	meta?: { changes?: number; last_row_id?: number | null };
}

/**
 * The batch runner of a D1 binding: one `batch()` call, which D1 runs as one transaction.
 *
 * @example
 * const batch = d1Batches(env.DB);
 */
export function d1Batches(database: D1DatabaseLike): BatchRunner {
	return async (queries) => {
		if (queries.length === 0) return [];
		const results = await database.batch(queries.map((query) => database.prepare(query.sql).bind(...query.parameters)));
		return results.map((result) => ({ rows: (result.results ?? []) as Record<string, unknown>[], changes: Number(result.meta?.changes ?? 0) }));
	};
}

/** What kitgate uses of a libSQL client (`@libsql/client`): `batch()` in `write` mode. */
interface LibsqlClientLike {
	batch(statements: { sql: string; args: unknown[] }[], mode: 'write'): Promise<LibsqlResultLike[]>;
	execute: unknown;
	transaction: unknown;
	protocol: unknown;
}

interface LibsqlResultLike {
	columns: string[];
	rows: ArrayLike<unknown>[];
	rowsAffected: number;
}

function isLibsqlClient(value: unknown): value is LibsqlClientLike {
	const client = value as Partial<Record<keyof LibsqlClientLike, unknown>> | null | undefined;
	return (
		typeof client === 'object' &&
		client !== null &&
		typeof client.batch === 'function' &&
		typeof client.execute === 'function' &&
		typeof client.transaction === 'function' &&
		typeof client.protocol === 'string'
	);
}

/** The batch runner of a libSQL client: one `batch(…, 'write')` call, one transaction (BEGIN IMMEDIATE). */
function libsqlBatches(client: LibsqlClientLike): BatchRunner {
	return async (queries) => {
		if (queries.length === 0) return [];
		const results = await client.batch(
			queries.map((query) => ({ sql: query.sql, args: [...query.parameters] })),
			'write'
		);
		return results.map((result) => ({
			rows: Array.from(result.rows, (row) => Object.fromEntries(result.columns.map((column, index) => [column, row[index]]))),
			changes: Number(result.rowsAffected)
		}));
	};
}

/**
 * The batch runner a SQLite Kysely instance offers, found from the driver's connection: libSQL's
 * (`@libsql/kysely-libsql` gives its client as the connection's public `client`), or null for a
 * driver whose Kysely transactions do (better-sqlite3). A D1 connection from `kysely-d1` without
 * the binding is refused: D1 has no interactive transactions, and kitgate needs the binding's batch().
 *
 * @example
 * const batch = await batchesOf(db, 'SQLiteAdapter'); // null: use db.transaction()
 */
export async function batchesOf(db: Kysely<never>, adapterName: string): Promise<BatchRunner | null> {
	const connection = await db.getExecutor().provideConnection(async (connection) => connection);
	const client = (connection as { client?: unknown }).client;
	if (isLibsqlClient(client)) return libsqlBatches(client);
	if (connection.constructor?.name === 'D1Connection') {
		throw new InvalidConfiguration(
			`${adapterName}: this Kysely instance talks to Cloudflare D1, which has no interactive transactions; ` +
				'kitgate writes what must succeed together with the binding\'s batch(): pass it as well, `SQLiteAdapter({ db, d1: env.DB })`, or alone, `SQLiteAdapter({ d1: env.DB })`.'
		);
	}
	return null;
}

// Rate-limit counters and JWT session revocations in the SQL adapters' database, so several servers
// share them. Export path: `kitgate/adapters/rate-limit-store`. Tables come from migration 0002.
import { sql, type Kysely } from 'kysely';
import type { RateLimitCount, RateLimitStore, RevocationStore } from '../core/types.js';
import { sqlCore } from './sql/adapter.js';
import type { KitgateTables } from './sql/tables.js';
import type { PostgresAdapter } from './postgres.js';
import type { SQLiteAdapter } from './sqlite.js';

/**
 * Options of {@link SqlRateLimitStore}.
 *
 * @example
 * const options: SqlRateLimitStoreOptions = { autoMigrate: false };
 */
export interface SqlRateLimitStoreOptions {
	/** Apply the adapter's pending migrations before the first query (default `true`). */
	autoMigrate?: boolean;
	/** Least time between two deletions of expired rows by this process, in seconds (default 60). */
	sweepSeconds?: number;
}

/**
 * A store in SQL: both a {@link RateLimitStore} and a {@link RevocationStore}.
 *
 * @example
 * const store: SqlRateLimitStore = SqlRateLimitStore(adapter);
 */
export type SqlRateLimitStore = RateLimitStore & RevocationStore;

/** When each database connection next deletes expired rows: per connection, so a store created per request (a lazy config) does not sweep on every request. */
const nextSweep = new WeakMap<Kysely<KitgateTables>, number>();

/**
 * Keeps rate-limit counters and JWT revocations in the database of a kitgate SQL adapter, through
 * its own connection: every server using that database shares limits and revocations. Each hit
 * is one atomic upsert; expired rows are deleted now and then.
 *
 * @example
 * import { PostgresAdapter } from 'kitgate/adapters/postgres';
 * import { SqlRateLimitStore } from 'kitgate/adapters/rate-limit-store';
 *
 * const adapter = PostgresAdapter({ connectionString: process.env.DATABASE_URL });
 * const store = SqlRateLimitStore(adapter);
 * const config = { adapter, providers, rateLimit: { store } }; // JWT revocations use it too
 */
export function SqlRateLimitStore(adapter: SQLiteAdapter | PostgresAdapter, options: SqlRateLimitStoreOptions = {}): SqlRateLimitStore {
	const autoMigrate = options.autoMigrate ?? true;
	const sweepMs = (options.sweepSeconds ?? 60) * 1000;

	async function ready(now?: number): Promise<Kysely<KitgateTables>> {
		if (autoMigrate) await adapter.migrate();
		// the adapter's connection, opened on first use and shared with its other adapters
		const db: Kysely<KitgateTables> = adapter[sqlCore]();
		if (now !== undefined && now >= (nextSweep.get(db) ?? 0)) {
			nextSweep.set(db, now + sweepMs);
			await db.deleteFrom('rate_limits').where('reset_at', '<=', now).execute();
			await db.deleteFrom('session_revocations').where('keep_until', '<=', now).execute();
		}
		return db;
	}

	return {
		async increment(key, windowSeconds, now): Promise<RateLimitCount> {
			const resetAt = now + windowSeconds * 1000;
			// one statement: a new window, or one more hit in the open one
			const row = await (await ready(now))
				.insertInto('rate_limits')
				.values({ key, count: 1, reset_at: resetAt })
				.onConflict((conflict) =>
					conflict.column('key').doUpdateSet({
						count: sql<number>`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.count + 1 end`,
						reset_at: sql<number>`case when rate_limits.reset_at <= ${now} then excluded.reset_at else rate_limits.reset_at end`
					})
				)
				.returning(['count', 'reset_at'])
				.executeTakeFirstOrThrow();
			return { count: Number(row.count), resetAt: Number(row.reset_at) };
		},

		async decrement(key, now) {
			await (await ready(now))
				.updateTable('rate_limits')
				.set({ count: sql<number>`count - 1` })
				.where('key', '=', key)
				.where('reset_at', '>', now)
				.where('count', '>', 0)
				.execute();
		},

		async reset(key) {
			await (await ready()).deleteFrom('rate_limits').where('key', '=', key).execute();
		},

		async revokedAt(userId, now) {
			const row = await (await ready(now))
				.selectFrom('session_revocations')
				.select('revoked_at')
				.where('user_id', '=', userId)
				.where('keep_until', '>', now)
				.executeTakeFirst();
			return row ? Number(row.revoked_at) : null;
		},

		async revoke(userId, at, keepSeconds) {
			const keepUntil = at + keepSeconds * 1000;
			// a later revocation never moves the time back (servers' clocks differ a little); no sweep
			// here: `at` may lie ahead of now (a sign-out's is a minute ahead), and a sweep "as of" it
			// would delete revocations still needed
			await (await ready())
				.insertInto('session_revocations')
				.values({ user_id: userId, revoked_at: at, keep_until: keepUntil })
				.onConflict((conflict) =>
					conflict.column('user_id').doUpdateSet({
						revoked_at: sql<number>`case when excluded.revoked_at > session_revocations.revoked_at then excluded.revoked_at else session_revocations.revoked_at end`,
						keep_until: sql<number>`case when excluded.keep_until > session_revocations.keep_until then excluded.keep_until else session_revocations.keep_until end`
					})
				)
				.execute();
		}
	};
}

// Table mappings for the schemas Auth.js's adapters create, so kitgate runs on an Auth.js database as it
// is. Exported by `kitgate/adapters/postgres` (pg adapter, Drizzle PostgreSQL) and `kitgate/adapters/sqlite` (Drizzle SQLite).
import type { TableMapping } from './table-mapping.js';

/**
 * The tables of `@auth/pg-adapter`, as its schema.sql and the authjs.dev page document them:
 * `users`, `accounts`, `sessions`, `verification_token`; camelCase quoted columns (`"userId"`,
 * `"emailVerified"`); `SERIAL` integer ids; `TIMESTAMPTZ` dates; `BIGINT` `expires_at`. The schema
 * has no unique or foreign keys, so kitgate checks them itself (under advisory locks), and no
 * passkey table: add one (docs/adapters.md) and name it in `tables.authenticators` to use passkeys.
 *
 * @example
 * import { PostgresAdapter, authjsPgAdapterTables } from 'kitgate/adapters/postgres';
 *
 * const adapter = PostgresAdapter({ connectionString: process.env.DATABASE_URL, tables: authjsPgAdapterTables });
 */
export const authjsPgAdapterTables: TableMapping = Object.freeze({
	name: 'authjsPgAdapterTables',
	dialect: 'postgres',
	tables: {
		users: 'users',
		accounts: 'accounts',
		sessions: 'sessions',
		verificationTokens: 'verification_token',
		authenticators: null
	},
	columns: { oauth_token: null, oauth_token_secret: null, extra: null },
	types: { userId: 'integer', rowIds: 'none', dates: 'timestamptz', integers: 'int64', sessionState: 'text' },
	constraints: 'kitgate'
} as const);

/**
 * The default tables of `@auth/drizzle-adapter` on PostgreSQL (`defineTables()` of its `lib/pg.ts`):
 * `user`, `account`, `session`, `verificationToken`, `authenticator`; text ids kitgate generates;
 * `timestamp` (without time zone) dates holding UTC; `integer` `expires_at` and `counter`.
 *
 * @example
 * import { PostgresAdapter, authjsDrizzlePostgresTables } from 'kitgate/adapters/postgres';
 *
 * const adapter = PostgresAdapter({ connectionString: process.env.DATABASE_URL, tables: authjsDrizzlePostgresTables });
 */
export const authjsDrizzlePostgresTables: TableMapping = Object.freeze({
	name: 'authjsDrizzlePostgresTables',
	dialect: 'postgres',
	tables: {
		users: 'user',
		accounts: 'account',
		sessions: 'session',
		verificationTokens: 'verificationToken',
		authenticators: 'authenticator'
	},
	columns: { oauth_token: null, oauth_token_secret: null, extra: null },
	types: { userId: 'text', rowIds: 'none', dates: 'timestamp', integers: 'int32', sessionState: 'text' },
	constraints: 'database'
} as const);

/**
 * The default tables of `@auth/drizzle-adapter` on SQLite (`defineTables()` of its `lib/sqlite.ts`):
 * `user`, `account`, `session`, `verificationToken`, `authenticator`; text ids kitgate generates;
 * dates as integer epoch milliseconds (Drizzle's `timestamp_ms` mode); booleans as 0/1.
 *
 * @example
 * import { SQLiteAdapter, authjsDrizzleSqliteTables } from 'kitgate/adapters/sqlite';
 *
 * const adapter = SQLiteAdapter({ filename: 'sqlite.db', tables: authjsDrizzleSqliteTables });
 */
export const authjsDrizzleSqliteTables: TableMapping = Object.freeze({
	...authjsDrizzlePostgresTables,
	name: 'authjsDrizzleSqliteTables',
	dialect: 'sqlite',
	types: { userId: 'text', rowIds: 'none', dates: 'epoch-ms', integers: 'int64', sessionState: 'text' }
} as const);

// Which tables and columns the SQL adapters read and write, and how values are stored in them: kitgate's own
// schema, or tables another library created. Internal; the `tables` option of `../sqlite.ts` and `../postgres.ts`.
import { InvalidConfiguration } from '../../core/errors.js';

/**
 * The columns an adapter reads and writes, named after the fields they hold (Auth.js's names). A
 * column has one name in every table that has it: `userId` of accounts, sessions and authenticators.
 *
 * @example
 * const column: MappedColumn = 'providerAccountId';
 */
export type MappedColumn =
	| 'id'
	| 'name'
	| 'email'
	| 'emailVerified'
	| 'image'
	| 'userId'
	| 'type'
	| 'provider'
	| 'providerAccountId'
	| 'access_token'
	| 'id_token'
	| 'refresh_token'
	| 'expires_at'
	| 'scope'
	| 'token_type'
	| 'session_state'
	| 'oauth_token'
	| 'oauth_token_secret'
	| 'extra'
	| 'sessionToken'
	| 'expires'
	| 'identifier'
	| 'token'
	| 'credentialID'
	| 'credentialPublicKey'
	| 'counter'
	| 'credentialDeviceType'
	| 'credentialBackedUp'
	| 'transports';

/**
 * Account columns a schema may lack. Fields without a column are kept in kitgate's own
 * `kitgate_account_fields` table (see docs/decisions.md, "Adapter").
 *
 * @example
 * const missing: OptionalAccountColumn[] = ['oauth_token', 'oauth_token_secret', 'extra'];
 */
export type OptionalAccountColumn = 'oauth_token' | 'oauth_token_secret' | 'extra';

/**
 * Where a SQL adapter keeps users, accounts, sessions, verification tokens and passkeys: the table
 * names, column names and value types of an existing schema. kitgate reads and writes these tables
 * as they are and never alters them; its migrations then create only kitgate's own tables beside
 * them. Start from a preset (`authjsPgAdapterTables`, `authjsDrizzlePostgresTables` from
 * `kitgate/adapters/postgres`, `authjsDrizzleSqliteTables` from `kitgate/adapters/sqlite`) and
 * spread it to change names.
 *
 * @example
 * import { PostgresAdapter, authjsDrizzlePostgresTables, type TableMapping } from 'kitgate/adapters/postgres';
 *
 * // drizzle tables made with pgTableCreator((name) => `shop_${name}`)
 * const tables: TableMapping = {
 * 	...authjsDrizzlePostgresTables,
 * 	name: 'shop tables',
 * 	tables: { users: 'shop_user', accounts: 'shop_account', sessions: 'shop_session', verificationTokens: 'shop_verificationToken', authenticators: 'shop_authenticator' }
 * };
 * const adapter = PostgresAdapter({ connectionString: process.env.DATABASE_URL, tables });
 */
export interface TableMapping {
	/** Names the mapping in error messages, e.g. `authjsPgAdapterTables`. */
	readonly name: string;
	/** The database the tables are in; an adapter of the other one refuses the mapping. */
	readonly dialect: 'sqlite' | 'postgres';
	/** Table names. `authenticators: null`: the schema has no passkey table, and the passkey methods throw. */
	readonly tables: {
		readonly users: string;
		readonly accounts: string;
		readonly sessions: string;
		readonly verificationTokens: string;
		readonly authenticators: string | null;
	};
	/**
	 * Column names that differ from the field names (`{ userId: 'user_id' }`); `null` for an
	 * account column the schema lacks.
	 */
	readonly columns?: Partial<Record<Exclude<MappedColumn, OptionalAccountColumn>, string>> &
		Partial<Record<OptionalAccountColumn, string | null>>;
	/** How values are stored. */
	readonly types: {
		/** `text`: kitgate writes the user's id (a UUID); `integer`: the database numbers users (`SERIAL`). */
		readonly userId: 'text' | 'integer';
		/** Whether accounts and sessions have a text `id` that kitgate fills (`uuid`), or none it writes (`none`: no column, or the database fills it). */
		readonly rowIds: 'uuid' | 'none';
		/**
		 * `epoch-ms`: integer milliseconds (SQLite); `timestamptz`; `timestamp`: PostgreSQL's
		 * `timestamp` without time zone, holding UTC (as Drizzle writes it).
		 */
		readonly dates: 'epoch-ms' | 'timestamptz' | 'timestamp';
		/** Width of the integer columns `expires_at` and `counter`: `int32` (PostgreSQL `integer`) or `int64`. */
		readonly integers: 'int32' | 'int64';
		/** `session_state` as JSON text (`json`), or a provider's string as it is (`text`, what Auth.js writes). */
		readonly sessionState: 'json' | 'text';
	};
	/**
	 * `database`: the tables have unique keys (user email, provider account, credential ID) and
	 * foreign keys to users. `kitgate`: they have none (`@auth/pg-adapter`'s schema), so the
	 * adapter checks them itself in transactions under advisory locks (PostgreSQL only).
	 */
	readonly constraints: 'database' | 'kitgate';
}

/**
 * kitgate's own SQLite schema (migration 0001): the default of `SQLiteAdapter`.
 *
 * @example
 * const adapter = SQLiteAdapter({ tables: kitgateSqliteTables }); // same as no `tables`
 */
export const kitgateSqliteTables: TableMapping = Object.freeze({
	name: 'kitgate tables',
	dialect: 'sqlite',
	tables: {
		users: 'users',
		accounts: 'accounts',
		sessions: 'sessions',
		verificationTokens: 'verification_tokens',
		authenticators: 'authenticators'
	},
	columns: {
		emailVerified: 'email_verified',
		userId: 'user_id',
		providerAccountId: 'provider_account_id',
		sessionToken: 'session_token',
		credentialID: 'credential_id',
		credentialPublicKey: 'credential_public_key',
		credentialDeviceType: 'credential_device_type',
		credentialBackedUp: 'credential_backed_up'
	},
	types: { userId: 'text', rowIds: 'uuid', dates: 'epoch-ms', integers: 'int64', sessionState: 'json' },
	constraints: 'database'
} as const);

/**
 * kitgate's own PostgreSQL schema (migration 0001): the default of `PostgresAdapter`.
 *
 * @example
 * const adapter = PostgresAdapter({ tables: kitgatePostgresTables }); // same as no `tables`
 */
export const kitgatePostgresTables: TableMapping = Object.freeze({
	...kitgateSqliteTables,
	dialect: 'postgres',
	types: { ...kitgateSqliteTables.types, dates: 'timestamptz' }
} as const);

/**
 * Checks a mapping for the adapter of `dialect` and fills in its column names.
 *
 * @example
 * const resolved = resolveTableMapping(authjsPgAdapterTables, 'postgres', 'PostgresAdapter');
 */
export function resolveTableMapping(
	mapping: TableMapping,
	dialect: 'sqlite' | 'postgres',
	adapterName: string
): ResolvedTableMapping {
	const problem = (text: string) => new InvalidConfiguration(`${adapterName}: the table mapping "${mapping.name}" ${text}`);
	if (mapping.dialect !== dialect) throw problem(`is for ${mapping.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} tables`);
	if (mapping.constraints === 'kitgate' && dialect !== 'postgres') {
		throw problem('leaves the constraints to kitgate, which checks them under PostgreSQL advisory locks only');
	}
	if (dialect === 'sqlite' && mapping.types.dates !== 'epoch-ms') throw problem('stores dates in a way SQLite has no type for');
	for (const [table, name] of Object.entries(mapping.tables)) {
		if (name !== null && (typeof name !== 'string' || name.length === 0)) throw problem(`has no name for the ${table} table`);
	}
	const renamed = (mapping.columns ?? {}) as Partial<Record<MappedColumn, string | null>>;
	const column = (field: MappedColumn): string | null => (field in renamed ? (renamed[field] ?? null) : field);
	return { ...mapping, column, isOwnSchema: mapping === kitgateSqliteTables || mapping === kitgatePostgresTables };
}

/**
 * A checked mapping: `column(field)` gives a column's name, or null when the schema lacks it.
 *
 * @example
 * resolved.column('userId'); // 'user_id' in kitgate's schema, 'userId' in Auth.js's
 */
export interface ResolvedTableMapping extends TableMapping {
	column(field: MappedColumn): string | null;
	/** kitgate's own schema: its migration 0001 creates the tables. */
	readonly isOwnSchema: boolean;
}

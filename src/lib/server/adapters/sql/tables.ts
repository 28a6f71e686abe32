// Row types of the SQL adapters' tables, as Kysely sees them. Internal; the schema itself is in
// `sqlite-migrations.js` and `postgres-migrations.js`.
import type { ColumnType } from 'kysely';

/** A date column: epoch milliseconds in SQLite, `timestamptz` in PostgreSQL. */
type DateColumn = ColumnType<Date | number | string, Date | number, Date | number>;

/** An integer column that PostgreSQL returns as a string when it is a `bigint`. */
type BigIntColumn = ColumnType<number | string | bigint, number, number>;

/** A boolean column: INTEGER 0/1 in SQLite, `boolean` in PostgreSQL. */
type BooleanColumn = ColumnType<boolean | number | bigint, boolean | number, boolean | number>;

/**
 * A row of `users`.
 *
 * @example
 * type Row = Selectable<UsersTable>;
 */
export interface UsersTable {
	id: string;
	name: string | null;
	email: string | null;
	email_verified: DateColumn | null;
	image: string | null;
}

/**
 * A row of `accounts`: the identity columns, the token columns and `extra`.
 *
 * @example
 * type Row = Selectable<AccountsTable>;
 */
export interface AccountsTable {
	id: string;
	user_id: string;
	type: string;
	provider: string;
	provider_account_id: string;
	access_token: string | null;
	id_token: string | null;
	refresh_token: string | null;
	expires_at: BigIntColumn | null;
	scope: string | null;
	token_type: string | null;
	/** JSON text. */
	session_state: string | null;
	oauth_token: string | null;
	oauth_token_secret: string | null;
	/** JSON text of the fields that have no column of their own. */
	extra: string | null;
}

/**
 * A row of `sessions`.
 *
 * @example
 * type Row = Selectable<SessionsTable>;
 */
export interface SessionsTable {
	id: string;
	session_token: string;
	user_id: string;
	expires: DateColumn;
}

/**
 * A row of `verification_tokens`.
 *
 * @example
 * type Row = Selectable<VerificationTokensTable>;
 */
export interface VerificationTokensTable {
	identifier: string;
	token: string;
	expires: DateColumn;
}

/**
 * A row of `authenticators`.
 *
 * @example
 * type Row = Selectable<AuthenticatorsTable>;
 */
export interface AuthenticatorsTable {
	credential_id: string;
	user_id: string;
	provider_account_id: string;
	credential_public_key: string;
	counter: BigIntColumn;
	credential_device_type: string;
	credential_backed_up: BooleanColumn;
	transports: string | null;
}

/**
 * A row of `rate_limits`: one fixed window of a rate-limit counter (migration 0002).
 *
 * @example
 * type Row = Selectable<RateLimitsTable>;
 */
export interface RateLimitsTable {
	key: string;
	count: BigIntColumn;
	/** Epoch milliseconds at which the window ends. */
	reset_at: BigIntColumn;
}

/**
 * A row of `session_revocations`: JWT sessions of the user issued before `revoked_at` are revoked
 * (migration 0002). No foreign key: JWT users need not be stored.
 *
 * @example
 * type Row = Selectable<SessionRevocationsTable>;
 */
export interface SessionRevocationsTable {
	user_id: string;
	/** Epoch milliseconds. */
	revoked_at: BigIntColumn;
	/** Epoch milliseconds after which the row can go: every session it revokes has expired. */
	keep_until: BigIntColumn;
}

/**
 * The tables the SQL adapters read and write.
 *
 * @example
 * const db = new Kysely<KitgateTables>({ dialect });
 */
export interface KitgateTables {
	users: UsersTable;
	accounts: AccountsTable;
	sessions: SessionsTable;
	verification_tokens: VerificationTokensTable;
	authenticators: AuthenticatorsTable;
	rate_limits: RateLimitsTable;
	session_revocations: SessionRevocationsTable;
}

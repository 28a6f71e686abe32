// Row types of the SQL adapters' tables, as Kysely sees them. Internal; the schema itself is in
// `sqlite-migrations.ts` and `postgres-migrations.ts`.
import type { ColumnType } from 'kysely';

/** A date column: epoch milliseconds in SQLite, `timestamptz` in PostgreSQL. */
export type DateColumn = ColumnType<Date | number | string, Date | number, Date | number>;

/** An integer column that PostgreSQL returns as a string when it is a `bigint`. */
export type BigIntColumn = ColumnType<number | string | bigint, number, number>;

/** A boolean column: INTEGER 0/1 in SQLite, `boolean` in PostgreSQL. */
export type BooleanColumn = ColumnType<boolean | number | bigint, boolean | number, boolean | number>;

export interface UsersTable {
	id: string;
	name: string | null;
	email: string | null;
	email_verified: DateColumn | null;
	image: string | null;
}

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

export interface SessionsTable {
	id: string;
	session_token: string;
	user_id: string;
	expires: DateColumn;
}

export interface VerificationTokensTable {
	identifier: string;
	token: string;
	expires: DateColumn;
}

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

/** The tables the SQL adapters read and write. */
export interface KitgateTables {
	users: UsersTable;
	accounts: AccountsTable;
	sessions: SessionsTable;
	verification_tokens: VerificationTokensTable;
	authenticators: AuthenticatorsTable;
}

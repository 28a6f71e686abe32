// Converts between the adapter entities and the rows of the SQL tables, for both SQLite and
// PostgreSQL. Internal to the SQL adapters.
import type { Insertable, Selectable } from 'kysely';
import { AdapterError } from '../../core/errors.js';
import type {
	AdapterAccount,
	AdapterAuthenticator,
	AdapterSession,
	AdapterUser,
	VerificationToken
} from '../../core/types.js';
import type {
	AccountsTable,
	AuthenticatorsTable,
	SessionsTable,
	UsersTable,
	VerificationTokensTable
} from './tables.js';

/**
 * How a database wants the values it has no common type for.
 *
 * @example
 * const expires = encoding.date(session.expires); // a number for SQLite, a Date for PostgreSQL
 */
export interface ValueEncoding {
	date(value: Date): Date | number;
	boolean(value: boolean): boolean | number;
}

/**
 * SQLite: epoch milliseconds and 0/1, which read back the same in every time zone.
 *
 * @example
 * sqliteEncoding.date(new Date(0)); // 0
 */
export const sqliteEncoding: ValueEncoding = {
	date: (value) => value.getTime(),
	boolean: (value) => (value ? 1 : 0)
};

/**
 * PostgreSQL: `timestamptz` and `boolean`; the driver sends dates with their UTC offset.
 *
 * @example
 * postgresEncoding.boolean(true); // true
 */
export const postgresEncoding: ValueEncoding = {
	date: (value) => value,
	boolean: (value) => value
};

/**
 * Accepts a Date, an ISO string or epoch milliseconds; throws an AdapterError on anything else.
 *
 * @example
 * toDate('2030-01-01T00:00:00.000Z', 'expires'); // Date
 */
export function toDate(value: unknown, field: string): Date {
	const date =
		value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : null;
	if (!date || Number.isNaN(date.getTime())) throw new AdapterError(`${field} is not a valid date`);
	return date;
}

function readDate(value: Date | number | string | bigint): Date {
	return value instanceof Date ? new Date(value.getTime()) : new Date(typeof value === 'string' ? value : Number(value));
}

function readBoolean(value: boolean | number | bigint): boolean {
	return value === true || Number(value) === 1;
}

/**
 * Users without an email keep NULL, so any number of them fit under the unique constraint.
 *
 * @example
 * emailToColumn(''); // null
 */
export function emailToColumn(email: string | null | undefined): string | null {
	return email ? email : null;
}

/**
 * The `users` row of a user; unknown user fields are not stored.
 *
 * @example
 * db.insertInto('users').values(userToRow(user, user.id, sqliteEncoding));
 */
export function userToRow(user: AdapterUser, id: string, encoding: ValueEncoding): Insertable<UsersTable> {
	return {
		id,
		name: user.name ?? null,
		email: emailToColumn(user.email),
		email_verified: user.emailVerified ? encoding.date(toDate(user.emailVerified, 'emailVerified')) : null,
		image: user.image ?? null
	};
}

/**
 * The user of a `users` row; a NULL email reads back as `''`.
 *
 * @example
 * const user = userFromRow(await db.selectFrom('users').selectAll().executeTakeFirstOrThrow());
 */
export function userFromRow(row: Selectable<UsersTable>): AdapterUser {
	return {
		id: row.id,
		name: row.name,
		email: row.email ?? '',
		emailVerified: row.email_verified === null ? null : readDate(row.email_verified),
		image: row.image
	};
}

/**
 * The session of a `sessions` row.
 *
 * @example
 * const session = sessionFromRow(row);
 */
export function sessionFromRow(row: Pick<Selectable<SessionsTable>, 'session_token' | 'user_id' | 'expires'>): AdapterSession {
	return { sessionToken: row.session_token, userId: row.user_id, expires: readDate(row.expires) };
}

/**
 * The token of a `verification_tokens` row.
 *
 * @example
 * const token = verificationTokenFromRow(row);
 */
export function verificationTokenFromRow(row: Selectable<VerificationTokensTable>): VerificationToken {
	return { identifier: row.identifier, token: row.token, expires: readDate(row.expires) };
}

/**
 * The `authenticators` row of a WebAuthn credential.
 *
 * @example
 * db.insertInto('authenticators').values(authenticatorToRow(authenticator, postgresEncoding));
 */
export function authenticatorToRow(
	authenticator: AdapterAuthenticator,
	encoding: ValueEncoding
): Insertable<AuthenticatorsTable> {
	return {
		credential_id: authenticator.credentialID,
		user_id: authenticator.userId,
		provider_account_id: authenticator.providerAccountId,
		credential_public_key: authenticator.credentialPublicKey,
		counter: authenticator.counter,
		credential_device_type: authenticator.credentialDeviceType,
		credential_backed_up: encoding.boolean(authenticator.credentialBackedUp),
		transports: authenticator.transports ?? null
	};
}

/**
 * The WebAuthn credential of an `authenticators` row (a bigint counter reads back as a number).
 *
 * @example
 * const authenticator = authenticatorFromRow(row);
 */
export function authenticatorFromRow(row: Selectable<AuthenticatorsTable>): AdapterAuthenticator {
	return {
		credentialID: row.credential_id,
		userId: row.user_id,
		providerAccountId: row.provider_account_id,
		credentialPublicKey: row.credential_public_key,
		counter: Number(row.counter),
		credentialDeviceType: row.credential_device_type,
		credentialBackedUp: readBoolean(row.credential_backed_up),
		transports: row.transports
	};
}

// Account fields with a column of their own, and the values each column can hold.
const textColumns = [
	'access_token',
	'id_token',
	'refresh_token',
	'scope',
	'token_type',
	'oauth_token',
	'oauth_token_secret'
] as const;
type TextColumn = (typeof textColumns)[number];
const isTextColumn = (key: string): key is TextColumn => (textColumns as readonly string[]).includes(key);

/**
 * Token fields go to their columns; any other field (or a field whose value does not fit its
 * column) goes into the JSON `extra` column, so whatever a provider's `account()` returns reads back.
 *
 * @example
 * accountToRow({ ...account, refresh_token_expires_in: 600 }, randomUUID()).extra; // '{"refresh_token_expires_in":600}'
 */
export function accountToRow(account: AdapterAccount, id: string): Insertable<AccountsTable> {
	const { userId, type, provider, providerAccountId, ...fields } = account;
	const row: Insertable<AccountsTable> = {
		id,
		user_id: userId,
		type,
		provider,
		provider_account_id: providerAccountId
	};
	const extra: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(fields)) {
		if (value === undefined || value === null) continue;
		if (isTextColumn(key) && typeof value === 'string') row[key] = value;
		else if (key === 'expires_at' && Number.isSafeInteger(value)) row.expires_at = value as number;
		else if (key === 'session_state') row.session_state = toJson(value, key);
		else extra[key] = value;
	}
	row.extra = Object.keys(extra).length > 0 ? toJson(extra, 'extra account fields') : null;
	return row;
}

/**
 * The account of an `accounts` row: the `extra` fields merged back, NULL columns left out.
 *
 * @example
 * const account = accountFromRow(row);
 */
export function accountFromRow(row: Selectable<AccountsTable>): AdapterAccount {
	const account: AdapterAccount = {
		...(row.extra === null ? {} : (JSON.parse(row.extra) as Record<string, unknown>)),
		userId: row.user_id,
		type: row.type as AdapterAccount['type'],
		provider: row.provider,
		providerAccountId: row.provider_account_id
	};
	for (const column of textColumns) {
		const value = row[column];
		if (value !== null) account[column] = value;
	}
	if (row.expires_at !== null) account.expires_at = Number(row.expires_at);
	if (row.session_state !== null) account.session_state = JSON.parse(row.session_state);
	return account;
}

function toJson(value: unknown, field: string): string {
	try {
		return JSON.stringify(value);
	} catch (cause) {
		throw new AdapterError(`${field} cannot be stored as JSON`, { cause });
	}
}

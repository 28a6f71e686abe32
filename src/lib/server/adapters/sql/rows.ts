// Converts between the adapter entities and the rows of the auth tables, in the value types of the
// table mapping (ids, dates, booleans, integer widths). Internal to the SQL adapters.
import { AdapterError } from '../../core/errors.js';
import type {
	AdapterAccount,
	AdapterAuthenticator,
	AdapterSession,
	AdapterUser,
	VerificationToken
} from '../../core/types.js';
import type { ResolvedTableMapping } from './table-mapping.js';
import type { AccountRow, AuthenticatorRow, SessionRow, StoredDate, UserRow, VerificationTokenRow } from './tables.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * How the mapped tables want values: built once per adapter from its table mapping.
 *
 * @example
 * const values = valueCodec(resolveTableMapping(authjsPgAdapterTables, 'postgres', 'PostgresAdapter'));
 * values.userId('7'); // 7
 */
export interface ValueCodec {
	/** A date as the date columns hold it. */
	date(value: Date): Date | number | string;
	boolean(value: boolean): boolean | number;
	/** A user id as the id columns hold it; null when no user can have it (`'abc'` where ids are integers). */
	userId(id: string): string | number | null;
	/** Whether `expires_at` fits its column. */
	fitsInteger(value: number): boolean;
	/** The stored form of a WebAuthn counter (an unsigned 32-bit number). */
	counter(value: number): number;
	readCounter(value: AuthenticatorRow['counter']): number;
	readonly sessionState: 'json' | 'text';
	/** Account columns the table has, of those it may lack. */
	readonly hasColumn: Readonly<Record<'oauth_token' | 'oauth_token_secret' | 'extra', boolean>>;
}

/**
 * The codec of a mapping.
 *
 * @example
 * const values = valueCodec(mapping);
 */
export function valueCodec(mapping: ResolvedTableMapping): ValueCodec {
	const { types } = mapping;
	const int32 = types.integers === 'int32';
	return {
		date:
			types.dates === 'epoch-ms'
				? (value) => value.getTime()
				: // `timestamp` holds UTC: an ISO string is read as UTC wall time (its zone suffix ignored);
					// a Date would be sent in the server process's own zone
					types.dates === 'timestamp'
					? (value) => value.toISOString()
					: (value) => value,
		boolean: mapping.dialect === 'sqlite' ? (value) => (value ? 1 : 0) : (value) => value,
		userId: types.userId === 'integer' ? integerUserId : (id) => id,
		fitsInteger: (value) => Number.isSafeInteger(value) && (!int32 || (value >= INT32_MIN && value <= INT32_MAX)),
		// A signed 32-bit column holds the counter's 32 bits: values past 2^31 - 1 are stored negative and read back unsigned.
		counter: int32 ? (value) => value | 0 : (value) => value,
		readCounter: int32 ? (value) => Number(value) >>> 0 : (value) => Number(value),
		sessionState: types.sessionState,
		hasColumn: {
			oauth_token: mapping.column('oauth_token') !== null,
			oauth_token_secret: mapping.column('oauth_token_secret') !== null,
			extra: mapping.column('extra') !== null
		}
	};
}

/** Ids of a `SERIAL` column: a canonical decimal integer in its range, or nothing. */
function integerUserId(id: string): number | null {
	if (!/^(0|[1-9]\d{0,9})$/.test(id)) return null;
	const value = Number(id);
	return value <= INT32_MAX ? value : null;
}

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

function readDate(value: StoredDate): Date {
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
 * The users row of a user, without its id; unknown user fields are not stored.
 *
 * @example
 * db.insertInto(table).values({ id, ...userToRow(user, values) });
 */
export function userToRow(user: AdapterUser, values: ValueCodec): Omit<UserRow, 'id'> {
	return {
		name: user.name ?? null,
		email: emailToColumn(user.email),
		emailVerified: user.emailVerified ? values.date(toDate(user.emailVerified, 'emailVerified')) : null,
		image: user.image ?? null
	};
}

/**
 * The user of a users row; a NULL email reads back as `''`, a numbered id as its decimal string.
 *
 * @example
 * const user = userFromRow(row);
 */
export function userFromRow(row: UserRow): AdapterUser {
	return {
		id: String(row.id),
		name: row.name,
		email: row.email ?? '',
		emailVerified: row.emailVerified === null ? null : readDate(row.emailVerified),
		image: row.image
	};
}

/**
 * The session of a sessions row.
 *
 * @example
 * const session = sessionFromRow(row);
 */
export function sessionFromRow(row: SessionRow): AdapterSession {
	return { sessionToken: row.sessionToken, userId: String(row.userId), expires: readDate(row.expires) };
}

/**
 * The token of a verification tokens row.
 *
 * @example
 * const token = verificationTokenFromRow(row);
 */
export function verificationTokenFromRow(row: VerificationTokenRow): VerificationToken {
	return { identifier: row.identifier, token: row.token, expires: readDate(row.expires) };
}

/**
 * The authenticators row of a WebAuthn credential, its user id already encoded.
 *
 * @example
 * db.insertInto(table).values(authenticatorToRow(authenticator, values.userId(authenticator.userId), values));
 */
export function authenticatorToRow(
	authenticator: AdapterAuthenticator,
	userId: string | number,
	values: ValueCodec
): Record<keyof AuthenticatorRow, unknown> {
	return {
		credentialID: authenticator.credentialID,
		userId,
		providerAccountId: authenticator.providerAccountId,
		credentialPublicKey: authenticator.credentialPublicKey,
		counter: values.counter(authenticator.counter),
		credentialDeviceType: authenticator.credentialDeviceType,
		credentialBackedUp: values.boolean(authenticator.credentialBackedUp),
		transports: authenticator.transports ?? null
	};
}

/**
 * The WebAuthn credential of an authenticators row.
 *
 * @example
 * const authenticator = authenticatorFromRow(row, values);
 */
export function authenticatorFromRow(row: AuthenticatorRow, values: ValueCodec): AdapterAuthenticator {
	return {
		credentialID: row.credentialID,
		userId: String(row.userId),
		providerAccountId: row.providerAccountId,
		credentialPublicKey: row.credentialPublicKey,
		counter: values.readCounter(row.counter),
		credentialDeviceType: row.credentialDeviceType,
		credentialBackedUp: readBoolean(row.credentialBackedUp),
		transports: row.transports
	};
}

// Account fields that may have a column of their own: text tokens, and the OAuth 1.0a pair where the schema has it.
const tokenColumns = ['access_token', 'id_token', 'refresh_token', 'scope', 'token_type'] as const;
const oauth1Columns = ['oauth_token', 'oauth_token_secret'] as const;

/**
 * An account split into its row (without the user id, which the caller encodes) and the fields
 * that have no column, or whose value does not fit it (a scope list, an `expires_at` past the
 * column's range): those go to the `extra` column or kitgate's side table, so whatever a
 * provider's `account()` returns reads back.
 *
 * @example
 * const { row, extra } = accountToRow({ ...account, refresh_token_expires_in: 600 }, values);
 * extra; // { refresh_token_expires_in: 600 }
 */
export function accountToRow(
	account: AdapterAccount,
	values: ValueCodec
): { row: Omit<AccountRow, 'userId' | 'extra'>; extra: Record<string, unknown> | null } {
	const { userId: _userId, type, provider, providerAccountId, ...fields } = account;
	const row: Omit<AccountRow, 'userId' | 'extra'> = {
		type,
		provider,
		providerAccountId,
		access_token: null,
		id_token: null,
		refresh_token: null,
		expires_at: null,
		scope: null,
		token_type: null,
		session_state: null
	};
	for (const column of oauth1Columns) if (values.hasColumn[column]) row[column] = null;
	const extra: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(fields)) {
		if (value === undefined || value === null) continue;
		if (isColumn(key, tokenColumns) && typeof value === 'string') row[key] = value;
		else if (isColumn(key, oauth1Columns) && values.hasColumn[key] && typeof value === 'string') row[key] = value;
		else if (key === 'expires_at' && typeof value === 'number' && values.fitsInteger(value)) row.expires_at = value;
		else if (key === 'session_state' && values.sessionState === 'json') row.session_state = toJson(value, key);
		else if (key === 'session_state' && typeof value === 'string') row.session_state = value;
		else extra[key] = value;
	}
	return { row, extra: Object.keys(extra).length > 0 ? extra : null };
}

/**
 * The account of an accounts row and its extra fields (from the `extra` column or the side table),
 * NULL columns left out.
 *
 * @example
 * const account = accountFromRow(row, values, sideFields);
 */
export function accountFromRow(row: AccountRow, values: ValueCodec, sideFields: string | null = null): AdapterAccount {
	const extraText = row.extra ?? sideFields;
	const account: AdapterAccount = {
		...(extraText ? (JSON.parse(extraText) as Record<string, unknown>) : {}),
		userId: String(row.userId),
		type: row.type as AdapterAccount['type'],
		provider: row.provider,
		providerAccountId: row.providerAccountId
	};
	for (const column of [...tokenColumns, ...oauth1Columns]) {
		const value = row[column];
		if (value !== null && value !== undefined) account[column] = value;
	}
	if (row.expires_at !== null) account.expires_at = Number(row.expires_at);
	if (row.session_state !== null) {
		account.session_state = values.sessionState === 'json' ? JSON.parse(row.session_state) : row.session_state;
	}
	return account;
}

/**
 * JSON text of a value, or an AdapterError naming the field.
 *
 * @example
 * toJson({ a: 1 }, 'extra account fields'); // '{"a":1}'
 */
export function toJson(value: unknown, field: string): string {
	try {
		return JSON.stringify(value);
	} catch (cause) {
		throw new AdapterError(`${field} cannot be stored as JSON`, { cause });
	}
}

function isColumn<Name extends string>(key: string, names: readonly Name[]): key is Name {
	return (names as readonly string[]).includes(key);
}

// The auth tables of a table mapping as the queries use them: physical table and column names, select
// lists aliased back to field names, and rows renamed to columns. Internal to the SQL adapters.
import { sql, type AliasedRawBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { MappedColumn, ResolvedTableMapping } from './table-mapping.js';

/** The auth tables through Kysely without compile-time names: the mapping decides them at run time. */
export type AuthTablesDb = Kysely<Record<string, Record<string, unknown>>>;

const fieldsOf = {
	users: ['id', 'name', 'email', 'emailVerified', 'image'],
	accounts: [
		'userId',
		'type',
		'provider',
		'providerAccountId',
		'access_token',
		'id_token',
		'refresh_token',
		'expires_at',
		'scope',
		'token_type',
		'session_state',
		'oauth_token',
		'oauth_token_secret',
		'extra'
	],
	sessions: ['sessionToken', 'userId', 'expires'],
	verificationTokens: ['identifier', 'token', 'expires'],
	authenticators: [
		'credentialID',
		'userId',
		'providerAccountId',
		'credentialPublicKey',
		'counter',
		'credentialDeviceType',
		'credentialBackedUp',
		'transports'
	]
} as const satisfies Record<string, readonly MappedColumn[]>;

const dateFields: ReadonlySet<MappedColumn> = new Set(['emailVerified', 'expires']);

/** The kinds of rows kitgate keeps in the auth tables. */
export type AuthTable = keyof typeof fieldsOf;

/**
 * One auth table of a mapping.
 *
 * @example
 * const users = mappedTable(mapping, 'users');
 * db.selectFrom(`${users.name} as u`).select(users.selection('u')).where(users.column('email', 'u'), '=', email);
 */
export interface MappedTable {
	/** The table's name. */
	readonly name: string;
	/** `alias.column` (or the bare column) of a field, for where clauses and joins. */
	column(field: MappedColumn, alias?: string): string;
	/** Every column the table has, aliased to its field name; dates converted to what the driver reads right. */
	selection(alias?: string): AliasedRawBuilder<unknown, string>[];
	/** A row keyed by field names, keyed by column names instead; fields without a column are left out. */
	values(row: Partial<Record<MappedColumn, unknown>>): Record<string, unknown>;
}

/**
 * The table of `kind` in `mapping`, or null when the mapping has none (a schema without passkeys).
 *
 * @example
 * const authenticators = mappedTable(mapping, 'authenticators'); // null for authjsPgAdapterTables
 */
export function mappedTable(mapping: ResolvedTableMapping, kind: AuthTable): MappedTable | null {
	const name = mapping.tables[kind];
	if (name === null) return null;
	const present = (fieldsOf[kind] as readonly MappedColumn[]).filter((field) => mapping.column(field) !== null);
	const columnName = (field: MappedColumn): string => {
		const column = mapping.column(field);
		if (column === null) throw new Error(`the ${kind} table of "${mapping.name}" has no column for ${field}`);
		return column;
	};
	// `timestamp` columns hold UTC; read them as such, not in the zone the driver guesses
	const read = (field: MappedColumn, ref: RawBuilder<unknown>): RawBuilder<unknown> =>
		mapping.types.dates === 'timestamp' && dateFields.has(field) ? sql`(${ref} at time zone 'UTC')` : ref;
	return {
		name,
		column: (field, alias) => (alias ? `${alias}.${columnName(field)}` : columnName(field)),
		selection: (alias) =>
			present.map((field) => read(field, sql.ref(alias ? `${alias}.${columnName(field)}` : columnName(field))).as(field)),
		values: (row) => {
			const out: Record<string, unknown> = {};
			for (const [field, value] of Object.entries(row) as [MappedColumn, unknown][]) {
				const column = mapping.column(field);
				if (column !== null && value !== undefined) out[column] = value;
			}
			return out;
		}
	};
}

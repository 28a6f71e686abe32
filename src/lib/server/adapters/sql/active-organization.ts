// The active organization of a database session (docs/organizations.md): a column of kitgate's own
// sessions table (migration 0010), or beside another library's tables, a row of
// kitgate_session_organizations keyed by the session token (0011), written and deleted with the
// session by the adapter. Internal to the SQL adapters.
import { sql, type AliasedRawBuilder, type Kysely } from 'kysely';
import type { AdapterSession } from '../../core/types.js';
import type { Statement } from './batches.js';
import type { AuthTablesDb, MappedTable } from './mapped-tables.js';
import type { KitgateTables } from './tables.js';

type Db = Kysely<KitgateTables>;

/** The column of kitgate's own sessions table (migration 0010). */
const ACTIVE_COLUMN = 'active_organization_id';

/**
 * Where a session's active organization is kept: `column` on kitgate's own sessions table, `side`
 * in kitgate_session_organizations beside another library's.
 *
 * @example
 * const where: ActiveOrganizationPlace = mapping.isOwnSchema ? 'column' : 'side';
 */
export type ActiveOrganizationPlace = 'column' | 'side';

/**
 * The selection of the active organization (as `ao_id`) for a sessions query with alias `s`; on
 * `side`, the query must join {@link joinActiveOrganization}'s table.
 *
 * @example
 * query.select(activeOrganizationSelection('column'));
 */
export function activeOrganizationSelection(place: ActiveOrganizationPlace): AliasedRawBuilder<unknown, 'ao_id'> {
	return sql.ref(place === 'column' ? `s.${ACTIVE_COLUMN}` : 'so.organization_id').as('ao_id');
}

/**
 * The join table alias and its condition, for a sessions query (alias `s`) where the active
 * organization lives beside the sessions table.
 *
 * @example
 * query.leftJoin(...joinActiveOrganization(sessions));
 */
export function joinActiveOrganization(sessions: MappedTable): ['kitgate_session_organizations as so', 'so.session_token', string] {
	return ['kitgate_session_organizations as so', 'so.session_token', sessions.column('sessionToken', 's')];
}

/**
 * `session` with the active organization its row names (`ao_id`); none: the field stays absent.
 *
 * @example
 * const session = withActiveOrganization(sessionFromRow(row), row);
 */
export function withActiveOrganization(session: AdapterSession, row: unknown): AdapterSession {
	const id = (row as { ao_id?: unknown }).ao_id;
	return typeof id === 'string' && id.length > 0 ? { ...session, activeOrganizationId: id } : session;
}

/**
 * The statements that make `organizationId` (null: none) the active organization of the session
 * with this token; nothing happens for a token no session has.
 *
 * @example
 * const statements = activeOrganizationWrites(db, sessions, 'side', token, 'org-1');
 */
export function activeOrganizationWrites(
	db: Db,
	sessions: MappedTable,
	place: ActiveOrganizationPlace,
	sessionToken: string,
	organizationId: string | null
): Statement[] {
	const auth = db as unknown as AuthTablesDb;
	if (place === 'column') {
		return [auth.updateTable(sessions.name).set({ [ACTIVE_COLUMN]: organizationId }).where(sessions.column('sessionToken'), '=', sessionToken)];
	}
	if (organizationId === null) return [sessionOrganizationDelete(db, sessionToken)];
	const session = auth.selectFrom(sessions.name).select(sql.lit(1).as('found')).where(sessions.column('sessionToken'), '=', sessionToken);
	return [
		db
			.insertInto('kitgate_session_organizations')
			.columns(['session_token', 'organization_id'])
			// INSERT … SELECT: PostgreSQL types the selected parameters as text only when cast
			.expression(
				auth
					.selectNoFrom([sql<string>`cast(${sessionToken} as text)`.as('session_token'), sql<string>`cast(${organizationId} as text)`.as('organization_id')])
					.where((eb) => eb.exists(session))
			)
			.onConflict((conflict) => conflict.column('session_token').doUpdateSet((eb) => ({ organization_id: eb.ref('excluded.organization_id') })))
	];
}

/**
 * The statement that deletes the side row of the session with this token (`side` only).
 *
 * @example
 * const statement = sessionOrganizationDelete(db, token);
 */
export function sessionOrganizationDelete(db: Db, sessionToken: string): Statement {
	return db.deleteFrom('kitgate_session_organizations').where('session_token', '=', sessionToken);
}

/**
 * The statement that deletes the side row of the session with this token once no session has the
 * token (after a delete that may not have matched).
 *
 * @example
 * const statements = [deleteSessionIfOwned, sessionOrganizationOfGoneSessionDelete(db, sessions, token)];
 */
export function sessionOrganizationOfGoneSessionDelete(db: Db, sessions: MappedTable, sessionToken: string): Statement {
	const stillThere = (db as unknown as AuthTablesDb).selectFrom(sessions.name).select(sql.lit(1).as('found')).where(sessions.column('sessionToken'), '=', sessionToken);
	return db
		.deleteFrom('kitgate_session_organizations')
		.where('session_token', '=', sessionToken)
		.where(({ not, exists }) => not(exists(stillThere)));
}

/**
 * The statement that deletes the side rows of every session of a user: to run before the sessions' delete.
 *
 * @example
 * const statements = [sessionOrganizationsOfUserDelete(db, sessions, 42), deleteSessions];
 */
export function sessionOrganizationsOfUserDelete(db: Db, sessions: MappedTable, userId: string | number): Statement {
	const tokens = (db as unknown as AuthTablesDb).selectFrom(sessions.name).select(sql.ref<string>(sessions.column('sessionToken')).as('token')).where(sessions.column('userId'), '=', userId);
	return db.deleteFrom('kitgate_session_organizations').where('session_token', 'in', tokens);
}

/**
 * The statement that clears an organization as the active one of every session (its deletion).
 *
 * @example
 * const statement = activeOrganizationClear(db, sessions, 'column', 'org-1');
 */
export function activeOrganizationClear(db: Db, sessions: MappedTable, place: ActiveOrganizationPlace, organizationId: string): Statement {
	if (place === 'side') return db.deleteFrom('kitgate_session_organizations').where('organization_id', '=', organizationId);
	return (db as unknown as AuthTablesDb).updateTable(sessions.name).set({ [ACTIVE_COLUMN]: null }).where(ACTIVE_COLUMN, '=', organizationId);
}

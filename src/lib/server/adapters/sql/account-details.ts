// kitgate_session_details and kitgate_passkey_details (migration 0005): what account management
// shows about a session (when its user signed in, the browser's User-Agent) and a passkey (its
// name, AAGUID, when it was registered and last used), beside whichever auth tables the adapter
// uses: kitgate's own and Auth.js's alike, which kitgate never alters. Each row is stamped with
// the user it was written for and read only while the session or passkey row has that user.
// Internal to the SQL adapters.
import { sql, type Kysely } from 'kysely';
import type { AdapterAuthenticator, AdapterSession, AuthenticatorChanges } from '../../core/types.js';
import type { Statement } from './batches.js';
import type { AuthTablesDb, MappedTable } from './mapped-tables.js';
import type { KitgateTables } from './tables.js';

type Db = Kysely<KitgateTables>;

/** The owner as the details tables store it: the user id as text (the auth tables may number users). */
const ownerKey = (userId: string | number) => String(userId);

/** Epoch milliseconds of a date, or null. */
function epoch(value: Date | string | number | null | undefined): number | null {
	if (value === null || value === undefined) return null;
	const time = value instanceof Date ? value.getTime() : new Date(value).getTime();
	return Number.isFinite(time) ? time : null;
}

function dateOf(value: unknown): Date | undefined {
	if (value === null || value === undefined) return undefined;
	const time = Number(value);
	return Number.isFinite(time) ? new Date(time) : undefined;
}

/**
 * The columns a sessions query selects from the joined details row (alias `sd`).
 *
 * @example
 * query.leftJoin('kitgate_session_details as sd', 'sd.session_token', sessions.column('sessionToken', 's')).select(sessionDetailsSelection)
 */
export const sessionDetailsSelection = ['sd.user_id as sd_owner', 'sd.created_at as sd_created_at', 'sd.user_agent as sd_user_agent'] as const;

/**
 * A session with the details its joined row holds, when that row was written for the session's user.
 *
 * @example
 * const session = withSessionDetails(sessionFromRow(row), row);
 */
export function withSessionDetails(session: AdapterSession, row: unknown): AdapterSession {
	const details = row as { sd_owner?: string | null; sd_created_at?: unknown; sd_user_agent?: string | null };
	if (details.sd_owner !== ownerKey(session.userId)) return session;
	const createdAt = dateOf(details.sd_created_at);
	return {
		...session,
		...(createdAt ? { createdAt } : {}),
		...(details.sd_user_agent ? { userAgent: details.sd_user_agent } : {})
	};
}

/**
 * The statements that write the details of a new session (replacing a row left for the same
 * token): none when it has no details. Run them with the session's insert, all or nothing.
 *
 * @example
 * const statements = [insertSession, ...sessionDetailsWrites(db, session)];
 */
export function sessionDetailsWrites(db: Db, session: AdapterSession): Statement[] {
	const createdAt = epoch(session.createdAt);
	if (createdAt === null && !session.userAgent) return [];
	return [
		db.deleteFrom('kitgate_session_details').where('session_token', '=', session.sessionToken),
		db
			.insertInto('kitgate_session_details')
			.values({ session_token: session.sessionToken, user_id: ownerKey(session.userId), created_at: createdAt, user_agent: session.userAgent ?? null })
	];
}

/** True when a session carries details to write. */
export function hasSessionDetails(session: AdapterSession): boolean {
	return epoch(session.createdAt) !== null || Boolean(session.userAgent);
}

/**
 * The statement that deletes the details of the session with this token, whoever they were
 * written for.
 *
 * @example
 * await sessionDetailsDelete(db, token).execute();
 */
export function sessionDetailsDelete(db: Db, sessionToken: string): Statement {
	return db.deleteFrom('kitgate_session_details').where('session_token', '=', sessionToken);
}

/**
 * The statement that deletes the details of the session with this token once no session row has
 * the token: after a delete that may not have matched (`deleteSessionOfUser` of another user), the
 * details of a session still there stay, and those of a session gone go, whoever they were
 * written for (a session moved to another user keeps its first user's stamp).
 *
 * @example
 * const statements = [deleteSessionIfOwned, sessionDetailsOfGoneSessionDelete(db, sessions, token)];
 */
export function sessionDetailsOfGoneSessionDelete(db: Db, sessions: MappedTable, sessionToken: string): Statement {
	const sessionStillThere = (db as unknown as AuthTablesDb)
		.selectFrom(sessions.name)
		.select(sql.lit(1).as('found'))
		.where(sessions.column('sessionToken'), '=', sessionToken);
	return db
		.deleteFrom('kitgate_session_details')
		.where('session_token', '=', sessionToken)
		.where(({ not, exists }) => not(exists(sessionStillThere)));
}

/**
 * The statements that delete every details row written for `userId` (sessions and passkeys), when
 * the user goes or all their sessions do.
 *
 * @example
 * const statements = detailsOfUserDeletes(db, userId, { sessions: true, passkeys: true });
 */
export function detailsOfUserDeletes(db: Db, userId: string | number, what: { sessions: boolean; passkeys: boolean }): Statement[] {
	return [
		...(what.sessions ? [db.deleteFrom('kitgate_session_details').where('user_id', '=', ownerKey(userId))] : []),
		...(what.passkeys ? [db.deleteFrom('kitgate_passkey_details').where('user_id', '=', ownerKey(userId))] : [])
	];
}

/** The columns an authenticators query selects from the joined details row (alias `pd`). */
export const passkeyDetailsSelection = [
	'pd.user_id as pd_owner',
	'pd.name as pd_name',
	'pd.aaguid as pd_aaguid',
	'pd.created_at as pd_created_at',
	'pd.last_used_at as pd_last_used_at'
] as const;

/**
 * A passkey with the details its joined row holds, when that row was written for the passkey's user.
 *
 * @example
 * const passkey = withPasskeyDetails(authenticatorFromRow(row, values), row);
 */
export function withPasskeyDetails(passkey: AdapterAuthenticator, row: unknown): AdapterAuthenticator {
	const details = row as { pd_owner?: string | null; pd_name?: string | null; pd_aaguid?: string | null; pd_created_at?: unknown; pd_last_used_at?: unknown };
	if (details.pd_owner !== ownerKey(passkey.userId)) return passkey;
	const createdAt = dateOf(details.pd_created_at);
	const lastUsedAt = dateOf(details.pd_last_used_at);
	return {
		...passkey,
		...(details.pd_name ? { name: details.pd_name } : {}),
		...(details.pd_aaguid ? { aaguid: details.pd_aaguid } : {}),
		...(createdAt ? { createdAt } : {}),
		...(lastUsedAt ? { lastUsedAt } : {})
	};
}

/** True when a new passkey carries details to write. */
export function hasPasskeyDetails(passkey: AdapterAuthenticator): boolean {
	return Boolean(passkey.name || passkey.aaguid) || epoch(passkey.createdAt) !== null || epoch(passkey.lastUsedAt) !== null;
}

/** The details row of `passkey` with `changes` applied (its own fields where a change is absent). */
function passkeyDetailsRow(passkey: AdapterAuthenticator, changes: AuthenticatorChanges) {
	const merged = { ...passkey, ...changes };
	return {
		credential_id: passkey.credentialID,
		user_id: ownerKey(passkey.userId),
		name: merged.name ?? null,
		aaguid: passkey.aaguid ?? null,
		created_at: epoch(passkey.createdAt),
		last_used_at: epoch(merged.lastUsedAt)
	};
}

/**
 * The statements that write the details of a passkey for its user: a new passkey's, or `changes`
 * merged into what its row holds (a row written for another user is replaced, not merged). Run
 * them in the transaction that read `passkey`.
 *
 * @example
 * const statements = passkeyDetailsWrites(trx, passkey, { name: 'Work laptop' });
 */
export function passkeyDetailsWrites(db: Db, passkey: AdapterAuthenticator, changes: AuthenticatorChanges = {}): Statement[] {
	return [
		db.deleteFrom('kitgate_passkey_details').where('credential_id', '=', passkey.credentialID),
		db.insertInto('kitgate_passkey_details').values(passkeyDetailsRow(passkey, changes))
	];
}

/**
 * One statement that applies `changes` to the details of `passkey` (as read before, outside any
 * transaction: D1, libSQL batches), written only while the passkey row still belongs to its user,
 * and merged with what the row holds at that moment: a change given here replaces its field, a
 * field not given keeps what a concurrent call wrote. A row written for another user is replaced.
 *
 * @example
 * const statement = passkeyDetailsUpsert(db, authenticators, passkey, userId, { lastUsedAt: new Date() });
 */
export function passkeyDetailsUpsert(
	db: Db,
	table: MappedTable,
	passkey: AdapterAuthenticator,
	storedUserId: string | number,
	changes: AuthenticatorChanges
): Statement {
	const row = passkeyDetailsRow(passkey, changes);
	const passkeyStillThere = (db as unknown as AuthTablesDb)
		.selectFrom(table.name)
		.select(sql.lit(1).as('found'))
		.where(table.column('credentialID'), '=', passkey.credentialID)
		.where(table.column('userId'), '=', storedUserId);
	const sameOwner = sql`kitgate_passkey_details.user_id = excluded.user_id`;
	const kept = <T>(column: 'name' | 'aaguid' | 'created_at' | 'last_used_at', changed: boolean) =>
		changed
			? sql<T>`${sql.ref(`excluded.${column}`)}`
			: sql<T>`case when ${sameOwner} then ${sql.ref(`kitgate_passkey_details.${column}`)} else ${sql.ref(`excluded.${column}`)} end`;
	return db
		.insertInto('kitgate_passkey_details')
		.columns(['credential_id', 'user_id', 'name', 'aaguid', 'created_at', 'last_used_at'])
		.expression(
			db
				.selectNoFrom([
					sql.val(row.credential_id).as('credential_id'),
					sql.val(row.user_id).as('user_id'),
					sql.val(row.name).as('name'),
					sql.val(row.aaguid).as('aaguid'),
					sql.val(row.created_at).as('created_at'),
					sql.val(row.last_used_at).as('last_used_at')
				])
				.where(({ exists }) => exists(passkeyStillThere))
		)
		.onConflict((conflict) =>
			conflict.column('credential_id').doUpdateSet({
				user_id: sql<string>`${sql.ref('excluded.user_id')}`,
				name: kept<string | null>('name', changes.name !== undefined),
				aaguid: kept<string | null>('aaguid', false),
				created_at: kept<number | null>('created_at', false),
				last_used_at: kept<number | null>('last_used_at', changes.lastUsedAt !== undefined)
			})
		) as unknown as Statement;
}

/**
 * The statement that deletes the details of the passkey `credentialID`.
 *
 * @example
 * await passkeyDetailsDelete(db, credentialID).execute();
 */
export function passkeyDetailsDelete(db: Db, credentialID: string): Statement {
	return db.deleteFrom('kitgate_passkey_details').where('credential_id', '=', credentialID);
}

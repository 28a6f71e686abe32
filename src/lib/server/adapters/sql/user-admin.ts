// kitgate_user_admin (migrations 0008/0009) and kitgate_audit (0007): what admins keep about a user
// (role, ban, creation and last sign-in times) and the admin audit trail, beside whichever auth tables
// the adapter uses. The user id is kept as text. Internal to the SQL adapters.
import { sql, type Kysely } from 'kysely';
import type { AdapterAuditEntry, AdapterUserAdmin } from '../../core/types.js';
import { AdapterError } from '../../core/errors.js';
import type { AuthTablesDb, MappedTable } from './mapped-tables.js';
import { toDate } from './rows.js';
import type { KitgateTables } from './tables.js';

type Db = Kysely<KitgateTables>;

/** The owner as these tables store it: the user id as text (the auth tables may number users). */
const ownerKey = (userId: string | number) => String(userId);

/** The fields of an admin record that `setUserAdmin` may write, with their columns and SQL types. */
const userAdminFields = [
	{ field: 'role', column: 'role', type: 'text' },
	{ field: 'bannedAt', column: 'banned_at', type: 'date' },
	{ field: 'banReason', column: 'ban_reason', type: 'text' },
	{ field: 'banExpires', column: 'ban_expires', type: 'date' },
	{ field: 'createdAt', column: 'created_at', type: 'date' },
	{ field: 'lastSignInAt', column: 'last_sign_in_at', type: 'date' }
] as const;

type UserAdminChanges = Partial<AdapterUserAdmin>;

/**
 * The one statement that writes the given fields of a user's admin record, creating it (other
 * fields null) when the user exists, and returns the row: nothing when there is no such user.
 * Only the given columns change on conflict, so two concurrent writes of different fields keep
 * both. `lockUser` (PostgreSQL) holds the user row as a foreign key would (`FOR KEY SHARE`), so a
 * concurrent deleteUser either waits for the row and deletes it, or goes first and leaves none.
 *
 * @example
 * const row = await userAdminUpsert(db, users, 42, { role: 'admin' }, { lockUser: true }).executeTakeFirst();
 */
export function userAdminUpsert(db: Db, users: MappedTable, userId: string | number, changes: UserAdminChanges, options: { lockUser: boolean }) {
	const given = userAdminFields.filter(({ field }) => changes[field] !== undefined);
	// INSERT … SELECT: PostgreSQL types the selected parameters as text unless cast
	const selected = [
		sql<string>`cast(${ownerKey(userId)} as text)`.as('user_id'),
		...given.map(({ field, column, type }) => {
			const value = changes[field];
			if (type === 'text') return sql<string | null>`cast(${value === null ? null : String(value)} as text)`.as(column);
			return sql<number | null>`cast(${value === null ? null : toDate(value, field).getTime()} as bigint)`.as(column);
		})
	];
	let owner = (db as unknown as AuthTablesDb).selectFrom(users.name).select(sql.lit(1).as('found')).where(users.column('id'), '=', userId);
	if (options.lockUser) owner = owner.forKeyShare();
	return db
		.insertInto('kitgate_user_admin')
		.columns(['user_id', ...given.map(({ column }) => column)])
		.expression((db as unknown as AuthTablesDb).selectNoFrom(selected).where((eb) => eb.exists(owner)))
		.onConflict((conflict) =>
			conflict.column('user_id').doUpdateSet((eb) =>
				// user_id = excluded.user_id changes nothing, and makes RETURNING give the row when no field is given
				Object.fromEntries([['user_id', eb.ref('excluded.user_id')], ...given.map(({ column }) => [column, eb.ref(`excluded.${column}`)])])
			)
		)
		.returningAll();
}

/**
 * The query that reads the admin record of `userId`.
 *
 * @example
 * const row = await userAdminRead(db, 42).executeTakeFirst();
 */
export function userAdminRead(db: Db, userId: string | number) {
	return db.selectFrom('kitgate_user_admin').selectAll().where('user_id', '=', ownerKey(userId));
}

/**
 * The statement that deletes the admin record of `userId`, to run with the user's delete.
 *
 * @example
 * const statement = userAdminDelete(trx, 42);
 */
export function userAdminDelete(db: Db, userId: string | number) {
	return db.deleteFrom('kitgate_user_admin').where('user_id', '=', ownerKey(userId));
}

/**
 * The admin record of a `kitgate_user_admin` row, for the user id as the caller named it.
 *
 * @example
 * const record = userAdminFromRow(row, '42');
 */
export function userAdminFromRow(row: unknown, userId: string): AdapterUserAdmin {
	const stored = row as Record<string, unknown>;
	return {
		userId,
		role: (stored.role as string | null) ?? null,
		bannedAt: dateOrNull(stored.banned_at),
		banReason: (stored.ban_reason as string | null) ?? null,
		banExpires: dateOrNull(stored.ban_expires),
		createdAt: dateOrNull(stored.created_at),
		lastSignInAt: dateOrNull(stored.last_sign_in_at)
	};
}

/**
 * The statement that appends `entry` to the audit trail and returns its row.
 *
 * @example
 * const row = await auditInsert(db, entry).executeTakeFirstOrThrow();
 */
export function auditInsert(db: Db, entry: AdapterAuditEntry) {
	if (typeof entry.id !== 'string' || entry.id.length === 0) throw new AdapterError('createAuditEntry: the entry has no id');
	if (typeof entry.action !== 'string' || entry.action.length === 0) throw new AdapterError('createAuditEntry: the entry has no action');
	return db
		.insertInto('kitgate_audit')
		.values({
			id: entry.id,
			at: toDate(entry.at, 'at').getTime(),
			actor_id: entry.actorId ?? null,
			subject_id: entry.subjectId ?? null,
			action: entry.action,
			detail: entry.detail ?? null
		})
		.returningAll();
}

/**
 * The query of the newest `limit` audit rows where `userId` is the actor or the subject; rows of
 * one millisecond by id, descending, so the order never depends on the plan.
 *
 * @example
 * const rows = await auditEntriesOf(db, '42', 50).execute();
 */
export function auditEntriesOf(db: Db, userId: string, limit: number) {
	return db
		.selectFrom('kitgate_audit')
		.selectAll()
		.where((eb) => eb.or([eb('actor_id', '=', userId), eb('subject_id', '=', userId)]))
		.orderBy('at', 'desc')
		.orderBy('id', 'desc')
		.limit(limit);
}

/**
 * The audit entry of a `kitgate_audit` row.
 *
 * @example
 * const entries = rows.map(auditEntryFromRow);
 */
export function auditEntryFromRow(row: unknown): AdapterAuditEntry {
	const stored = row as Record<string, unknown>;
	return {
		id: String(stored.id),
		at: new Date(Number(stored.at)),
		actorId: (stored.actor_id as string | null) ?? null,
		subjectId: (stored.subject_id as string | null) ?? null,
		action: String(stored.action),
		detail: (stored.detail as string | null) ?? null
	};
}

function dateOrNull(value: unknown): Date | null {
	if (value === null || value === undefined) return null;
	const time = Number(value);
	return Number.isFinite(time) ? new Date(time) : null;
}

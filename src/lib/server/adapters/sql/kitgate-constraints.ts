// Unique and foreign keys checked by kitgate, for tables created without them (`@auth/pg-adapter`'s
// schema): each check runs in the writing transaction, under a PostgreSQL advisory lock. Internal.
import { sql } from 'kysely';
import { AdapterError } from '../../core/errors.js';
import { UniqueViolationError } from '../../core/store/unique-violation.js';
import type { AuthTablesDb, MappedTable } from './mapped-tables.js';

// First key of the two-key advisory locks; the migrations use another (0x6b67_6174).
const UNIQUE_KEY_LOCK_NAMESPACE = 0x6b67_756b;

/**
 * Waits for, then holds until the transaction ends, the lock of one unique key: writers of the
 * same key take turns, so "check, then insert" cannot interleave. A hash collision only makes two
 * keys wait for each other.
 *
 * @example
 * await lockUniqueKey(trx, 'users.email', email);
 */
export async function lockUniqueKey(trx: AuthTablesDb, ...key: string[]): Promise<void> {
	await sql`select pg_advisory_xact_lock(${UNIQUE_KEY_LOCK_NAMESPACE}, hashtext(${JSON.stringify(key)}))`.execute(trx);
}

/**
 * Throws the engine's UniqueViolationError when a row with `column = value` exists (other than `exceptId`'s).
 *
 * @example
 * await refuseDuplicate(trx, users, [[users.column('email'), email]], 'users_email_key');
 */
export async function refuseDuplicate(
	trx: AuthTablesDb,
	table: MappedTable,
	where: [column: string, value: unknown][],
	constraint: string,
	except?: [column: string, value: unknown]
): Promise<void> {
	let query = trx.selectFrom(table.name).select(sql.lit(1).as('found'));
	for (const [column, value] of where) query = query.where(column, '=', value);
	if (except) query = query.where(except[0], '<>', except[1]);
	if (await query.executeTakeFirst()) {
		throw new UniqueViolationError(constraint, `A row with this ${constraint.replace(/_key$/, '')} exists in ${table.name}`);
	}
}

/**
 * Throws an AdapterError unless the user exists, and keeps it from being deleted until the
 * transaction ends (`FOR KEY SHARE`, what a foreign key takes).
 *
 * @example
 * await requireUser(trx, users, userId, 'linkAccount');
 */
export async function requireUser(trx: AuthTablesDb, users: MappedTable, userId: unknown, method: string): Promise<void> {
	const found = await trx
		.selectFrom(users.name)
		.select(sql.lit(1).as('found'))
		.where(users.column('id'), '=', userId)
		.forKeyShare()
		.executeTakeFirst();
	if (!found) throw new AdapterError(`${method}: no user with id ${String(userId)}`);
}

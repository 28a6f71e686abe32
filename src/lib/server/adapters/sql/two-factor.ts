// kitgate_two_factor and kitgate_recovery_codes (migration 0006): a user's second factor beside
// whichever auth tables the adapter uses (kitgate's own and Auth.js's alike, never altered). The
// user id is kept as text; the rows go with the user (deleteUser). Internal to the SQL adapters.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AdapterTwoFactor } from '../../core/types.js';
import type { KitgateTables } from './tables.js';

type Db = Kysely<KitgateTables> | Transaction<KitgateTables>;

/** The owner as these tables store it: the user id as text (the auth tables may number users). */
const ownerKey = (userId: string | number) => String(userId);

function numberOrNull(value: unknown): number | null {
	if (value === null || value === undefined) return null;
	const number = Number(value);
	return Number.isFinite(number) ? number : null;
}

/**
 * The second factor of `userId`, or null.
 *
 * @example
 * const record = await readTwoFactor(db, '42');
 */
export async function readTwoFactor(db: Db, userId: string | number): Promise<AdapterTwoFactor | null> {
	const row = await db.selectFrom('kitgate_two_factor').selectAll().where('user_id', '=', ownerKey(userId)).executeTakeFirst();
	if (!row) return null;
	const codes = await db.selectFrom('kitgate_recovery_codes').select('code_hash').where('user_id', '=', ownerKey(userId)).orderBy('code_hash').execute();
	const createdAt = numberOrNull(row.created_at);
	return {
		userId: String(userId),
		totpSecret: row.totp_secret,
		lastUsedStep: numberOrNull(row.last_used_step),
		recoveryCodes: codes.map((code) => code.code_hash),
		createdAt: createdAt === null ? null : new Date(createdAt)
	};
}

/**
 * Replaces the second factor of `record.userId` (call inside a transaction). One upsert keeps the
 * later of the stored and the given last-used step, so a record read before a code was used
 * (`recordTotpStep`) cannot write that use back.
 *
 * @example
 * await writeTwoFactor(trx, '42', record);
 */
export async function writeTwoFactor(db: Db, userId: string | number, record: AdapterTwoFactor): Promise<void> {
	const createdAt = record.createdAt ? new Date(record.createdAt).getTime() : null;
	await db
		.insertInto('kitgate_two_factor')
		.values({ user_id: ownerKey(userId), totp_secret: record.totpSecret, last_used_step: record.lastUsedStep ?? null, created_at: createdAt })
		.onConflict((conflict) =>
			conflict.column('user_id').doUpdateSet({
				totp_secret: (eb) => eb.ref('excluded.totp_secret'),
				created_at: (eb) => eb.ref('excluded.created_at'),
				last_used_step: sql<number | null>`case when kitgate_two_factor.last_used_step is null then excluded.last_used_step when excluded.last_used_step is null then kitgate_two_factor.last_used_step when excluded.last_used_step > kitgate_two_factor.last_used_step then excluded.last_used_step else kitgate_two_factor.last_used_step end`
			})
		)
		.execute();
	await db.deleteFrom('kitgate_recovery_codes').where('user_id', '=', ownerKey(userId)).execute();
	const hashes = [...new Set(record.recoveryCodes)];
	if (hashes.length > 0) {
		await db.insertInto('kitgate_recovery_codes').values(hashes.map((hash) => ({ user_id: ownerKey(userId), code_hash: hash }))).execute();
	}
}

/**
 * Deletes the second factor of `userId` (with the user, or when it is removed).
 *
 * @example
 * await deleteTwoFactorRows(trx, '42');
 */
export async function deleteTwoFactorRows(db: Db, userId: string | number): Promise<void> {
	await db.deleteFrom('kitgate_recovery_codes').where('user_id', '=', ownerKey(userId)).execute();
	await db.deleteFrom('kitgate_two_factor').where('user_id', '=', ownerKey(userId)).execute();
}

/**
 * Records `step` as the latest accepted step when it is later than the one stored; true when it
 * was. One conditional UPDATE: of two concurrent calls with one step, one changes the row.
 *
 * @example
 * if (!(await recordTotpStep(db, '42', step))) throw new Error('replayed');
 */
export async function recordTotpStep(db: Db, userId: string | number, step: number): Promise<boolean> {
	const result = await db
		.updateTable('kitgate_two_factor')
		.set({ last_used_step: step })
		.where('user_id', '=', ownerKey(userId))
		.where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
		.executeTakeFirst();
	return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes one recovery code hash of `userId`; true when it was there. One DELETE: of two
 * concurrent calls with one hash, one deletes the row.
 *
 * @example
 * if (!(await spendRecoveryCode(db, '42', hash))) throw new Error('used');
 */
export async function spendRecoveryCode(db: Db, userId: string | number, hash: string): Promise<boolean> {
	const result = await db
		.deleteFrom('kitgate_recovery_codes')
		.where('user_id', '=', ownerKey(userId))
		.where('code_hash', '=', hash)
		.executeTakeFirst();
	return Number(result.numDeletedRows) === 1;
}

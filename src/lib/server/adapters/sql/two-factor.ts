// kitgate_two_factor and kitgate_recovery_codes (migration 0006): a user's second factor beside
// whichever auth tables the adapter uses (kitgate's own and Auth.js's alike, never altered). The
// user id is kept as text; the rows go with the user (deleteUser). Internal to the SQL adapters.
import { sql, type Kysely } from 'kysely';
import type { AdapterTwoFactor } from '../../core/types.js';
import type { Statement } from './batches.js';
import type { KitgateTables } from './tables.js';

type Db = Kysely<KitgateTables>;

/** The owner as these tables store it: the user id as text (the auth tables may number users). */
const ownerKey = (userId: string | number) => String(userId);

function numberOrNull(value: unknown): number | null {
	if (value === null || value === undefined) return null;
	const number = Number(value);
	return Number.isFinite(number) ? number : null;
}

/**
 * The two queries that read the second factor of `userId`: its row, and its recovery codes. In a
 * batch after the writes, they read what the writes left.
 *
 * @example
 * const [factor, codes] = twoFactorReads(db, '42');
 */
export function twoFactorReads(db: Db, userId: string | number) {
	return [
		db.selectFrom('kitgate_two_factor').selectAll().where('user_id', '=', ownerKey(userId)),
		db.selectFrom('kitgate_recovery_codes').select('code_hash').where('user_id', '=', ownerKey(userId)).orderBy('code_hash')
	] as const;
}

/**
 * The second factor of `userId` from the rows {@link twoFactorReads} returned, or null.
 *
 * @example
 * const record = twoFactorFromRows('42', factorRows, codeRows);
 */
export function twoFactorFromRows(userId: string | number, factorRows: unknown[], codeRows: unknown[]): AdapterTwoFactor | null {
	const row = factorRows[0] as { totp_secret: string; last_used_step: unknown; created_at: unknown } | undefined;
	if (!row) return null;
	const createdAt = numberOrNull(row.created_at);
	return {
		userId: String(userId),
		totpSecret: row.totp_secret,
		lastUsedStep: numberOrNull(row.last_used_step),
		recoveryCodes: (codeRows as { code_hash: string }[]).map((code) => code.code_hash),
		createdAt: createdAt === null ? null : new Date(createdAt)
	};
}

/**
 * The statements that replace the second factor of `record.userId`, to run together (one
 * transaction or one batch). One upsert keeps the later of the stored and the given last-used
 * step, so a record read before a code was used (`recordTotpStep`) cannot write that use back.
 *
 * @example
 * const statements = twoFactorWrites(trx, '42', record);
 */
export function twoFactorWrites(db: Db, userId: string | number, record: AdapterTwoFactor): Statement[] {
	const createdAt = record.createdAt ? new Date(record.createdAt).getTime() : null;
	const hashes = [...new Set(record.recoveryCodes)];
	return [
		db
			.insertInto('kitgate_two_factor')
			.values({ user_id: ownerKey(userId), totp_secret: record.totpSecret, last_used_step: record.lastUsedStep ?? null, created_at: createdAt })
			.onConflict((conflict) =>
				conflict.column('user_id').doUpdateSet({
					totp_secret: (eb) => eb.ref('excluded.totp_secret'),
					created_at: (eb) => eb.ref('excluded.created_at'),
					last_used_step: sql<number | null>`case when kitgate_two_factor.last_used_step is null then excluded.last_used_step when excluded.last_used_step is null then kitgate_two_factor.last_used_step when excluded.last_used_step > kitgate_two_factor.last_used_step then excluded.last_used_step else kitgate_two_factor.last_used_step end`
				})
			),
		db.deleteFrom('kitgate_recovery_codes').where('user_id', '=', ownerKey(userId)),
		...(hashes.length > 0
			? [db.insertInto('kitgate_recovery_codes').values(hashes.map((hash) => ({ user_id: ownerKey(userId), code_hash: hash })))]
			: [])
	];
}

/**
 * The statements that delete the second factor of `userId` (with the user, or when it is removed),
 * to run together.
 *
 * @example
 * const statements = twoFactorDeletes(trx, '42');
 */
export function twoFactorDeletes(db: Db, userId: string | number): Statement[] {
	return [
		db.deleteFrom('kitgate_recovery_codes').where('user_id', '=', ownerKey(userId)),
		db.deleteFrom('kitgate_two_factor').where('user_id', '=', ownerKey(userId))
	];
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

// kitgate_account_fields, the account fields a mapped accounts table has no column for: one JSON row per
// provider account, stamped with the user it was written for. Internal to the SQL adapters.
import { sql, type Kysely } from 'kysely';
import type { Statement } from './batches.js';
import type { AuthTablesDb, MappedTable } from './mapped-tables.js';
import { toJson } from './rows.js';
import type { KitgateTables } from './tables.js';

type Db = Kysely<KitgateTables>;

/**
 * What a side row is looked up by and whose it is: the provider account, and the owning user's id as
 * the accounts table stores it (a number where the database numbers users).
 *
 * @example
 * const owner: AccountFieldsOwner = { provider: 'twitter', providerAccountId: '1111', userId: 7 };
 */
export interface AccountFieldsOwner {
	provider: string;
	providerAccountId: string;
	userId: string | number;
}

/**
 * The columns an accounts query selects from the joined side row (alias `f`), beside the account's own.
 *
 * @example
 * const row = await query.select(accountFieldsSelection).executeTakeFirst();
 */
export const accountFieldsSelection = ['f.fields as side_fields', 'f.user_id as side_owner'] as const;

/** An accounts row as read with {@link accountFieldsSelection}. */
interface AccountRowWithFields {
	userId: string | number;
	side_fields?: string | null;
	side_owner?: string | null;
}

/**
 * The side fields that belong to an accounts row: none when the side row was written for another user.
 * Auth.js, running side by side, deletes accounts without knowing of the side table, so the same
 * provider account linked again (through Auth.js) to someone else must not read the previous owner's fields.
 *
 * @example
 * const account = accountFromRow(row, values, ownedAccountFields(row));
 */
export function ownedAccountFields(row: AccountRowWithFields): string | null {
	if (row.side_fields === null || row.side_fields === undefined) return null;
	return row.side_owner === ownerKey(row.userId) ? row.side_fields : null;
}

/**
 * The statements that replace the side row of a provider account with `fields` for its owner, or
 * delete it (`null`); a row left by another library's delete, whoever it was written for, goes too.
 *
 * @example
 * const statements = accountFieldsWrites(trx, { provider, providerAccountId, userId }, { oauth_token_secret: 's' });
 */
export function accountFieldsWrites(db: Db, owner: AccountFieldsOwner, fields: Record<string, unknown> | null): Statement[] {
	const { provider, providerAccountId, userId } = owner;
	const remove = deleteAccountFields(db, provider, providerAccountId);
	if (!fields) return [remove];
	return [
		remove,
		db
			.insertInto('kitgate_account_fields')
			.values({ provider, provider_account_id: providerAccountId, user_id: ownerKey(userId), fields: toJson(fields, 'extra account fields') })
	];
}

/**
 * One statement that replaces (or with `null` deletes) the side row of a provider account when, and
 * only when, the statement just before it in the same batch changed a row: SQLite's `changes()`.
 * It follows an update of the account that applies only while the account is as it was read, so
 * the side row moves with that update or not at all (D1, libSQL batches).
 *
 * @example
 * const statements = [updateIfUnchanged, accountFieldsAfterChange(db, owner, fields)];
 */
export function accountFieldsAfterChange(db: Db, owner: AccountFieldsOwner, fields: Record<string, unknown> | null): Statement {
	const { provider, providerAccountId, userId } = owner;
	const changed = sql<boolean>`changes() = 1`;
	if (!fields) return deleteAccountFields(db, provider, providerAccountId).where(changed) as unknown as Statement;
	return db
		.insertInto('kitgate_account_fields')
		.columns(['provider', 'provider_account_id', 'user_id', 'fields'])
		.expression(
			db
				.selectNoFrom([
					sql.val(provider).as('provider'),
					sql.val(providerAccountId).as('provider_account_id'),
					sql.val(ownerKey(userId)).as('user_id'),
					sql.val(toJson(fields, 'extra account fields')).as('fields')
				])
				.where(changed)
		)
		.onConflict((conflict) =>
			conflict
				.columns(['provider', 'provider_account_id'])
				.doUpdateSet({ user_id: sql<string>`${sql.ref('excluded.user_id')}`, fields: sql<string>`${sql.ref('excluded.fields')}` })
		) as unknown as Statement;
}

/**
 * The statement that deletes the side row of a provider account, whoever it was written for.
 *
 * @example
 * await deleteAccountFields(db, 'twitter', '1111').execute();
 */
export function deleteAccountFields(db: Db, provider: string, providerAccountId: string) {
	return db.deleteFrom('kitgate_account_fields').where('provider', '=', provider).where('provider_account_id', '=', providerAccountId);
}

/**
 * The statement that deletes the side rows of every account `userId` has in `accounts` (when the
 * user goes), whoever they were written for: one statement, so it can join a batch.
 *
 * @example
 * const statement = fieldsOfAccountsOfUserDelete(db, accounts, userId);
 */
export function fieldsOfAccountsOfUserDelete(db: Db, accounts: MappedTable, userId: string | number): Statement {
	return db.deleteFrom('kitgate_account_fields').where(({ exists }) =>
		exists(
			(db as unknown as AuthTablesDb)
				.selectFrom(`${accounts.name} as a`)
				.select(sql.lit(1).as('found'))
				.whereRef(accounts.column('provider', 'a'), '=', 'kitgate_account_fields.provider')
				.whereRef(accounts.column('providerAccountId', 'a'), '=', 'kitgate_account_fields.provider_account_id')
				.where(accounts.column('userId', 'a'), '=', userId)
		)
	);
}

// A user id as `user_id` text: the decimal string of a numbered id, what the driver returns for it read back alike.
const ownerKey = (userId: string | number): string => String(userId);

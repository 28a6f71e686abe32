// kitgate_account_fields, the account fields a mapped accounts table has no column for: one JSON row per
// provider account, stamped with the user it was written for. Internal to the SQL adapters.
import type { Transaction } from 'kysely';
import { toJson } from './rows.js';
import type { KitgateTables } from './tables.js';

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
 * Replaces the side row of a provider account with `fields` for its owner, or deletes it (`null`);
 * a row left by another library's delete, whoever it was written for, goes too.
 *
 * @example
 * await replaceAccountFields(trx, { provider, providerAccountId, userId }, { oauth_token_secret: 's' });
 */
export async function replaceAccountFields(
	trx: Transaction<KitgateTables>,
	owner: AccountFieldsOwner,
	fields: Record<string, unknown> | null
): Promise<void> {
	const { provider, providerAccountId, userId } = owner;
	await deleteAccountFields(trx, provider, providerAccountId);
	if (!fields) return;
	await trx
		.insertInto('kitgate_account_fields')
		.values({ provider, provider_account_id: providerAccountId, user_id: ownerKey(userId), fields: toJson(fields, 'extra account fields') })
		.execute();
}

/**
 * Deletes the side row of a provider account, whoever it was written for.
 *
 * @example
 * await deleteAccountFields(trx, 'twitter', '1111');
 */
export async function deleteAccountFields(trx: Transaction<KitgateTables>, provider: string, providerAccountId: string): Promise<void> {
	await trx.deleteFrom('kitgate_account_fields').where('provider', '=', provider).where('provider_account_id', '=', providerAccountId).execute();
}

// A user id as `user_id` text: the decimal string of a numbered id, what the driver returns for it read back alike.
const ownerKey = (userId: string | number): string => String(userId);

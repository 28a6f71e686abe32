// Which stored user a Credentials identity (the id and address `authorize()` returned) is, by
// reading only. The key is a `credentials` account (provider = the Credentials provider's id,
// providerAccountId = authorize()'s id), as for any other provider. authorize()'s id is taken as a
// stored user's id only when that is safe: on schemas where the database numbers users (SERIAL), or
// where the app's member table is not the users table, the same id names somebody else.
// Used by the database-session sign-in (stored-user.ts) and by linking decisions about a
// credentials JWT session (complete-sign-in.ts, `signedInUser`).

import { assertAdapterMethods, type GuardedAdapter } from '../../store/adapter-guard.js';
import type { AdapterUser } from '../../types.js';

/** What authorize() returned that the mapping reads. */
export interface CredentialsIdentity {
	/** authorize()'s id, as a string. */
	id: string;
	email?: string | null;
}

/**
 * The stored user of a Credentials identity:
 * - `linked`: its `credentials` account's user;
 * - `by-id`: the user whose id is authorize()'s id, judged to be the same user (see
 *   `isSameUser`); its `credentials` account is still to be linked;
 * - `none`: no stored user is this identity yet; `idTaken` when a stored user that is not this
 *   identity has authorize()'s id (a new user must not be given that id).
 */
export type CredentialsUser =
	| { kind: 'linked'; user: AdapterUser }
	| { kind: 'by-id'; user: AdapterUser }
	| { kind: 'none'; idTaken: boolean };

/**
 * Finds the stored user `identity` names for Credentials provider `providerId`, reading only:
 * `getUserByAccount` first, then `getUser(id)` when `isSameUser` accepts that user.
 *
 * @example
 * const found = await findCredentialsUser(adapter, 'credentials', { id: '1', email: 'mallory@example.com' });
 * // { kind: 'none', idTaken: true } when users.id 1 is Alice
 */
export async function findCredentialsUser(adapter: GuardedAdapter, providerId: string, identity: CredentialsIdentity): Promise<CredentialsUser> {
	const linked = await adapter.getUserByAccount({ provider: providerId, providerAccountId: identity.id });
	if (linked) return { kind: 'linked', user: linked };
	const candidate = await adapter.getUser(identity.id);
	if (!candidate) return { kind: 'none', idTaken: false };
	const accounts = hasListAccounts(adapter) ? await adapter.listAccountsByUserId(candidate.id) : undefined;
	return isSameUser(providerId, identity, candidate, accounts) ? { kind: 'by-id', user: candidate } : { kind: 'none', idTaken: true };
}

/**
 * True when `candidate`, the stored user whose id is authorize()'s id, is the identity itself (the
 * app's authorize() reads the adapter's users table) rather than another user that happens to have
 * that id. Pure.
 *
 * - It has no account of this Credentials provider (it would have been found by that account).
 * - Both have an address, the same one (compared without case); or neither has one and the user has
 *   no accounts at all (a user the app stored, not one another sign-in created: passkey users and
 *   OAuth users without an address have accounts). `accounts` undefined (the adapter cannot list
 *   them) refuses the second case.
 *
 * @example
 * isSameUser('credentials', { id: '1', email: 'Ada@example.com' }, { id: '1', email: 'ada@example.com', emailVerified: null }, []); // true
 */
export function isSameUser(
	providerId: string,
	identity: CredentialsIdentity,
	candidate: AdapterUser,
	accounts: readonly { provider: string }[] | undefined
): boolean {
	if (accounts?.some((account) => account.provider === providerId)) return false;
	const claimed = identity.email ? identity.email.toLowerCase() : '';
	const stored = candidate.email ? candidate.email.toLowerCase() : '';
	if (claimed || stored) return claimed === stored;
	return accounts !== undefined && accounts.length === 0;
}

/** True when the adapter can list a user's accounts (optional method). */
function hasListAccounts(adapter: GuardedAdapter): boolean {
	try {
		assertAdapterMethods(adapter, ['listAccountsByUserId']);
		return true;
	} catch {
		return false;
	}
}

// Database sessions need a stored user to own the session row. A credentials sign-in finds it by
// its `credentials` account (credentials-user.ts); else it links that account to the user whose id
// authorize() returned when that user is safely the same one, or creates a new user with the
// account. A user is never left without its account, and two first sign-ins of one identity end
// with one user (docs/security.md, row C1).

import { randomUuid } from '../../crypto/random.js';
import { isUniqueViolation } from '../../store/unique-violation.js';
import type { GuardedAdapter } from '../../store/adapter-guard.js';
import { oneSignInAtATime } from '../complete-sign-in.js';
import type { RequestContext } from '../../request/context.js';
import { AuthError, CallbackRouteError } from '../../errors.js';
import { emitEvent } from '../../config/events.js';
import type { AdapterAccount, AdapterUser, CredentialsConfig, User } from '../../types.js';
import { findCredentialsUser } from './credentials-user.js';
import { recordUserCreated } from '../sign-in-bookkeeping.js';

/** Adapter methods `storeCredentialsUser` may call, checked by the flow before its first write. */
export const STORED_USER_METHODS = ['getUserByAccount', 'getUser', 'getUserByEmail', 'createUser', 'linkAccount', 'deleteUser'] as const;

/** Waits between re-reads while a concurrent first sign-in of the same identity finishes (ms). */
const RACE_RETRY_DELAYS = [0, 10, 25, 50, 100, 200, 400, 800];

/** Why a new user cannot be stored for an identity whose address a stored user has. */
const ADDRESS_HINT =
	' Its email belongs to another stored user: return that user (its id, as stored) from authorize(), or link a `credentials` account to it.';

/**
 * The stored user for the user `authorize()` returned (`user.id` already a string), under
 * Credentials provider `provider`. Throws `CallbackRouteError` when it cannot be stored.
 *
 * @example
 * const sessionUser = await storeCredentialsUser(ctx, provider, { id: 'member-7', email: 'ada@example.com' });
 */
export async function storeCredentialsUser(ctx: RequestContext, provider: CredentialsConfig, user: User): Promise<AdapterUser> {
	const adapter = ctx.config.adapter!;
	const id = user.id as string;
	return oneSignInAtATime(`${provider.id}\u0000${id}`, async () => {
		try {
			const found = await findCredentialsUser(adapter, provider.id, { id, email: user.email });
			if (found.kind === 'linked') return found.user;
			if (found.kind === 'by-id') return await linkExisting(ctx, adapter, provider, id, found.user);
			return await createWithAccount(ctx, adapter, provider, user, found.idTaken);
		} catch (error) {
			if (error instanceof AuthError) throw error;
			throw new CallbackRouteError('Could not store the user authorize() returned for a database session.', { cause: { err: error } });
		}
	});
}

function credentialsAccount(provider: CredentialsConfig, id: string, userId: string): AdapterAccount {
	// a `credentials` account also marks the user's address as claimed by a sign-in, not proven (docs/security.md)
	return { provider: provider.id, type: 'credentials', providerAccountId: id, userId };
}

/** Links the credentials account to `existing` (the user whose id authorize() returned); a concurrent identical link is fine. */
async function linkExisting(ctx: RequestContext, adapter: GuardedAdapter, provider: CredentialsConfig, id: string, existing: AdapterUser): Promise<AdapterUser> {
	const account = credentialsAccount(provider, id, existing.id);
	try {
		await adapter.linkAccount(account);
	} catch (error) {
		if (!isUniqueViolation(error)) throw error;
		return concurrentWinner(adapter, provider, id, error);
	}
	await emitEvent(ctx, 'linkAccount', { user: existing, account, profile: existing });
	return existing;
}

/**
 * Creates a user for the identity and links its credentials account; the user is deleted again when
 * the link fails. A stored user with the identity's address refuses it: a password proves no
 * address, so the identity may not join that user, and two users must not share one.
 */
async function createWithAccount(
	ctx: RequestContext,
	adapter: GuardedAdapter,
	provider: CredentialsConfig,
	user: User,
	idTaken: boolean
): Promise<AdapterUser> {
	const id = user.id as string;
	// unless it is this identity's own user, which another server is just now storing
	if (user.email && (await adapter.getUserByEmail(user.email))) return concurrentWinner(adapter, provider, id, undefined, ADDRESS_HINT);
	let created: AdapterUser;
	try {
		created = await adapter.createUser({
			...user,
			// authorize()'s id where no stored user has it (the database may number users instead)
			id: idTaken ? randomUuid() : id,
			email: user.email ?? '',
			// the app may vouch for the address it returned; otherwise a password proves none
			emailVerified: user.emailVerified instanceof Date ? user.emailVerified : null
		});
	} catch (error) {
		if (!isUniqueViolation(error)) throw error;
		// the same identity's first sign-in on another server stored it first, or the address is taken
		return concurrentWinner(adapter, provider, id, error, ADDRESS_HINT);
	}
	const account = credentialsAccount(provider, id, created.id);
	try {
		await adapter.linkAccount(account);
	} catch (error) {
		if (isUniqueViolation(error)) {
			// a concurrent sign-in of the same identity found this new user by its id and linked the account to it
			const linked = await adapter.getUserByAccount({ provider: provider.id, providerAccountId: id });
			if (linked?.id === created.id) {
				await recordUserCreated(ctx, created.id);
				await emitEvent(ctx, 'createUser', { user: created });
				return created;
			}
		}
		await removeOrphan(ctx, adapter, created.id);
		if (!isUniqueViolation(error)) throw error;
		return concurrentWinner(adapter, provider, id, error);
	}
	await recordUserCreated(ctx, created.id);
	await emitEvent(ctx, 'createUser', { user: created });
	await emitEvent(ctx, 'linkAccount', { user: created, account, profile: created });
	return created;
}

/**
 * The user a concurrent first sign-in of the same identity stored: re-read its credentials
 * account until it lands. When none appears, `CallbackRouteError` (with `hint`).
 */
async function concurrentWinner(adapter: GuardedAdapter, provider: CredentialsConfig, id: string, cause: unknown, hint = ''): Promise<AdapterUser> {
	for (const delay of RACE_RETRY_DELAYS) {
		if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
		const winner = await adapter.getUserByAccount({ provider: provider.id, providerAccountId: id });
		if (winner) return winner;
	}
	const message = `Could not store the user authorize() returned for a database session.${hint}`;
	throw cause === undefined ? new CallbackRouteError(message) : new CallbackRouteError(message, { cause: { err: cause } });
}

/** Deletes a user created by this sign-in whose account could not be linked (no orphan). */
async function removeOrphan(ctx: RequestContext, adapter: GuardedAdapter, userId: string): Promise<void> {
	try {
		await adapter.deleteUser(userId);
	} catch (error) {
		ctx.config.logger.error(
			new CallbackRouteError(`Could not delete user ${userId} whose credentials account could not be linked.`, { cause: { err: error } })
		);
	}
}

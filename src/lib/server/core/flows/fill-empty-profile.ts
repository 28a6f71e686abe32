// A later OAuth/OIDC sign-in fills what the stored user lacks: a user who first signed in
// nameless (an ID token without the claims, a provider that gave none) gets a name and picture.

import { emitEvent } from '../config/events.js';
import { CallbackRouteError } from '../errors.js';
import type { RequestContext } from '../request/context.js';
import { hasAdapterMethod, type GuardedAdapter } from '../store/adapter-guard.js';
import type { Account, AdapterUser, User } from '../types.js';

/**
 * Fills the stored user's empty `name` and `image` from an OAuth/OIDC sign-in's user (`updateUser`
 * event) and returns the user as stored. A name or image the user has is kept; the email is never
 * touched (a changed address goes through the verified email change, docs/account.md). A failed
 * write is logged: the sign-in goes on with the user as it was.
 *
 * @example
 * const stored = await fillEmptyProfile(ctx, adapter, existingUser, account, userFromProfile);
 */
export async function fillEmptyProfile(
	ctx: RequestContext,
	adapter: GuardedAdapter,
	stored: AdapterUser,
	account: Pick<Account, 'type'>,
	user: Pick<User, 'name' | 'image'>
): Promise<AdapterUser> {
	if (account.type !== 'oauth' && account.type !== 'oidc') return stored;
	const fill: { name?: string; image?: string } = {};
	if (!stored.name && typeof user.name === 'string' && user.name) fill.name = user.name;
	if (!stored.image && typeof user.image === 'string' && user.image) fill.image = user.image;
	if (fill.name === undefined && fill.image === undefined) return stored;
	if (!hasAdapterMethod(adapter, 'updateUser')) return stored;
	let updated: AdapterUser;
	try {
		updated = await adapter.updateUser({ id: stored.id, ...fill });
	} catch (error) {
		ctx.config.logger.error(new CallbackRouteError(`Could not fill the empty name or image of user ${stored.id}.`, { cause: { err: error } }));
		return stored;
	}
	await emitEvent(ctx, 'updateUser', { user: updated });
	return updated;
}

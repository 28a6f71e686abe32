// Bans: whether a user's admin record bans them now, and the one check every sign-in method runs
// before it writes a session or a cookie (docs/admin.md, "Bans"). Internal to the engine.

import { hasAdapterMethod } from '../store/adapter-guard.js';
import { UserBanned } from '../errors.js';
import type { RequestContext } from '../request/context.js';
import type { AdapterUserAdmin } from '../types.js';

/**
 * True when `record` bans its user at `now` (ms): `bannedAt` is set and the ban has no end or ends
 * later. An expired ban is no ban; no record is no ban. Pure.
 *
 * @example
 * isBanned({ bannedAt: new Date(0), banExpires: null }, Date.now()); // true
 */
export function isBanned(record: Pick<AdapterUserAdmin, 'bannedAt' | 'banExpires'> | null | undefined, now: number): boolean {
	if (!record?.bannedAt) return false;
	if (record.banExpires === null || record.banExpires === undefined) return true;
	const ends = new Date(record.banExpires).getTime();
	// an unreadable end date keeps the ban (erring on the side of the ban an admin set)
	return Number.isNaN(ends) || ends > now;
}

/**
 * True when the stored admin record of `userId` bans them now. Adapters without admin records
 * (`getUserAdmin`) ban nobody. Adapter failures are thrown: a sign-in that cannot be checked does
 * not go on.
 *
 * @example
 * if (await isUserBanned(ctx, user.id)) return null;
 */
export async function isUserBanned(ctx: RequestContext, userId: string): Promise<boolean> {
	const adapter = ctx.config.adapter;
	if (!adapter || !hasAdapterMethod(adapter, 'getUserAdmin')) return false;
	return isBanned(await adapter.getUserAdmin(userId), ctx.now);
}

/**
 * Throws `UserBanned` when `userId` is banned now: what every sign-in method calls once it knows
 * the stored user, before any session, pending second step or cookie is written.
 *
 * @example
 * await refuseBannedUser(ctx, user.id);
 */
export async function refuseBannedUser(ctx: RequestContext, userId: string): Promise<void> {
	if (await isUserBanned(ctx, userId)) throw new UserBanned(`User ${userId} is banned; the sign-in was refused.`);
}

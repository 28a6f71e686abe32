// Whether a user is an admin now, for the re-validation of every impersonated request: the same
// rule as the admin routes' `isAdmin` (admin-authorization.ts), which it must agree with —
// `config.admin.admins` read on every call, never cached.

import { hasAdapterMethod } from '../store/adapter-guard.js';
import type { RequestContext } from '../request/context.js';
import type { AdapterUser } from '../types.js';

/** The roles that make an admin under `admins: "role"` when `adminRoles` is not given. */
const DEFAULT_ADMIN_ROLES: readonly string[] = ['admin'];

/**
 * True when `user` is an admin under `config.admin`: `"role"` (default) — their stored role is one
 * of `adminRoles`; a list — their id is in it; a function — its answer. False when admin is off.
 *
 * @example
 * if (!(await isStillAdmin(ctx, admin))) return null; // the impersonation is over
 */
export async function isStillAdmin(ctx: RequestContext, user: AdapterUser): Promise<boolean> {
	const options = ctx.config.admin;
	if (!options) return false;
	const admins = options.admins ?? 'role';
	if (Array.isArray(admins)) return admins.includes(user.id);
	const role = await storedRole(ctx, user.id);
	if (typeof admins === 'function') return (await admins({ user, role })) === true;
	return role !== null && (options.adminRoles ?? DEFAULT_ADMIN_ROLES).includes(role);
}

async function storedRole(ctx: RequestContext, userId: string): Promise<string | null> {
	const adapter = ctx.config.adapter;
	if (!adapter || !hasAdapterMethod(adapter, 'getUserAdmin')) return null;
	return (await adapter.getUserAdmin(userId))?.role ?? null;
}

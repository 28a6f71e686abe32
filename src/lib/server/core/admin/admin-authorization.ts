// Who is an admin, and on whom an admin may act: the app's one decision (`admin.admins`, read on
// every call, never cached) and the admin-on-admin rule, as pure predicates, and the checks that
// read the stored user and their admin record each time. docs/admin.md, "Who is an admin".

import { isBanned } from '../session/ban.js';
import { resolveConfig, type ResolvedConfig } from '../config/resolve-config.js';
import { AdminRequired, AdminTargetForbidden } from '../errors.js';
import type { AdapterUser, AdapterUserAdmin, AuthConfig, Session } from '../types.js';
import type { ResolvedAdminOptions } from '../config/admin-options.js';

/**
 * The decision of `admins` for a stored user and their stored role, without asking a function:
 * `"role"` → the role is one of `adminRoles`; a list → the user's id is in it. Undefined when
 * `admins` is a function (its answer decides). Pure.
 *
 * @example
 * adminByRuleOf({ admins: 'role', adminRoles: ['admin'] }, 'user-1', 'admin'); // true
 * adminByRuleOf({ admins: ['user-2'], adminRoles: ['admin'] }, 'user-1', 'admin'); // false
 */
export function adminByRuleOf(options: Pick<ResolvedAdminOptions, 'admins' | 'adminRoles'>, userId: string, role: string | null): boolean | undefined {
	const { admins } = options;
	if (admins === 'role') return role !== null && options.adminRoles.includes(role);
	if (typeof admins === 'function') return undefined;
	return admins.includes(userId);
}

/**
 * The admin-on-admin rule: an admin may act on a user who is neither an admin nor themselves; a
 * server script (`actorId` null, `adminApi(config, { system: true })`) may act on anyone. Pure.
 *
 * @example
 * mayActOn(null, { id: 'u1', isAdmin: true }); // true (a script)
 * mayActOn('a1', { id: 'a1', isAdmin: true }); // false (themselves)
 * mayActOn('a1', { id: 'u2', isAdmin: false }); // true
 */
export function mayActOn(actorId: string | null, target: { id: string; isAdmin: boolean }): boolean {
	if (actorId === null) return true;
	return actorId !== target.id && !target.isAdmin;
}

/** What the checks read: the resolved config (for `admin` and the adapter) and the time. */
export type AdminCheckContext = { config: ResolvedConfig; now: number };

/**
 * Whether `user` is an admin now: `admin.admins` decides, with the role stored in the user's
 * admin record (read on every call). A banned user is no admin; a function that throws or answers
 * anything but `true` says no (logged). False when `admin` is not configured.
 *
 * @example
 * if (await isAdminUser(ctx, user)) …
 */
export async function isAdminUser(ctx: AdminCheckContext, user: AdapterUser, record?: AdapterUserAdmin | null): Promise<boolean> {
	const options = ctx.config.admin;
	const adapter = ctx.config.adapter;
	if (!options || !adapter) return false;
	const stored = record === undefined ? await adapter.getUserAdmin(user.id) : record;
	if (isBanned(stored, ctx.now)) return false;
	const role = stored?.role ?? null;
	const byRule = adminByRuleOf(options, user.id, role);
	if (byRule !== undefined) return byRule;
	try {
		return (await (options.admins as (params: { user: AdapterUser; role: string | null }) => unknown)({ user, role })) === true;
	} catch (error) {
		ctx.config.logger.error(new AdminRequired('The admin.admins function threw; the user was not taken for an admin.', { cause: { err: error } }));
		return false;
	}
}

/**
 * The stored user `userId` when they are an admin now; `AdminRequired` otherwise (no such user,
 * not an admin, banned). The user and their record are read on every call.
 *
 * @example
 * const admin = await requireAdmin(ctx, session.user.id);
 */
export async function requireAdmin(ctx: AdminCheckContext, userId: string | undefined): Promise<AdapterUser> {
	const adapter = ctx.config.adapter;
	if (!ctx.config.admin || !adapter || typeof userId !== 'string' || userId === '') throw new AdminRequired('Only an admin may do this.');
	const user = await adapter.getUser(userId);
	if (!user || !(await isAdminUser(ctx, user))) throw new AdminRequired('Only an admin may do this.');
	return user;
}

/**
 * Throws `AdminTargetForbidden` unless the admin-on-admin rule lets `actorId` (null for a script)
 * act on `target`.
 *
 * @example
 * await requireMayActOn(ctx, admin.id, target);
 */
export async function requireMayActOn(ctx: AdminCheckContext, actorId: string | null, target: AdapterUser, record?: AdapterUserAdmin | null): Promise<void> {
	if (actorId === null) return;
	if (!mayActOn(actorId, { id: target.id, isAdmin: await isAdminUser(ctx, target, record) })) {
		throw new AdminTargetForbidden(actorId === target.id ? 'An admin cannot change themselves here.' : 'An admin cannot change another admin.');
	}
}

/**
 * Whether a user is an admin of this app now, per `admin.admins` (docs/admin.md): for pages and
 * endpoints of your own. Takes the user, their id, or a session (`session.user.id`, which your
 * `session` callback must expose); the stored user and role are read every time, so a changed
 * role counts at once. An impersonated session is never an admin, nor a banned user; false when
 * `admin` is not configured or the user does not exist.
 *
 * @example
 * import { isAdmin } from 'kitgate';
 * const session = await event.locals.auth();
 * if (!(await isAdmin(session, authConfig))) error(403, 'Admins only');
 */
export async function isAdmin(userOrSession: string | { id?: string | null } | Session | null | undefined, config: AuthConfig): Promise<boolean> {
	const resolved = resolveConfig(config);
	if (!resolved.admin || !resolved.adapter || !userOrSession) return false;
	const id = idOf(userOrSession);
	if (id === undefined) return false;
	const user = await resolved.adapter.getUser(id);
	return user ? isAdminUser({ config: resolved, now: resolved.now() }, user) : false;
}

function idOf(value: string | { id?: string | null } | Session): string | undefined {
	if (typeof value === 'string') return value || undefined;
	if (typeof value !== 'object') return undefined;
	const session = value as Session & { user?: { id?: unknown } };
	if ('impersonation' in session && session.impersonation) return undefined;
	const id = 'user' in session && session.user && typeof session.user === 'object' ? session.user.id : (value as { id?: unknown }).id;
	return typeof id === 'string' && id !== '' ? id : undefined;
}

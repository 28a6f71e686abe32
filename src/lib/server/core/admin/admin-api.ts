// `adminApi(config, actor)`: the admin operations for server code (scripts, an app's own admin
// pages), exported from `kitgate`. The same functions the admin routes call; the actor is checked
// to be an admin on every call, unless it is `{ system: true }` (a trusted script).

import { resolveConfig } from '../config/resolve-config.js';
import { createContext } from '../request/context.js';
import { InvalidConfiguration } from '../errors.js';
import type { AdapterUser, AuthConfig, EmailConfig } from '../types.js';
import { requireAdmin } from './admin-authorization.js';
import * as operations from './admin-operations.js';
import type { AdminCall, AdminUserDetailData, AdminUserListData } from './admin-operations.js';
import type { AdminAuditEntry } from '../admin-types.js';

export type { AdminUserDetailData, AdminUserListData } from './admin-operations.js';

/**
 * Who calls `adminApi`: an admin by user id (checked to be an admin now, on every call), or a
 * trusted server script (`system: true`: no check; the audit rows name no actor). `request` (the
 * app's request, or the site's URL) is where the security-notice mail links to; with `url` /
 * `AUTH_URL` configured, that is used.
 *
 * @example
 * const actor: AdminActor = { userId: session.user.id, request: event.request };
 */
export type AdminActor = { userId: string; system?: undefined; request?: Request | string } | { system: true; userId?: undefined; request?: Request | string };

/**
 * The admin operations of `adminApi`. Each checks the actor (unless a script), then that the user
 * exists (`UserNotFound`) and may be changed by this actor (`AdminTargetForbidden`: an admin, or
 * the actor themselves), makes the change, writes the audit row and fires `events.adminAction`.
 *
 * @example
 * const api: AdminApi = adminApi(authConfig, { userId: session.user.id });
 * await api.endSessions(userId);
 */
export interface AdminApi {
	/** One page of users: `search` matches a part of the email or name, or the exact id; `page` from 1. */
	listUsers(query?: { search?: string; page?: number }): Promise<AdminUserListData>;
	/** One user's detail: accounts, passkeys, second factor, sessions, audit trail. */
	getUser(userId: string): Promise<AdminUserDetailData>;
	/** Creates a user (email normalized as a sign-in does; `UserExists` when taken). */
	createUser(input: { email: string; name?: string | null; role?: string | null }): Promise<AdapterUser>;
	/** Sets the stored role (null for none). */
	setRole(userId: string, role: string | null): Promise<void>;
	/** Bans the user (reason ≤ 500 characters; `expires` or `days` in the future, none for no end) and ends every session of theirs. */
	ban(userId: string, options?: { reason?: string | null; expires?: Date | string | null; days?: number }): Promise<void>;
	/** Lifts the user's ban. */
	unban(userId: string): Promise<void>;
	/** Ends one listed session (an id from `getUser(…).sessions`). */
	endSession(userId: string, sessionId: string): Promise<void>;
	/** Ends every session of the user. */
	endSessions(userId: string): Promise<void>;
	/** Removes the user's second factor, ends their sessions and mails them the security notice. */
	resetTwoFactor(userId: string): Promise<void>;
	/** Removes one of the user's passkeys and mails them the notice. */
	removePasskey(userId: string, credentialID: string): Promise<void>;
	/** Deletes the user (every session ends first); their audit trail stays. */
	deleteUser(userId: string): Promise<void>;
	/** The user's audit trail, newest first. */
	listAudit(userId: string): Promise<AdminAuditEntry[]>;
}

/**
 * The admin operations for server code, acting as `actor`: an admin's id (checked to be an admin
 * on every call: `AdminRequired` otherwise) or `{ system: true }` for a trusted script, which may
 * also change admins. Needs `admin` in the config (docs/admin.md, "Server API").
 *
 * @example
 * import { adminApi } from 'kitgate';
 * // a script: ban a spammer for a week
 * await adminApi(authConfig, { system: true }).ban(userId, { reason: 'spam', days: 7 });
 * // an app's own page, as the signed-in admin
 * const { users } = await adminApi(authConfig, { userId: session.user.id }).listUsers({ search: 'ada' });
 */
export function adminApi(config: AuthConfig, actor: AdminActor): AdminApi {
	if (!actor || typeof actor !== 'object' || (actor.system !== true && (typeof actor.userId !== 'string' || actor.userId === ''))) {
		throw new InvalidConfiguration('adminApi needs an actor: { userId } of an admin, or { system: true } for a trusted script.');
	}
	const begin = async (notice = false): Promise<AdminCall> => {
		const resolved = resolveConfig(config);
		if (!resolved.admin) throw new InvalidConfiguration('adminApi needs `admin` in the config (docs/admin.md).');
		const site = siteOf(actor.request, resolved.authUrl);
		if (notice && site === undefined && sendsNotices(resolved.providers, resolved.account.emailProvider)) {
			throw new InvalidConfiguration(
				'This change mails the user a security notice linking to the site: pass `request` (the request, or the site\'s URL) in the actor, or set `url` / AUTH_URL.'
			);
		}
		const request = site ?? new Request(`http://localhost${resolved.basePath}`);
		const ctx = createContext(request, resolved, { requestUrlIsPublic: true });
		const admin = actor.system === true ? null : await requireAdmin(ctx, actor.userId);
		return { ctx, actor: admin };
	};
	return {
		listUsers: async (query) => operations.listUsers(await begin(), query),
		getUser: async (userId) => operations.getUser(await begin(), userId),
		createUser: async (input) => operations.createUser(await begin(), input ?? {}),
		setRole: async (userId, role) => operations.setRole(await begin(), userId, role),
		ban: async (userId, options) => operations.ban(await begin(), userId, options ?? {}),
		unban: async (userId) => operations.unban(await begin(), userId),
		endSession: async (userId, sessionId) => operations.endSession(await begin(), userId, sessionId),
		endSessions: async (userId) => operations.endSessions(await begin(), userId),
		resetTwoFactor: async (userId) => operations.resetTwoFactor(await begin(true), userId),
		removePasskey: async (userId, credentialID) => operations.removePasskey(await begin(true), userId, credentialID),
		deleteUser: async (userId) => operations.deleteUser(await begin(), userId),
		listAudit: async (userId) => operations.listAudit(await begin(), userId)
	};
}

/** The request the mails link from: the caller's, else the configured URL; undefined when neither is known. */
function siteOf(request: Request | string | undefined, authUrl: URL | undefined): Request | undefined {
	if (request instanceof Request) return request;
	if (typeof request === 'string' && request !== '') return new Request(new URL(request));
	return authUrl ? new Request(authUrl) : undefined;
}

/** True when a configured email provider sends account mails (as security-notice.ts picks one). */
function sendsNotices(providers: readonly { type: string }[], chosen: EmailConfig | undefined): boolean {
	if (chosen && typeof chosen.sendAccountEmail === 'function') return true;
	return providers.filter((provider) => provider.type === 'email' && typeof (provider as EmailConfig).sendAccountEmail === 'function').length === 1;
}

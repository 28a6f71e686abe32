// The answers of the admin routes (`GET {basePath}/admin`, `GET {basePath}/admin/user`, and the
// changes posted under `{basePath}/admin/`), as public types: what the admin components, the
// built-in admin pages and an app's own pages read. Re-exported from `kitgate`.

import type { PasskeyInfo, SessionInfo } from './account-types.js';

/**
 * A user as the admin list shows it.
 *
 * @example
 * const banned = list.users.filter((user: AdminUserSummary) => user.status === 'banned');
 */
export interface AdminUserSummary {
	id: string;
	name: string | null;
	email: string | null;
	image: string | null;
	/** The stored role, null for none. */
	role: string | null;
	/** True when the user is an admin (per `admin.admins`): other admins cannot act on them. */
	isAdmin: boolean;
	/** `banned` while a ban is in force (an expired ban reads `active`). */
	status: 'active' | 'banned';
	/** When the ban in force ends (ISO), null for a ban without end or no ban. */
	banExpires: string | null;
	/** True when the user has a second factor. */
	twoFactor: boolean;
}

/**
 * What `GET {basePath}/admin` answers to an admin: one page of users (`?q=` searches, `?page=`
 * pages from 1).
 *
 * @example
 * const list = (await (await fetch('/auth/admin?q=ada')).json()) as AdminUserList;
 */
export interface AdminUserList {
	users: AdminUserSummary[];
	/** Users matching the search in all. */
	total: number;
	/** This page, from 1. */
	page: number;
	pageSize: number;
	/** The search as given ('' for none). */
	query: string;
	/** The CSRF token every change posts as `csrfToken`. */
	csrfToken: string;
	/** Where kitgate's routes are (e.g. `/auth`): changes post to `{basePath}/admin/<operation>`. */
	basePath: string;
	/** The admin looking at it. */
	viewer: { id: string; name: string | null; email: string | null };
}

/**
 * One row of the audit trail as an admin reads it.
 *
 * @example
 * const bans = detail.audit.filter((entry: AdminAuditEntry) => entry.action === 'ban');
 */
export interface AdminAuditEntry {
	id: string;
	/** ISO time. */
	at: string;
	action: string;
	actor: { id: string; email: string | null } | null;
	subject: { id: string; email: string | null } | null;
	/** The entry's details (parsed), null when none. */
	detail: Record<string, unknown> | null;
}

/**
 * What `GET {basePath}/admin/user?id=<userId>` answers to an admin.
 *
 * @example
 * const detail = (await (await fetch('/auth/admin/user?id=user-1')).json()) as AdminUserDetail;
 */
export interface AdminUserDetail {
	user: AdminUserSummary & {
		emailVerified: string | null;
		/** ISO, null when unknown. */
		createdAt: string | null;
		lastSignInAt: string | null;
		/** When the ban in force began (ISO) and why; null when not banned. */
		bannedAt: string | null;
		banReason: string | null;
	};
	/** Provider accounts (no tokens). */
	accounts: { provider: string; providerName: string; type: string; providerAccountId: string }[];
	passkeys: PasskeyInfo[];
	/** Second factor: on/off and when it was set up; null when the adapter cannot store second factors. */
	twoFactor: { enabled: boolean; enabledAt: string | null } | null;
	/** Where the user is signed in (`current` is always false here); empty when sessions cannot be listed. */
	sessions: SessionInfo[];
	/** The user's audit trail (as actor or subject), newest first. */
	audit: AdminAuditEntry[];
	/** What the viewing admin may do to this user: nothing to another admin or to themselves (docs/admin.md). */
	canAct: boolean;
	/** Whether impersonation is possible for this user (canAct, and not banned). */
	canImpersonate: boolean;
	csrfToken: string;
	basePath: string;
	viewer: { id: string; name: string | null; email: string | null };
}

/**
 * The changes posted to `{basePath}/admin/<operation>`.
 *
 * @example
 * const operation: AdminOperation = 'ban'; // POST /auth/admin/ban
 */
export type AdminOperation =
	| 'create-user'
	| 'set-role'
	| 'ban'
	| 'unban'
	| 'end-session'
	| 'end-sessions'
	| 'reset-two-factor'
	| 'remove-passkey'
	| 'delete-user'
	| 'impersonate'
	| 'stop-impersonating';

/**
 * The result codes a successful admin change answers: `?admin=<code>` on the page a form came from,
 * or `{ result: <code>, url }` to a script.
 *
 * @example
 * const result = new URL(location.href).searchParams.get('admin') as AdminResult | null;
 */
export type AdminResult =
	| 'user-created'
	| 'role-set'
	| 'banned'
	| 'unbanned'
	| 'session-ended'
	| 'sessions-ended'
	| 'two-factor-reset'
	| 'passkey-removed'
	| 'user-deleted'
	| 'impersonating'
	| 'impersonation-stopped';

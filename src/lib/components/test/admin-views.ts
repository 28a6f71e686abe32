// Admin views (`GET /auth/admin`, `GET /auth/admin/user?id=…`) in the states the admin components
// show: a page of users with every badge, an empty list and a search without match, a user with
// something of each kind, a banned user, another admin and the viewer themselves (read-only).
// Shared by the component tests, the page tests and the stories.

import type { AdminUserDetail, AdminUserList, AdminUserSummary } from '../../server/core/admin-types.js';
import { laptopAndSecurityKey, minutesBefore } from './passkey-views.js';

const AT = minutesBefore;
const DAY = 60 * 24;

export const viewer = { id: 'admin-1', name: 'Grace Hopper', email: 'grace@example.com' };

const summary = (id: string, name: string | null, email: string | null, more: Partial<AdminUserSummary> = {}): AdminUserSummary => ({
	id,
	name,
	email,
	image: null,
	role: null,
	isAdmin: false,
	status: 'active',
	banExpires: null,
	twoFactor: false,
	...more
});

/** Page 2 of 45 users, 20 a page: a banned user (with an end), one banned without end, the admin, a role, 2FA, no name, no email. */
export const usersPage: AdminUserList = {
	users: [
		summary('user-1', 'Ada Lovelace', 'ada@example.com', { twoFactor: true }),
		summary('user-2', 'Charles Babbage', 'charles@example.com', { status: 'banned', banExpires: AT(-7 * DAY) }),
		summary('user-3', null, 'nameless@example.com', { status: 'banned' }),
		summary('admin-1', 'Grace Hopper', 'grace@example.com', { role: 'admin', isAdmin: true, twoFactor: true }),
		summary('user-5', 'Alan Turing', null, { role: 'support' })
	],
	total: 45,
	page: 2,
	pageSize: 20,
	query: '',
	csrfToken: 'csrf-token-of-this-browser',
	basePath: '/auth',
	viewer
};

/** The first page of a short list: no page before or after. */
export const onePage: AdminUserList = { ...usersPage, users: usersPage.users.slice(0, 2), total: 2, page: 1 };

/** A new app: nobody yet. */
export const emptyList: AdminUserList = { ...usersPage, users: [], total: 0, page: 1 };

/** A search that finds nobody. */
export const noMatch: AdminUserList = { ...usersPage, users: [], total: 0, page: 1, query: 'nobody@example.com' };

/** A user with an account of each kind, two passkeys, a second factor, two sessions and an audit trail. */
export const fullDetail: AdminUserDetail = {
	user: {
		...summary('user-1', 'Ada Lovelace', 'ada@example.com', { twoFactor: true, role: 'editor' }),
		emailVerified: AT(90 * DAY),
		createdAt: AT(120 * DAY),
		lastSignInAt: AT(30),
		bannedAt: null,
		banReason: null
	},
	accounts: [
		{ provider: 'github', providerName: 'GitHub', type: 'oauth', providerAccountId: '583231' },
		{ provider: 'email', providerName: 'Email', type: 'email', providerAccountId: 'ada@example.com' }
	],
	passkeys: laptopAndSecurityKey(AT(30)),
	twoFactor: { enabled: true, enabledAt: AT(60 * DAY) },
	sessions: [
		{ id: 'session-a', current: false, createdAt: AT(30), lastSeenAt: AT(2), expires: AT(-30 * DAY), browser: 'Firefox', os: 'Linux' },
		{ id: 'session-b', current: false, createdAt: AT(5 * DAY), lastSeenAt: AT(DAY), expires: AT(-25 * DAY), browser: 'Safari', os: 'iOS' }
	],
	audit: [
		{
			id: 'audit-2',
			at: AT(60),
			action: 'end-session',
			actor: { id: 'admin-1', email: 'grace@example.com' },
			subject: { id: 'user-1', email: 'ada@example.com' },
			detail: { sessionId: 'session-c' }
		},
		{ id: 'audit-1', at: AT(2 * DAY), action: 'set-role', actor: null, subject: { id: 'user-1', email: 'ada@example.com' }, detail: { role: 'editor' } }
	],
	canAct: true,
	canImpersonate: true,
	csrfToken: 'csrf-token-of-this-browser',
	basePath: '/auth',
	viewer
};

/** A banned user (seven days, with a reason): unban instead of ban, and no impersonation. */
export const bannedDetail: AdminUserDetail = {
	...fullDetail,
	user: { ...fullDetail.user, status: 'banned', bannedAt: AT(DAY), banExpires: AT(-6 * DAY), banReason: 'Spam in the comments' },
	sessions: [],
	canImpersonate: false,
	audit: [{ id: 'audit-3', at: AT(DAY), action: 'ban', actor: { id: 'admin-1', email: 'grace@example.com' }, subject: { id: 'user-1', email: 'ada@example.com' }, detail: { reason: 'Spam in the comments', days: 7 } }, ...fullDetail.audit]
};

/** A user with nothing: no account, passkey, second factor, session or audit row, no dates; the adapter stores no second factor. */
export const bareDetail: AdminUserDetail = {
	...fullDetail,
	user: { ...summary('user-9', null, null), emailVerified: null, createdAt: null, lastSignInAt: null, bannedAt: null, banReason: null },
	accounts: [],
	passkeys: [],
	twoFactor: null,
	sessions: [],
	audit: []
};

/** Another admin: everything shown, nothing to change. */
export const otherAdminDetail: AdminUserDetail = {
	...fullDetail,
	user: { ...fullDetail.user, id: 'admin-2', name: 'Margaret Hamilton', email: 'margaret@example.com', role: 'admin', isAdmin: true },
	canAct: false,
	canImpersonate: false
};

/** The viewing admin's own record: read-only too. */
export const selfDetail: AdminUserDetail = {
	...fullDetail,
	user: { ...fullDetail.user, id: viewer.id, name: viewer.name, email: viewer.email, role: 'admin', isAdmin: true },
	canAct: false,
	canImpersonate: false
};

// What the admin components show, as pure functions of the admin views and the message table: the
// texts, the form targets, the links of the list (search, pages, a user's detail), the notice of a
// change, and the audit trail's details. Framework-free: the built-in admin pages render the same components.

import type { AdminAuditEntry, AdminUserDetail, AdminUserList, AdminUserSummary } from '../../server/core/admin-types.js';
import { enAdmin } from '../../messages/en-admin.js';
import { format } from '../../messages/format.js';
import { accountTexts, changeNotice } from '../account/account-view.js';

/** The texts the admin components ship: theirs, and the account components' (dates, devices, passkey names). */
export const adminTexts: Readonly<Record<string, string>> = { ...accountTexts, ...enAdmin };

/**
 * The table a component reads: English, then what a layout set with `setMessages`, then its own `messages` prop.
 *
 * @example const t = adminTable(inheritedMessages(), messages);
 */
export function adminTable(
	inherited: Readonly<Record<string, string>> | undefined,
	messages: Readonly<Record<string, string>> | undefined
): Readonly<Record<string, string>> {
	return { ...adminTexts, ...inherited, ...messages };
}

/** `basePath` without its trailing slashes. */
const trimmed = (basePath: string) => basePath.replace(/\/+$/, '');

/**
 * Where a change posts: `{basePath}/admin/<operation>`.
 *
 * @example adminAction('/auth', 'ban') // '/auth/admin/ban'
 */
export function adminAction(basePath: string, operation: string): string {
	return `${trimmed(basePath)}/admin/${operation}`;
}

/**
 * The list page (`{basePath}/admin`) with a search and a page number; page 1 and an empty search are left out.
 *
 * @example listHref('/auth/admin', 'ada', 2) // '/auth/admin?q=ada&page=2'
 */
export function listHref(listUrl: string, query: string, page: number): string {
	const params = new URLSearchParams();
	if (query) params.set('q', query);
	if (page > 1) params.set('page', String(page));
	const search = params.toString();
	return search ? `${listUrl}?${search}` : listUrl;
}

/**
 * A user's detail page: `{detailPath}?id=<id>`.
 *
 * @example detailHref('/auth/admin/user', 'user 1') // '/auth/admin/user?id=user+1'
 */
export function detailHref(detailPath: string, id: string): string {
	return `${detailPath}?${new URLSearchParams({ id })}`;
}

/** Which users this page shows, and the pages before and after it (null at either end). */
export interface ListPaging {
	from: number;
	to: number;
	previous: number | null;
	next: number | null;
}

/**
 * The rows shown (`from`–`to` of `total`, counted from 1) and the neighbouring pages.
 *
 * @example listPaging({ page: 2, pageSize: 20, total: 45, users: [...20] }) // { from: 21, to: 40, previous: 1, next: 3 }
 */
export function listPaging(list: Pick<AdminUserList, 'page' | 'pageSize' | 'total' | 'users'>): ListPaging {
	const from = list.users.length === 0 ? 0 : (list.page - 1) * list.pageSize + 1;
	const to = list.users.length === 0 ? 0 : from + list.users.length - 1;
	return { from, to, previous: list.page > 1 ? list.page - 1 : null, next: to < list.total && list.users.length > 0 ? list.page + 1 : null };
}

/**
 * How a user is named: their name, else their email address, else their id.
 *
 * @example userLabel({ id: 'u1', name: null, email: 'ada@example.com' }) // 'ada@example.com'
 */
export function userLabel(user: Pick<AdminUserSummary, 'id' | 'name' | 'email'>): string {
	return user.name || user.email || user.id;
}

/**
 * Why an admin may change nothing about this user (`detail.canAct` false): it is their own account, or another admin's.
 *
 * @example readOnlyReason(detail) // 'self' | 'admin' | null
 */
export function readOnlyReason(detail: Pick<AdminUserDetail, 'canAct' | 'user' | 'viewer'>): 'self' | 'admin' | null {
	if (detail.canAct) return null;
	return detail.user.id === detail.viewer.id ? 'self' : 'admin';
}

/** A notice to show: the text, and whether it reports a refusal (an alert) or a result (a status). */
export interface AdminNotice {
	text: string;
	alert: boolean;
}

/**
 * The notice of the last change, from the `?admin=` and `?adminError=` of the page: an error code
 * gets its text (`admin.error.<code>`, else the generic one); a result its text, an unknown result none.
 *
 * @example adminNotice('banned', null, t) // { text: 'The user was banned and signed out everywhere.', alert: false }
 */
export function adminNotice(result: string | null | undefined, error: string | null | undefined, table: Readonly<Record<string, string>>): AdminNotice | null {
	return changeNotice('admin', result, error, table);
}

/** Longest text of one detail value: the trail stays readable whatever a row holds. */
const MAX_VALUE = 120;

/**
 * An audit entry's details as one line, `key: value` pairs (objects as JSON, long values cut).
 *
 * @example auditDetail({ detail: { reason: 'spam', days: 7 } }) // 'reason: spam · days: 7'
 */
export function auditDetail(entry: Pick<AdminAuditEntry, 'detail'>): string {
	if (!entry.detail) return '';
	return Object.entries(entry.detail)
		.filter(([, value]) => value !== null && value !== undefined && value !== '')
		.map(([key, value]) => {
			const text = typeof value === 'string' ? value : JSON.stringify(value);
			return `${key}: ${text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text}`;
		})
		.join(' · ');
}

/**
 * Who did it: the actor's email, else their id, else "the server" (a script's `{ system: true }`).
 *
 * @example auditActor({ actor: null }, t) // 'by the server'
 */
export function auditActor(entry: Pick<AdminAuditEntry, 'actor'>, table: Readonly<Record<string, string>>): string {
	return format(table['admin.audit.by'], { actor: entry.actor ? entry.actor.email || entry.actor.id : table['admin.audit.system'] });
}

/**
 * A message split around one placeholder, for markup in its place (a `<time>`): the text before
 * and after `{name}`; all of it before when the text lacks the placeholder.
 *
 * @example around('Banned until {date}', 'date') // { before: 'Banned until ', after: '' }
 */
export function around(template: string, name: string): { before: string; after: string } {
	const at = template.indexOf(`{${name}}`);
	return at === -1 ? { before: template, after: '' } : { before: template.slice(0, at), after: template.slice(at + name.length + 2) };
}

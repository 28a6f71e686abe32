// The admin components rendered on the server (as a SvelteKit page and the built-in admin pages
// do): the search and page links of the list, each user's badges and link, plain forms posting
// to the admin routes with the CSRF token, the user and the page to come back to, a box to tick
// before anything that cannot be taken back, no change form for an admin or oneself, hostile
// names kept as text, English and French.

import type { Component } from 'svelte';
import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import { resolveMessages } from '../../messages/index.js';
import { enAdmin } from '../../messages/en-admin.js';
import { fr } from '../../messages/fr.js';
import type { AdminResult } from '../../server/core/admin-types.js';
import { buttons, inputs, withoutMarkers } from '../test/html.js';
import { bannedDetail, bareDetail, emptyList, fullDetail, noMatch, onePage, otherAdminDetail, selfDetail, usersPage } from '../test/admin-views.js';
import AdminUserDetail from './AdminUserDetail.svelte';
import AdminUsers from './AdminUsers.svelte';
import { adminAction, adminNotice, adminTexts, around, auditActor, auditDetail, detailHref, listHref, listPaging, readOnlyReason, userLabel } from './admin-view.js';

type AnyComponent = Component<Record<string, unknown>>;
const show = (component: unknown, props: Record<string, unknown>) => withoutMarkers(render(component as AnyComponent, { props }).body);
const PAGE = '/auth/admin/user?id=user-1';
const detailProps = { detail: fullDetail, callbackUrl: PAGE };

/** The POST forms of some HTML: where each posts and its inputs. */
function forms(html: string): { action: string; fields: Record<string, string>[]; inner: string }[] {
	return [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map(([, action, inner]) => ({ action, fields: inputs(inner), inner }));
}
const formOf = (html: string, operation: string) => forms(html).filter((form) => form.action === `/auth/admin/${operation}`);
const hidden = (name: string, value: string) => ({ type: 'hidden', name, value });
const CONFIRM = { type: 'checkbox', name: 'confirm', value: 'yes', required: '' };

describe('AdminUsers', () => {
	test('a GET search form to the list page with the query kept, limited like the route', () => {
		const html = show(AdminUsers, { list: { ...onePage, query: 'ada' } });
		const search = /<form method="get" action="([^"]+)"[^>]*role="search"[^>]*>([\s\S]*?)<\/form>/.exec(html);
		expect(search?.[1]).toBe('/auth/admin');
		expect(inputs(search![2])).toContainEqual({ name: 'q', type: 'search', value: 'ada', maxlength: '200', autocomplete: 'off' });
		expect(html).toMatch(/<label class="kg-field"><span>Search by name, email or id<\/span> <input name="q"/);
		expect(html).toMatch(/<h2 id="[^"]+-title">Users matching “ada”<\/h2>/);
		expect(show(AdminUsers, { list: onePage })).toMatch(/<h2 id="[^"]+-title">All users<\/h2>/);
	});

	test('each user links to their detail page, named by name, email or id, with the email beside a name', () => {
		const html = show(AdminUsers, { list: usersPage });
		expect(html).toContain('href="/auth/admin/user?id=user-1">Ada Lovelace</a>');
		expect(html).toContain('href="/auth/admin/user?id=user-3">nameless@example.com</a>');
		expect(html).toMatch(/Ada Lovelace<\/a> <span class="kg-meta">ada@example.com<\/span>/);
		expect(html).toMatch(/Alan Turing<\/a> <span class="kg-meta">No email address<\/span>/);
		const moved = show(AdminUsers, { list: usersPage, detailPath: '/support/users/view' });
		expect(moved).toContain('href="/support/users/view?id=user-1"');
	});

	test('badges: banned until a date (in a <time>), banned without end, admin, another role, 2FA', () => {
		const html = show(AdminUsers, { list: usersPage });
		const row = (id: string) => new RegExp(`data-user-id="${id}"[\\s\\S]*?</li>`).exec(html)![0];
		expect(row('user-2')).toContain('Banned until <time datetime="2026-06-08T12:00:00.000Z">Jun 8, 2026, 12:00 PM UTC</time>');
		expect(row('user-2')).toContain('data-status="banned"');
		expect(row('user-3')).toMatch(/data-badge="banned">\s*Banned\s*</);
		expect(row('admin-1')).toContain('data-badge="admin">Admin<');
		expect(row('admin-1')).not.toContain('data-badge="role"');
		expect(row('user-5')).toContain('Role: support');
		expect(row('user-1')).toContain('data-badge="two-factor">2FA<');
		expect(row('user-1')).not.toContain('data-badge="banned"');
	});

	test('paging: "n–m of total", the pages before and after keeping the search; none past either end', () => {
		const html = show(AdminUsers, { list: { ...usersPage, query: 'a b' } });
		expect(html).toContain('21–25 of 45');
		expect(html).toContain('href="/auth/admin?q=a+b" rel="prev">Previous page</a>');
		expect(html).toContain('href="/auth/admin?q=a+b&amp;page=3" rel="next">Next page</a>');
		const single = show(AdminUsers, { list: onePage, callbackUrl: '/support' });
		expect(single).toContain('1–2 of 2');
		expect(single).not.toContain('rel="prev"');
		expect(single).not.toContain('rel="next"');
		expect(single).toMatch(/<form method="get" action="\/support"/);
	});

	test('empty: says there is nobody; a search without match says so and links to every user', () => {
		expect(show(AdminUsers, { list: emptyList })).toContain('There are no users yet.');
		const html = show(AdminUsers, { list: noMatch });
		expect(html).toContain('No user matches “nobody@example.com”.');
		expect(html).toContain('<a class="kg-link" href="/auth/admin">Show every user</a>');
		expect(html).not.toContain('<nav');
	});

	test('create a user: a POST to create-user with the CSRF token and this page, no user id', () => {
		const [create] = formOf(show(AdminUsers, { list: usersPage, callbackUrl: '/support' }), 'create-user');
		expect(create.fields).toContainEqual(hidden('csrfToken', 'csrf-token-of-this-browser'));
		expect(create.fields).toContainEqual(hidden('callbackUrl', '/support'));
		expect(create.fields.some((field) => field.name === 'userId')).toBe(false);
		expect(create.fields).toContainEqual({ name: 'email', type: 'email', required: '', autocomplete: 'off' });
	});

	test('the notice of ?admin= and ?adminError=, announced', () => {
		expect(show(AdminUsers, { list: usersPage, result: 'user-created' })).toMatch(/role="status">\s*The user was created\.\s*</);
		expect(show(AdminUsers, { list: usersPage, error: 'AdminRequired' })).toMatch(/role="alert">\s*Only an admin can do this\.\s*</);
	});

	test('the basePath prop moves the forms and the links', () => {
		const html = show(AdminUsers, { list: usersPage, basePath: '/app/auth/' });
		expect(forms(html).map((form) => form.action)).toEqual(['/app/auth/admin/create-user']);
		expect(html).toContain('href="/app/auth/admin/user?id=user-1"');
		expect(html).toContain('action="/app/auth/admin"');
	});
});

describe('AdminUserDetail', () => {
	test('every change posts to an admin route with the CSRF token, the user and this page (delete: the list; impersonate: the app)', () => {
		const html = show(AdminUserDetail, { ...detailProps, impersonateCallbackUrl: '/dashboard' });
		const found = forms(html);
		expect(found.map((form) => form.action.replace('/auth/admin/', '')).sort()).toEqual(
			['ban', 'delete-user', 'end-session', 'end-session', 'end-sessions', 'impersonate', 'remove-passkey', 'remove-passkey', 'reset-two-factor', 'set-role'].sort()
		);
		for (const { action, fields } of found) {
			expect(fields, action).toContainEqual(hidden('csrfToken', 'csrf-token-of-this-browser'));
			expect(fields, action).toContainEqual(hidden('userId', 'user-1'));
			const back = action.endsWith('/delete-user') ? '/auth/admin' : action.endsWith('/impersonate') ? '/dashboard' : PAGE;
			expect(fields, action).toContainEqual(hidden('callbackUrl', back));
		}
		expect(html).not.toContain('<script');
	});

	test('what cannot be taken back needs a ticked box first (ban, delete, second-factor reset, end all, impersonate); the rest does not', () => {
		const html = show(AdminUserDetail, detailProps);
		for (const operation of ['ban', 'delete-user', 'reset-two-factor', 'end-sessions', 'impersonate']) {
			const [form] = formOf(html, operation);
			expect(form.fields, operation).toContainEqual(CONFIRM);
			expect(form.inner, operation).toMatch(/<label class="kg-check"><input type="checkbox" name="confirm" value="yes" required=""\/> <span>[^<]+<\/span><\/label>/);
		}
		for (const operation of ['set-role', 'end-session', 'remove-passkey']) {
			for (const form of formOf(html, operation)) expect(form.fields, operation).not.toContainEqual(CONFIRM);
		}
	});

	test('ban: a reason, a duration posted as days (1, 7 by default, 30, empty for no end); the reset says what it does', () => {
		const html = show(AdminUserDetail, detailProps);
		const [ban] = formOf(html, 'ban');
		expect(ban.inner).toMatch(/<span>Reason \(optional, kept in the audit trail\)<\/span> <textarea name="reason" rows="2" maxlength="500"><\/textarea>/);
		expect([...ban.inner.matchAll(/<option value="([^"]*)"( selected="")?>([^<]+)<\/option>/g)].map(([, value, selected, label]) => [value, Boolean(selected), label])).toEqual([
			['1', false, '1 day'],
			['7', true, '7 days'],
			['30', false, '30 days'],
			['', false, 'Until unbanned']
		]);
		expect(ban.inner).toContain('<select name="days">');
		expect(html).toContain('Resetting removes the authenticator app and every recovery code.');
		expect(buttons(html).find((b) => b.content === 'Reset the second factor')?.attributes).toContain('kg-danger');
	});

	test('set role: the current role prefilled; end a session and remove a passkey name what they end', () => {
		const html = show(AdminUserDetail, detailProps);
		expect(formOf(html, 'set-role')[0].fields).toContainEqual({ name: 'role', type: 'text', value: 'editor', maxlength: '64', autocomplete: 'off' });
		const ends = formOf(html, 'end-session');
		expect(ends.map((form) => form.fields.find((f) => f.name === 'sessionId')?.value)).toEqual(['session-a', 'session-b']);
		expect(buttons(html).map((b) => b.attributes)).toContainEqual(expect.stringContaining('aria-label="End the session of Firefox on Linux, signed in Jun 1, 2026, 11:30 AM UTC"'));
		expect(formOf(html, 'remove-passkey')[1].fields).toContainEqual(hidden('credentialID', 'YmF6cXV4LWtleS05ODc2NTQ'));
		expect(html).toContain('aria-label="Remove the passkey YubiKey 5 Series"');
	});

	test('the profile: email confirmed, id, dates in <time> with the time zone, role, status', () => {
		const html = show(AdminUserDetail, { ...detailProps, timeZone: 'Europe/Paris' });
		expect(html).toMatch(/<h2 id="[^"]+-profile">Ada Lovelace<\/h2>/);
		expect(html).toContain('ada@example.com <span class="kg-badge">Confirmed</span>');
		expect(html).toContain('<dd class="kg-break">user-1</dd>');
		expect(html).toContain('Sign-in provider · 583231');
		expect(html).toContain('Email link · ada@example.com');
		expect(html).toContain('<time datetime="2026-02-01T12:00:00.000Z">Feb 1, 2026, 1:00 PM GMT+1</time>');
		expect(html).toContain('<time datetime="2026-06-01T11:30:00.000Z">Jun 1, 2026, 1:30 PM GMT+2</time>');
		expect(html).toMatch(/data-testid="admin-status">\s*Active\s*</);
		expect(html).toContain('On since Apr 2, 2026, 2:00 PM GMT+2.');
	});

	test('a banned user: since when, until when and why; unban instead of ban; no impersonation', () => {
		const html = show(AdminUserDetail, { ...detailProps, detail: bannedDetail });
		expect(html).toContain('Banned since May 31, 2026, 12:00 PM UTC, until Jun 7, 2026, 12:00 PM UTC');
		expect(html).toContain('Reason: Spam in the comments');
		expect(formOf(html, 'unban')).toHaveLength(1);
		expect(formOf(html, 'unban')[0].fields).not.toContainEqual(CONFIRM);
		expect(formOf(html, 'ban')).toHaveLength(0);
		expect(formOf(html, 'impersonate')).toHaveLength(0);
		expect(html).toContain('A banned user cannot be impersonated.');
		expect(html).toContain('No session is listed.');
	});

	test('another admin, or oneself: everything shown, the reason given, and no change form at all', () => {
		for (const [detail, reason, text] of [
			[otherAdminDetail, 'admin', 'This user is an admin. Admins cannot change other admins here'],
			[selfDetail, 'self', 'This is your own account. Admins cannot change themselves here']
		] as const) {
			const html = show(AdminUserDetail, { ...detailProps, detail });
			expect(forms(html), reason).toEqual([]);
			expect(html).toContain(`data-reason="${reason}"`);
			expect(html).toContain(text);
			expect(html).toContain('Work laptop');
			expect(html).toContain('Firefox on Linux');
			expect(html).toContain('Audit trail');
		}
	});

	test('nothing of a kind: each section says so; an adapter without second factors says that', () => {
		const html = show(AdminUserDetail, { ...detailProps, detail: bareDetail });
		expect(html).toMatch(/<h2 id="[^"]+-profile">user-9<\/h2>/);
		for (const text of ['No account of a sign-in provider.', 'No passkey.', 'The database does not store second factors.', 'No session is listed.', 'Nothing recorded yet.', 'No email address']) {
			expect(html).toContain(text);
		}
		expect(formOf(html, 'reset-two-factor')).toHaveLength(0);
		expect(formOf(html, 'end-sessions')).toHaveLength(1);
		expect(html).toMatch(/<dt>Created<\/dt><dd>Unknown<\/dd>/);
	});

	test('the audit trail, newest first: time, action, who (the server for a script), and the details', () => {
		const html = show(AdminUserDetail, { ...detailProps, detail: bannedDetail });
		const rows = [...html.matchAll(/data-action="([^"]+)"[\s\S]*?<\/li>/g)];
		expect(rows.map(([, action]) => action)).toEqual(['ban', 'end-session', 'set-role']);
		expect(rows[0][0]).toContain('by grace@example.com');
		expect(rows[0][0]).toContain('reason: Spam in the comments · days: 7');
		expect(rows[2][0]).toContain('by the server');
		expect(rows[2][0]).toContain('<time datetime="2026-05-30T12:00:00.000Z">');
	});

	test('the notice of every result and every refusal the routes answer, announced', () => {
		expect(show(AdminUserDetail, { ...detailProps, result: 'banned' })).toMatch(/role="status">\s*The user was banned and signed out everywhere\.\s*</);
		expect(show(AdminUserDetail, { ...detailProps, error: 'AdminTargetForbidden' })).toMatch(/role="alert">\s*Admins cannot change an admin, themselves included\.\s*</);
		expect(show(AdminUserDetail, { ...detailProps, error: 'SomethingNew' })).toMatch(/role="alert">\s*Something went wrong\. Please try again\.\s*</);
	});

	test('the basePath and listUrl props move the forms and the link back', () => {
		const html = show(AdminUserDetail, { ...detailProps, basePath: '/app/auth', listUrl: '/support' });
		for (const { action } of forms(html)) expect(action.startsWith('/app/auth/admin/')).toBe(true);
		expect(html).toContain('<a class="kg-link" href="/support">← All users</a>');
		expect(formOf(html.replaceAll('/app/auth/', '/auth/'), 'delete-user')[0].fields).toContainEqual(hidden('callbackUrl', '/support'));
	});

	test('ids are unique, every section has an h2', () => {
		const html = show(AdminUserDetail, detailProps);
		const ids = html.match(/id="[^"]+"/g)!;
		expect(new Set(ids).size).toBe(ids.length);
		expect(html.match(/<h2 /g)).toHaveLength(10);
	});
});

describe('hostile values stay text', () => {
	const XSS = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';

	test('in the list: names, emails, roles, the query, ids in links', () => {
		const hostile = { ...usersPage, query: XSS, users: [{ ...usersPage.users[0], id: `x"&${XSS}`, name: XSS, email: XSS, role: XSS }] };
		const html = show(AdminUsers, { list: hostile, callbackUrl: XSS, error: XSS });
		expect(html).not.toContain('<script');
		expect(html).not.toContain('<img');
		expect(html).toContain('href="/auth/admin/user?id=x%22%26%3Cscript%3Ealert');
	});

	test('in the detail: profile, accounts, passkeys, sessions, ban reason, audit details', () => {
		const hostile = {
			...bannedDetail,
			user: { ...bannedDetail.user, name: XSS, email: XSS, role: XSS, banReason: XSS, id: XSS },
			accounts: [{ ...fullDetail.accounts[0], providerName: XSS, providerAccountId: XSS }],
			passkeys: [{ ...fullDetail.passkeys[0], name: XSS, credentialID: XSS }],
			sessions: [{ ...fullDetail.sessions[0], browser: XSS }],
			audit: [{ ...fullDetail.audit[0], action: XSS, actor: { id: XSS, email: XSS }, detail: { [XSS]: XSS } }]
		};
		const html = show(AdminUserDetail, { detail: hostile, callbackUrl: XSS, result: XSS });
		expect(html).not.toContain('<script');
		expect(html).not.toContain('<img');
		expect(html).toContain('&lt;script>alert(1)&lt;/script>');
	});
});

describe('French', () => {
	test('from the messages prop: headings, buttons, badges, dates', () => {
		const table = resolveMessages('fr');
		const list = show(AdminUsers, { list: usersPage, messages: table });
		expect(list).toContain('Rechercher par nom, e-mail ou identifiant');
		expect(list).toContain('21–25 sur 45');
		expect(list).toContain('Banni jusqu’au <time datetime="2026-06-08T12:00:00.000Z">8 juin 2026, 12:00 UTC</time>');
		const detail = show(AdminUserDetail, { ...detailProps, messages: table, error: 'UserNotFound' });
		expect(detail).toContain('Réinitialiser le second facteur');
		expect(detail).toContain('Bannir cet utilisateur');
		expect(detail).toContain('Cet utilisateur n’existe pas');
		expect(detail).not.toMatch(/admin\.[a-z]+\.[a-zA-Z]/);
	});

	test('the French table has every admin text, translated', () => {
		for (const key of Object.keys(enAdmin)) {
			expect(Object.hasOwn(fr, key), key).toBe(true);
			expect(fr[key as keyof typeof fr], key).not.toBe(enAdmin[key as keyof typeof enAdmin]);
		}
	});
});

describe('admin-view', () => {
	test('routes and links', () => {
		expect(adminAction('/auth/', 'ban')).toBe('/auth/admin/ban');
		expect(listHref('/auth/admin', '', 1)).toBe('/auth/admin');
		expect(listHref('/auth/admin', 'ada lovelace', 3)).toBe('/auth/admin?q=ada+lovelace&page=3');
		expect(detailHref('/auth/admin/user', 'a&b=c')).toBe('/auth/admin/user?id=a%26b%3Dc');
	});

	test('paging from page, size, total and the rows shown', () => {
		expect(listPaging({ page: 1, pageSize: 20, total: 0, users: [] })).toEqual({ from: 0, to: 0, previous: null, next: null });
		expect(listPaging({ page: 1, pageSize: 2, total: 5, users: usersPage.users.slice(0, 2) })).toEqual({ from: 1, to: 2, previous: null, next: 2 });
		expect(listPaging({ page: 3, pageSize: 2, total: 5, users: usersPage.users.slice(0, 1) })).toEqual({ from: 5, to: 5, previous: 2, next: null });
		// past the end (a stale link): nothing shown, a way back, none further
		expect(listPaging({ page: 9, pageSize: 2, total: 5, users: [] })).toEqual({ from: 0, to: 0, previous: 8, next: null });
	});

	test('names, the read-only reason, notices, the audit line, a message split around a placeholder', () => {
		expect(userLabel({ id: 'u', name: '', email: null })).toBe('u');
		expect(readOnlyReason(fullDetail)).toBeNull();
		expect(readOnlyReason(selfDetail)).toBe('self');
		expect(readOnlyReason(otherAdminDetail)).toBe('admin');
		expect(adminNotice('unbanned', null, adminTexts)).toEqual({ text: 'The ban was lifted.', alert: false });
		expect(adminNotice('nonsense', null, adminTexts)).toBeNull();
		expect(adminNotice(null, '__proto__', adminTexts)?.text).toBe('Something went wrong. Please try again.');
		expect(auditDetail({ detail: null })).toBe('');
		expect(auditDetail({ detail: { a: 'x'.repeat(500), b: { c: 1 }, d: null, e: '' } })).toBe(`a: ${'x'.repeat(119)}… · b: {"c":1}`);
		expect(auditActor({ actor: { id: 'admin-1', email: null } }, adminTexts)).toBe('by admin-1');
		expect(around('Banni jusqu’au {date}', 'date')).toEqual({ before: 'Banni jusqu’au ', after: '' });
		expect(around('no placeholder', 'date')).toEqual({ before: 'no placeholder', after: '' });
	});

	test('every result code of the routes, and every failure they answer a form with, has a text', () => {
		const every = { 'user-created': 1, 'role-set': 1, banned: 1, unbanned: 1, 'session-ended': 1, 'sessions-ended': 1, 'two-factor-reset': 1, 'passkey-removed': 1, 'user-deleted': 1, impersonating: 1, 'impersonation-stopped': 1 } satisfies Record<AdminResult, 1>;
		const results = Object.keys(every);
		for (const result of results) expect(Object.hasOwn(enAdmin, `admin.result.${result}`), result).toBe(true);
		for (const code of ['MissingCSRF', 'InvalidRequest', 'AdminRequired', 'AdminTargetForbidden', 'UserNotFound', 'UserBanned', 'ImpersonationForbidden', 'RateLimited']) {
			expect(Object.hasOwn(enAdmin, `admin.error.${code}`), code).toBe(true);
		}
	});
});

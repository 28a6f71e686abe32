// The built-in admin pages (showAdminListPage, showAdminUserPage): AdminUsers and AdminUserDetail in
// the pages' shell, as every built-in page is rendered (compiled, plain Node): one <h1> and its
// title, no script allowed, not cached or shared between cookies, forms coming back to the page,
// only code-like notices shown, the config's language and theme. Who may see them: the admin routes.

import { describe, expect, test } from 'vitest';
import { PAGE_ORIGIN as ORIGIN, pageContext, pageForms, pageOf } from '../test/built-in-pages.js';
import { bannedDetail, fullDetail, otherAdminDetail, usersPage } from '../../../components/test/admin-views.js';
import { showAdminListPage, showAdminUserPage } from './admin-page.js';

describe('the list page', () => {
	test('a complete document: one <h1> "Users" and its title, the list, no script, not cached, varying by cookie', () => {
		const { html, headers, status } = pageOf(showAdminListPage(pageContext('/auth/admin'), usersPage, {}));
		expect(status).toBe(200);
		expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
		expect(html).toContain('<title>Users</title>');
		expect(html.match(/<h1[ >]/g)).toHaveLength(1);
		expect(html).toContain('<h1>Users</h1>');
		expect(html).toContain('href="/auth/admin/user?id=user-2"');
		expect(html).toContain('21–25 of 45');
		expect(html).not.toContain('<script');
		expect(headers['content-security-policy']).toMatch(/^script-src 'none';/);
		expect(headers['x-frame-options']).toBe('DENY');
		expect(headers.vary).toBe('Accept, Cookie');
	});

	test('search, pages and "Create a user" come back to the page; the link home', () => {
		const { html } = pageOf(showAdminListPage(pageContext('/auth/admin?q=a'), usersPage, {}));
		expect(html).toMatch(/<form method="get" action="http:\/\/localhost:3000\/auth\/admin"/);
		expect(html).toContain('href="http://localhost:3000/auth/admin?page=3" rel="next"');
		const [create] = pageForms(html);
		expect(create.action).toBe('/auth/admin/create-user');
		expect(create.fields).toEqual({ csrfToken: 'csrf-token-of-this-browser', callbackUrl: `${ORIGIN}/auth/admin` });
		expect(html).toContain(`<a class="kg-link" href="${ORIGIN}">Back to home</a>`);
	});

	test('the notice: a result or error code is shown, anything else is dropped', () => {
		expect(pageOf(showAdminListPage(pageContext('/auth/admin'), usersPage, { result: 'user-deleted' })).html).toMatch(/role="status">\s*The user was deleted\./);
		expect(pageOf(showAdminListPage(pageContext('/auth/admin'), usersPage, { error: 'AdminRequired' })).html).toMatch(/role="alert">\s*Only an admin can do this\./);
		const hostile = pageOf(showAdminListPage(pageContext('/auth/admin'), usersPage, { result: '<b>x</b>', error: 'a b' })).html;
		expect(hostile).not.toContain('role="alert"');
		expect(hostile).not.toContain('role="status"');
	});

	test('the config’s language and theme', () => {
		const { html } = pageOf(showAdminListPage(pageContext('/auth/admin', { locale: 'fr', theme: { colorScheme: 'dark' } }), usersPage, {}));
		expect(html).toContain('<html lang="fr">');
		expect(html).toContain('<title>Utilisateurs</title>');
		expect(html).toContain('Créer un utilisateur');
		expect(html).toContain('color-scheme:dark');
	});
});

describe('the user page', () => {
	test('one <h1> and its title, every change posting back to this page (with the id), deletion to the list, impersonation home', () => {
		const weird = { ...fullDetail, user: { ...fullDetail.user, id: 'user 1&x' } };
		const { html, headers } = pageOf(showAdminUserPage(pageContext('/auth/admin/user?id=user+1%26x'), weird, { result: 'role-set' }));
		expect(html).toContain('<title>Manage a user</title>');
		expect(html.match(/<h1[ >]/g)).toHaveLength(1);
		expect(html).toMatch(/role="status">\s*The role was set\./);
		expect(headers['content-security-policy']).toMatch(/^script-src 'none';/);
		expect(headers.vary).toBe('Accept, Cookie');
		const forms = pageForms(html);
		expect(forms.length).toBe(10);
		for (const { action, fields } of forms) {
			expect(fields.userId, action).toBe('user 1&x');
			expect(fields.csrfToken, action).toBe('csrf-token-of-this-browser');
			const back = action.endsWith('/delete-user') ? `${ORIGIN}/auth/admin` : action.endsWith('/impersonate') ? ORIGIN : `${ORIGIN}/auth/admin/user?id=user+1%26x`;
			expect(fields.callbackUrl, action).toBe(back);
		}
		expect(html).toContain(`href="${ORIGIN}/auth/admin">← All users</a>`);
	});

	test('a banned user offers unban; another admin is read-only with the reason', () => {
		expect(pageForms(pageOf(showAdminUserPage(pageContext('/auth/admin/user'), bannedDetail, {})).html).map((form) => form.action)).toContain('/auth/admin/unban');
		const readOnly = pageOf(showAdminUserPage(pageContext('/auth/admin/user'), otherAdminDetail, { error: 'AdminTargetForbidden' })).html;
		expect(pageForms(readOnly)).toEqual([]);
		expect(readOnly).toContain('This user is an admin.');
		expect(readOnly).toMatch(/role="alert">\s*Admins cannot change an admin, themselves included\./);
	});

	test('hostile values of the view stay text in the page', () => {
		const XSS = '<script>alert(1)</script>';
		const hostile = { ...fullDetail, user: { ...fullDetail.user, name: XSS, banReason: XSS }, audit: [{ ...fullDetail.audit[0], detail: { reason: XSS } }] };
		const { html } = pageOf(showAdminUserPage(pageContext('/auth/admin/user'), hostile, {}));
		expect(html).not.toContain('<script>');
		expect(html).toContain('&lt;script>alert(1)&lt;/script>');
	});
});

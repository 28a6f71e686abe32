// The built-in organization pages (showOrganizationListPage, showOrganizationSettingsPage,
// showInvitationPage): the organization components in the pages' shell, rendered as every built-in
// page is (compiled, plain Node): one <h1> and its title, no script allowed, not shared between
// cookies, forms posting to the routes and coming back to the page, only code-like notices shown,
// the config's language; the invitation page with its token in the Join form only, no referrer, never stored.

import { describe, expect, test } from 'vitest';
import { PAGE_ORIGIN as ORIGIN, pageContext, pageForms, pageOf } from '../test/built-in-pages.js';
import {
	INVITATION_TOKEN,
	invitationForSomeoneElse,
	invitationForYou,
	invitationSignedOut,
	memberDetail,
	organizationList,
	ownerDetail
} from '../../../components/test/organization-views.js';
import { showInvitationPage, showOrganizationListPage, showOrganizationSettingsPage } from './organization-page.js';

const expectPageHeaders = (headers: Record<string, string>) => {
	expect(headers['content-security-policy']).toMatch(/^script-src 'none';/);
	expect(headers['x-frame-options']).toBe('DENY');
	expect(headers.vary).toBe('Accept, Cookie');
};

describe('the organizations page', () => {
	test('a complete document: one <h1> "Organizations", the switcher, the invitations waiting, create; no script; varying by cookie', () => {
		const { html, headers, status } = pageOf(showOrganizationListPage(pageContext('/auth/organizations'), organizationList, {}));
		expect(status).toBe(200);
		expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
		expect(html).toContain('<title>Organizations</title>');
		expect(html.match(/<h1[ >]/g)).toHaveLength(1);
		expect(html).not.toContain('<script');
		expectPageHeaders(headers);
		expect(html).toContain('Difference Works');
		expect(html).toContain('Invited as Admin by Charles Babbage');
		expect(html).toContain('href="/auth/organizations/settings?id=org-1"');
		const [switcher, create] = pageForms(html);
		expect(switcher).toEqual({ action: '/auth/organizations/set-active', fields: { csrfToken: 'csrf-token-1', callbackUrl: `${ORIGIN}/auth/organizations` } });
		expect(create).toEqual({ action: '/auth/organizations/create', fields: { csrfToken: 'csrf-token-1' } });
		expect(html).toContain('id="create"');
		expect(html).toContain(`<a class="kg-link" href="${ORIGIN}">Back to home</a>`);
	});

	test('no create form when the user may not create; a notice only when it looks like a code', () => {
		const { html } = pageOf(showOrganizationListPage(pageContext('/auth/organizations'), { ...organizationList, canCreate: false }, { result: 'created' }));
		expect(pageForms(html).map((form) => form.action)).toEqual(['/auth/organizations/set-active']);
		expect(html).toContain('The organization was created.');
		const hostile = pageOf(showOrganizationListPage(pageContext('/auth/organizations'), organizationList, { error: '<script>alert(1)</script>' })).html;
		expect(hostile).not.toContain('role="alert"');
	});

	test('French from the config', () => {
		const { html } = pageOf(showOrganizationListPage(pageContext('/auth/organizations', { locale: 'fr' }), organizationList, { error: 'OrganizationForbidden' }));
		expect(html).toContain('<html lang="fr">');
		expect(html).toContain('<h1>Organisations</h1>');
		expect(html).toContain('Votre rôle dans cette organisation ne permet pas cette action.');
	});
});

describe('the settings page', () => {
	test('OrganizationSettings with every change coming back to this page; leaving and deleting go to the list', () => {
		const { html, headers } = pageOf(showOrganizationSettingsPage(pageContext('/auth/organizations/settings?id=org-1'), ownerDetail, { result: 'role-changed' }));
		expect(html).toContain('<title>Organization settings</title>');
		expect(html.match(/<h1[ >]/g)).toHaveLength(1);
		expectPageHeaders(headers);
		expect(html).toContain('The role was changed.');
		const forms = pageForms(html);
		const here = `${ORIGIN}/auth/organizations/settings?id=org-1`;
		expect(forms.find((form) => form.action === '/auth/organizations/set-role')?.fields).toEqual({ csrfToken: 'csrf-token-1', organizationId: 'org-1', callbackUrl: here, memberId: 'mem-2' });
		for (const operation of ['leave', 'delete']) expect(forms.find((form) => form.action === `/auth/organizations/${operation}`)?.fields.callbackUrl).toBe(`${ORIGIN}/auth/organizations`);
		expect(html).toContain(`href="${ORIGIN}/auth/organizations">← All organizations`);
	});

	test('a member sees no change form but Leave', () => {
		const { html } = pageOf(showOrganizationSettingsPage(pageContext('/auth/organizations/settings?id=org-1'), memberDetail, {}));
		expect(pageForms(html).map((form) => form.action)).toEqual(['/auth/organizations/leave']);
	});
});

describe('the invitation page', () => {
	const path = `/auth/organizations/invitation?token=${encodeURIComponent(INVITATION_TOKEN)}`;

	test('signed in as the invited address: the Join form with the token of the link; no referrer, never stored, varying by cookie', () => {
		const { html, headers } = pageOf(showInvitationPage(pageContext(path), invitationForYou, {}));
		expect(html).toContain('<title>Invitation</title>');
		expect(html.match(/<h1[ >]/g)).toHaveLength(1);
		expectPageHeaders(headers);
		expect(headers['referrer-policy']).toBe('no-referrer');
		expect(headers['cache-control']).toBe('no-store');
		expect(pageForms(html)).toEqual([{ action: '/auth/organizations/accept-invitation', fields: { csrfToken: 'csrf-token-1', token: INVITATION_TOKEN } }]);
		expect(html.split(INVITATION_TOKEN)).toHaveLength(2);
	});

	test('signed out: "Sign in as … to join" leads to the sign-in page, coming back to this page', () => {
		const { html } = pageOf(showInvitationPage(pageContext(path), invitationSignedOut, {}));
		expect(pageForms(html)).toEqual([]);
		const href = /href="([^"]+)">Sign in as grace@example.com to join/.exec(html)![1].replaceAll('&amp;', '&');
		const url = new URL(href);
		expect(url.origin + url.pathname).toBe(`${ORIGIN}/auth/signin`);
		expect(url.searchParams.get('callbackUrl')).toBe(`${ORIGIN}${path}`);
	});

	test('signed in as another address: the explanation and a sign-out link coming back here; no form', () => {
		const { html } = pageOf(showInvitationPage(pageContext(path), invitationForSomeoneElse, { error: 'InvitationWrongAddress' }));
		expect(pageForms(html)).toEqual([]);
		expect(html).toContain('You are signed in as mallory@example.com');
		expect(html).toContain('This invitation was sent to another email address.');
		const href = /href="([^"]+)">Sign out</.exec(html)![1].replaceAll('&amp;', '&');
		expect(new URL(href).pathname).toBe('/auth/signout');
		expect(new URL(href).searchParams.get('callbackUrl')).toBe(`${ORIGIN}${path}`);
	});
});

// The organization components and pages as a person sees them, in Chromium: OrganizationSwitcher,
// CreateOrganization, OrganizationSettings (with OrganizationMembers), OrganizationInvitation with the
// shipped stylesheet (kitgate/styles.css) inside the three host apps the admin components are tested in
// (no CSS, Tailwind's preflight reset, a UI library's theme), light and dark, wide and narrow, then the
// built-in organization pages as served. Each is axe-clean (no serious or critical violation) and holds
// its boxes: no control sticks out of its section, compact buttons are not bars, badges keep off the
// names, fields are styled alike, names keep room to read. Screenshots go to test-results/organization/.

import { describe, expect, test } from 'vitest';
import { componentPagesInChromium, hostNames, hostPage, inBothSchemes, type Scheme } from '../test/component-page-in-chromium.js';
import { resolveMessages } from '../../messages/index.js';
import { renderPage } from '../../server/pages/render.js';
import { adminDetail, CSRF, INVITATION_TOKEN, invitationForSomeoneElse, invitationForYou, invitationSignedOut, memberDetail, organizationList, ownerDetail } from '../test/organization-views.js';
import CreateOrganization from './CreateOrganization.svelte';
import OrganizationInvitation from './OrganizationInvitation.svelte';
import OrganizationSettings from './OrganizationSettings.svelte';
import OrganizationSwitcher from './OrganizationSwitcher.svelte';

// a long name may wrap across the whole row; squeezed is wrapping beside something taking the room
const chromiumPage = componentPagesInChromium('organization', { root: '.kg-organization', wideNamesMayWrap: true });

const SETTINGS = '/org/settings?id=org-1';
const components = [
	['switcher', 'Organizations', OrganizationSwitcher, { list: organizationList, callbackUrl: '/org', result: 'switched' }],
	['create', 'New organization', CreateOrganization, { csrfToken: CSRF, error: 'OrganizationSlugTaken' }],
	['owner', 'Organization settings', OrganizationSettings, { detail: ownerDetail, callbackUrl: SETTINGS, listUrl: '/org' }],
	['admin', 'Organization settings', OrganizationSettings, { detail: adminDetail, callbackUrl: SETTINGS, error: 'OrganizationLastOwner', messages: resolveMessages('fr') }],
	['member', 'Organization settings', OrganizationSettings, { detail: memberDetail, callbackUrl: SETTINGS }],
	['join', 'Invitation', OrganizationInvitation, { invitation: invitationForYou, token: INVITATION_TOKEN, signInUrl: '/signin' }],
	['signed-out', 'Invitation', OrganizationInvitation, { invitation: invitationSignedOut, token: INVITATION_TOKEN, signInUrl: '/signin' }],
	['other-address', 'Invitation', OrganizationInvitation, { invitation: invitationForSomeoneElse, token: INVITATION_TOKEN, signInUrl: '/signin', messages: resolveMessages('fr') }]
] as const;

describe.each(hostNames)('in the %s host app', (host) => {
	test.each(inBothSchemes(components))('%s, %s: axe-clean, boxes held, wide and narrow', async (name, scheme, title, component, props) => {
		await chromiumPage.axeCleanAtWidths(scheme, hostPage(host, scheme, title, component, props), `${host} ${name} ${scheme}`, [720, 360], async (boxes, width, page) => {
			// taken before the checks, so a failure can be looked at
			await chromiumPage.screenshot(page, `${host}-${name}-${scheme}-${width}`);
			expect(boxes.overflow, `${width}px: no control sticks out of its section`).toBeLessThanOrEqual(0.5);
			expect(boxes.widestCompact, `${width}px: compact buttons are not bars`).toBeLessThan(width > 400 ? 0.4 : 0.6);
			if (width > 400) expect(boxes.widestButton, `${width}px: buttons and button links are not bars`).toBeLessThan(0.8);
			expect(boxes.badgeOverlaps, `${width}px: badges keep off the names`).toBe(0);
			// a view without text fields (a member's, an invitation) has no radius to compare
			expect(boxes.fieldRadii.length, 'inputs, selects and textareas alike').toBeLessThanOrEqual(1);
			if (boxes.fieldRadii.length === 1) expect(boxes.fieldRadii[0], 'fields have rounded corners in every host').not.toBe('0px');
			expect(boxes.font.split(',')[0].trim().replace(/"/g, ''), 'not the browser serif').not.toMatch(/^(serif|Times|Times New Roman|DejaVu Serif)$/i);
			expect(boxes.hiddenChecks).toBe(0);
			expect(boxes.squeezedNames, `${width}px: names keep room to read`).toBe(0);
		});
	});
});

describe('the built-in organization pages', () => {
	const common = (scheme: Scheme) => ({ theme: { colorScheme: scheme }, messages: resolveMessages('en'), lang: 'en' });
	const base = { basePath: '/auth', homeUrl: 'http://localhost/' };
	const pages = [
		['organizations', (scheme: Scheme) => renderPage('organizations', { ...common(scheme), ...base, list: organizationList, callbackUrl: 'http://localhost/auth/organizations' })],
		['organization-settings', (scheme: Scheme) => renderPage('organization-settings', { ...common(scheme), ...base, detail: ownerDetail, callbackUrl: 'http://localhost/auth/organizations/settings?id=org-1', listUrl: 'http://localhost/auth/organizations' })],
		['organization-invitation', (scheme: Scheme) => renderPage('organization-invitation', { ...common(scheme), ...base, invitation: invitationSignedOut, token: INVITATION_TOKEN, signInUrl: 'http://localhost/auth/signin', signOutUrl: 'http://localhost/auth/signout' })]
	] as const;

	test.each(inBothSchemes(pages))('%s, %s: axe-clean and boxes held, wide and narrow', async (kind, scheme, html) => {
		await chromiumPage.axeCleanAtWidths(scheme, html(scheme), `${kind} ${scheme}`, [720, 360], async (boxes, width, page) => {
			// taken before the checks, so a failure can be looked at
			await chromiumPage.screenshot(page, `page-${kind}-${scheme}-${width}`);
			expect(boxes.overflow).toBeLessThanOrEqual(0.5);
			expect(boxes.badgeOverlaps).toBe(0);
			expect(boxes.squeezedNames).toBe(0);
		});
	});
});

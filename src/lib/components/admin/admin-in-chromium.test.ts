// The admin components and pages as a person sees them, in Chromium: AdminUsers and AdminUserDetail
// with the shipped stylesheet (kitgate/styles.css) inside the three host apps of the stories
// (src/stories/HostApp.svelte: no CSS, Tailwind's preflight reset, a UI library's theme), light and
// dark, wide and narrow, then the built-in admin pages as served. Each is axe-clean (no serious or
// critical violation) and holds its boxes: no control sticks out of its section, compact buttons are
// not bars across it, badges do not run into the name, fields are styled alike, and the text is not
// the browser's serif. Screenshots go to test-results/admin/ (not committed) for a look by eye.

import { describe, expect, test } from 'vitest';
import { componentPagesInChromium, hostNames, hostPage, inBothSchemes, type Scheme } from '../test/component-page-in-chromium.js';
import { resolveMessages } from '../../messages/index.js';
import { renderPage } from '../../server/pages/render.js';
import { bannedDetail, fullDetail, usersPage } from '../test/admin-views.js';
import AdminUserDetail from './AdminUserDetail.svelte';
import AdminUsers from './AdminUsers.svelte';

const chromiumPage = componentPagesInChromium('admin', { root: '.kg-admin' });

const components = [
	['users', 'Users', AdminUsers, { list: usersPage, callbackUrl: '/admin', result: 'user-created' }],
	['user', 'Manage a user', AdminUserDetail, { detail: fullDetail, callbackUrl: '/admin/user?id=user-1', listUrl: '/admin' }],
	['banned', 'Manage a user', AdminUserDetail, { detail: bannedDetail, callbackUrl: '/admin/user?id=user-1', error: 'UserBanned', messages: resolveMessages('fr') }]
] as const;

describe.each(hostNames)('in the %s host app', (host) => {
	test.each(inBothSchemes(components))('%s, %s: axe-clean, boxes held, wide and narrow', async (name, scheme, title, component, props) => {
		await chromiumPage.axeCleanAtWidths(scheme, hostPage(host, scheme, title, component, props), `${host} ${name} ${scheme}`, [720, 360], async (boxes, width, page) => {
			expect(boxes.overflow, `${width}px: no control sticks out of its section`).toBeLessThanOrEqual(0.5);
			expect(boxes.widestCompact, `${width}px: compact buttons are not bars`).toBeLessThan(width > 400 ? 0.4 : 0.6);
			expect(boxes.badgeOverlaps, `${width}px: badges keep off the names`).toBe(0);
			expect(boxes.fieldRadii, 'inputs, selects and textareas alike').toHaveLength(1);
			expect(boxes.fieldRadii[0], 'fields have rounded corners in every host').not.toBe('0px');
			expect(boxes.font.split(',')[0].trim().replace(/"/g, ''), 'not the browser serif').not.toMatch(/^(serif|Times|Times New Roman|DejaVu Serif)$/i);
			expect(boxes.hiddenChecks).toBe(0);
			expect(boxes.squeezedNames, `${width}px: names keep room to read`).toBe(0);
			await chromiumPage.screenshot(page, `${host}-${name}-${scheme}-${width}`);
		});
	});
});

describe('the built-in admin pages', () => {
	const common = (scheme: Scheme) => ({ theme: { colorScheme: scheme }, messages: resolveMessages('en'), lang: 'en' });
	const pages = [
		['admin-users', (scheme: Scheme) => renderPage('admin-users', { ...common(scheme), list: usersPage, callbackUrl: 'http://localhost/auth/admin', homeUrl: 'http://localhost/' })],
		['admin-user', (scheme: Scheme) => renderPage('admin-user', { ...common(scheme), detail: fullDetail, callbackUrl: 'http://localhost/auth/admin/user?id=user-1', listUrl: 'http://localhost/auth/admin', homeUrl: 'http://localhost/' })]
	] as const;

	test.each(inBothSchemes(pages))('%s, %s: axe-clean and boxes held', async (kind, scheme, html) => {
		await chromiumPage.axeCleanAtWidths(scheme, html(scheme), `${kind} ${scheme}`, [720], async (boxes, _width, page) => {
			expect(boxes.overflow).toBeLessThanOrEqual(0.5);
			expect(boxes.badgeOverlaps).toBe(0);
			expect(boxes.squeezedNames).toBe(0);
			await chromiumPage.screenshot(page, `page-${kind}-${scheme}`);
		});
	});
});

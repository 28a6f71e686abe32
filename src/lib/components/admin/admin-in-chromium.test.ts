// The admin components and pages as a person sees them, in Chromium: AdminUsers and AdminUserDetail
// with the shipped stylesheet (kitgate/styles.css) inside the three host apps of the stories
// (src/stories/HostApp.svelte: no CSS, Tailwind's preflight reset, a UI library's theme), light and
// dark, wide and narrow, then the built-in admin pages as served. Each is axe-clean (no serious or
// critical violation) and holds its boxes: no control sticks out of its section, compact buttons are
// not bars across it, badges do not run into the name, fields are styled alike, and the text is not
// the browser's serif. Screenshots go to test-results/admin/ (not committed) for a look by eye.

import { chromium, type Browser, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Component } from 'svelte';
import { render } from 'svelte/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumPath } from '../../../../scripts/chromium-path.js';
import { expectNoSeriousViolations } from '../test/axe-in-chromium.js';
import { resolveMessages } from '../../messages/index.js';
import { renderPage } from '../../server/pages/render.js';
import { bannedDetail, fullDetail, usersPage } from '../test/admin-views.js';
import AdminUserDetail from './AdminUserDetail.svelte';
import AdminUsers from './AdminUsers.svelte';

const root = join(import.meta.dirname, '../../../..');
const SHOTS = join(root, 'test-results/admin');
const stylesheet = readFileSync(join(root, 'src/lib/styles/kitgate.css'), 'utf8');

/** The host apps of src/stories/HostApp.svelte, as plain CSS: what an app around the components brings. */
const hosts = {
	bare: '.host { font-family: revert; }',
	tailwind: `@layer base {
		.host, .host *, .host ::before, .host ::after { box-sizing: border-box; margin: 0; padding: 0; border: 0 solid; }
		.host { font-family: ui-sans-serif, system-ui, sans-serif; line-height: 1.5; }
		.host :where(h1, h2) { font-size: inherit; font-weight: inherit; }
		.host :where(button, input, select, textarea) { font: inherit; color: inherit; background-color: transparent; border-radius: 0; }
		.host :where(ol, ul) { list-style: none; }
	}`,
	skeleton: `.host {
		--kg-brand: oklch(57.33% 0.2 258.51deg);
		--kg-card: light-dark(oklch(100% 0 none), oklch(21.34% 0.03 268.66deg));
		--kg-bg: light-dark(oklch(95.94% 0.01 261.91deg), oklch(13.87% 0.02 270.81deg));
		--kg-text: light-dark(oklch(13.87% 0.02 270.81deg), oklch(100% 0 none));
		--kg-divider: light-dark(oklch(86.38% 0.03 264.53deg), oklch(39.32% 0.06 266.89deg));
		--kg-radius: 0.375rem;
		font-family: system-ui;
	}`
} as const;
type Host = keyof typeof hosts;

const FRAME = `
	body { margin: 0; background: var(--kg-bg); color: var(--kg-text); }
	.host > header { display: flex; justify-content: space-between; padding: 0.75rem 1rem; border-bottom: 1px solid #8884; }
	.host > main { padding: 1rem; }`;

type AnyComponent = Component<Record<string, unknown>>;

/** A host app's page around one component, rendered on the server as SvelteKit would. */
function hostPage(host: Host, scheme: 'light' | 'dark', title: string, component: unknown, props: Record<string, unknown>): string {
	const { body } = render(component as AnyComponent, { props });
	return `<!doctype html><html lang="en" data-kg-theme="${scheme}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
		<style>${stylesheet}</style><style>${FRAME}${hosts[host]}</style></head>
		<body><div class="host"><header><strong>My app</strong></header><main><h1>${title}</h1>${body}</main></div></body></html>`;
}

/** What the boxes of an admin component measure in the page. */
interface AdminBoxes {
	/** How far any control sticks out of its section's box. */
	overflow: number;
	/** The widest compact button against its section's width. */
	widestCompact: number;
	/** Rows whose badges overlap their name. */
	badgeOverlaps: number;
	/** Distinct border radii of the text fields (input, select, textarea). */
	fieldRadii: string[];
	font: string;
	/** Ticked boxes that are not shown (size 0) or lack a visible label. */
	hiddenChecks: number;
	/** Row names squeezed onto more than two lines (by badges or buttons beside them). */
	squeezedNames: number;
}

async function measure(page: Page): Promise<AdminBoxes> {
	return page.evaluate(() => {
		const admin = document.querySelector('.kg-admin')!;
		let overflow = 0;
		let widestCompact = 0;
		for (const section of admin.querySelectorAll('.kg-section')) {
			const box = section.getBoundingClientRect();
			for (const control of section.querySelectorAll('input:not([type=hidden]), select, textarea, button, a')) {
				const c = control.getBoundingClientRect();
				overflow = Math.max(overflow, box.left - c.left, c.right - box.right);
			}
			for (const button of section.querySelectorAll('.kg-compact')) widestCompact = Math.max(widestCompact, button.getBoundingClientRect().width / box.width);
		}
		let badgeOverlaps = 0;
		for (const item of admin.querySelectorAll('.kg-list-item')) {
			const main = item.querySelector('.kg-item-title')?.getBoundingClientRect();
			const badges = item.querySelector('.kg-badges')?.getBoundingClientRect();
			if (main && badges && badges.width > 0 && main.right > badges.left + 0.5 && main.left < badges.right && main.bottom > badges.top + 0.5 && main.top < badges.bottom) badgeOverlaps++;
		}
		const fields = [...admin.querySelectorAll('.kg-field input, .kg-field select, .kg-field textarea')];
		const hiddenChecks = [...admin.querySelectorAll('.kg-check')].filter((check) => {
			const box = check.querySelector('input')!.getBoundingClientRect();
			return box.width < 12 || box.height < 12 || !check.querySelector('span')?.textContent?.trim();
		}).length;
		const squeezedNames = [...admin.querySelectorAll('.kg-list-item .kg-item-title')].filter((title) => {
			const lineHeight = parseFloat(getComputedStyle(title).lineHeight) || 24;
			return title.getBoundingClientRect().height > 2.5 * lineHeight;
		}).length;
		return {
			squeezedNames,
			overflow,
			widestCompact,
			badgeOverlaps,
			fieldRadii: [...new Set(fields.map((field) => getComputedStyle(field).borderTopLeftRadius))],
			font: getComputedStyle(admin).fontFamily,
			hiddenChecks
		};
	});
}

let browser: Browser;

beforeAll(async () => {
	mkdirSync(SHOTS, { recursive: true });
	browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu'] });
});

afterAll(async () => {
	await browser?.close();
});

const components = [
	['users', 'Users', AdminUsers, { list: usersPage, callbackUrl: '/admin', result: 'user-created' }],
	['user', 'Manage a user', AdminUserDetail, { detail: fullDetail, callbackUrl: '/admin/user?id=user-1', listUrl: '/admin' }],
	['banned', 'Manage a user', AdminUserDetail, { detail: bannedDetail, callbackUrl: '/admin/user?id=user-1', error: 'UserBanned', messages: resolveMessages('fr') }]
] as const;

describe.each(Object.keys(hosts) as Host[])('in the %s host app', (host) => {
	test.each(components.flatMap(([name, ...rest]) => (['light', 'dark'] as const).map((scheme) => [name, scheme, ...rest] as const)))(
		'%s, %s: axe-clean, boxes held, wide and narrow',
		async (name, scheme, title, component, props) => {
			const context = await browser.newContext({ viewport: { width: 720, height: 900 }, colorScheme: scheme });
			try {
				const page = await context.newPage();
				await page.setContent(hostPage(host, scheme, title, component, props));
				await expectNoSeriousViolations(page, `${host} ${name} ${scheme}`);
				for (const width of [720, 360]) {
					await page.setViewportSize({ width, height: 900 });
					const boxes = await measure(page);
					expect(boxes.overflow, `${width}px: no control sticks out of its section`).toBeLessThanOrEqual(0.5);
					expect(boxes.widestCompact, `${width}px: compact buttons are not bars`).toBeLessThan(width > 400 ? 0.4 : 0.6);
					expect(boxes.badgeOverlaps, `${width}px: badges keep off the names`).toBe(0);
					expect(boxes.fieldRadii, 'inputs, selects and textareas alike').toHaveLength(1);
					expect(boxes.fieldRadii[0], 'fields have rounded corners in every host').not.toBe('0px');
					expect(boxes.font.split(',')[0].trim().replace(/"/g, ''), 'not the browser serif').not.toMatch(/^(serif|Times|Times New Roman|DejaVu Serif)$/i);
					expect(boxes.hiddenChecks).toBe(0);
					expect(boxes.squeezedNames, `${width}px: names keep room to read`).toBe(0);
					await page.screenshot({ path: join(SHOTS, `${host}-${name}-${scheme}-${width}.png`), fullPage: true, animations: 'disabled', caret: 'hide' });
				}
			} finally {
				await context.close();
			}
		}
	);
});

describe('the built-in admin pages', () => {
	const common = (scheme: 'light' | 'dark') => ({ theme: { colorScheme: scheme }, messages: resolveMessages('en'), lang: 'en' });
	const pages = [
		['admin-users', (scheme: 'light' | 'dark') => renderPage('admin-users', { ...common(scheme), list: usersPage, callbackUrl: 'http://localhost/auth/admin', homeUrl: 'http://localhost/' })],
		['admin-user', (scheme: 'light' | 'dark') => renderPage('admin-user', { ...common(scheme), detail: fullDetail, callbackUrl: 'http://localhost/auth/admin/user?id=user-1', listUrl: 'http://localhost/auth/admin', homeUrl: 'http://localhost/' })]
	] as const;

	test.each(pages.flatMap(([kind, html]) => (['light', 'dark'] as const).map((scheme) => [kind, scheme, html] as const)))('%s, %s: axe-clean and boxes held', async (kind, scheme, html) => {
		const context = await browser.newContext({ viewport: { width: 720, height: 900 }, colorScheme: scheme });
		try {
			const page = await context.newPage();
			await page.setContent(html(scheme));
			await expectNoSeriousViolations(page, `${kind} ${scheme}`);
			const boxes = await measure(page);
			expect(boxes.overflow).toBeLessThanOrEqual(0.5);
			expect(boxes.badgeOverlaps).toBe(0);
			expect(boxes.squeezedNames).toBe(0);
			await page.screenshot({ path: join(SHOTS, `page-${kind}-${scheme}.png`), fullPage: true, animations: 'disabled', caret: 'hide' });
		} finally {
			await context.close();
		}
	});
});

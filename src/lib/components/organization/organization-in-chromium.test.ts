// The organization components and pages as a person sees them, in Chromium: OrganizationSwitcher,
// CreateOrganization, OrganizationSettings (with OrganizationMembers), OrganizationInvitation with the
// shipped stylesheet (kitgate/styles.css) inside the three host apps the admin components are tested in
// (no CSS, Tailwind's preflight reset, a UI library's theme), light and dark, wide and narrow, then the
// built-in organization pages as served. Each is axe-clean (no serious or critical violation) and holds
// its boxes: no control sticks out of its section, compact buttons are not bars, badges keep off the
// names, fields are styled alike, names keep room to read. Screenshots go to test-results/organization/.

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
import { adminDetail, CSRF, INVITATION_TOKEN, invitationForSomeoneElse, invitationForYou, invitationSignedOut, memberDetail, organizationList, ownerDetail } from '../test/organization-views.js';
import CreateOrganization from './CreateOrganization.svelte';
import OrganizationInvitation from './OrganizationInvitation.svelte';
import OrganizationSettings from './OrganizationSettings.svelte';
import OrganizationSwitcher from './OrganizationSwitcher.svelte';

const root = join(import.meta.dirname, '../../../..');
const SHOTS = join(root, 'test-results/organization');
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

/** What the boxes of an organization component measure in the page. */
interface Boxes {
	/** How far any control sticks out of its section's box. */
	overflow: number;
	/** The widest compact button against its section's width. */
	widestCompact: number;
	/** The widest other button (or button link) against its section's width. */
	widestButton: number;
	/** Rows whose badges overlap their name. */
	badgeOverlaps: number;
	/** Distinct border radii of the text fields (input, select, textarea). */
	fieldRadii: string[];
	font: string;
	/** Ticked boxes that are not shown (size 0) or lack a visible label. */
	hiddenChecks: number;
	/** Row names squeezed onto more than two lines by badges or buttons beside them (a name across the whole row may wrap). */
	squeezedNames: number;
}

async function measure(page: Page): Promise<Boxes> {
	return page.evaluate(() => {
		const root = document.querySelector('.kg-organization')!;
		let overflow = 0;
		let widestCompact = 0;
		let widestButton = 0;
		for (const section of root.querySelectorAll('.kg-section')) {
			const box = section.getBoundingClientRect();
			for (const control of section.querySelectorAll('input:not([type=hidden]), select, textarea, button, a')) {
				const c = control.getBoundingClientRect();
				overflow = Math.max(overflow, box.left - c.left, c.right - box.right);
			}
			for (const button of section.querySelectorAll('.kg-compact')) widestCompact = Math.max(widestCompact, button.getBoundingClientRect().width / box.width);
			for (const button of section.querySelectorAll('.kg-button:not(.kg-compact)')) widestButton = Math.max(widestButton, button.getBoundingClientRect().width / box.width);
		}
		let badgeOverlaps = 0;
		for (const item of root.querySelectorAll('.kg-list-item')) {
			const main = item.querySelector('.kg-item-title')?.getBoundingClientRect();
			const badges = item.querySelector('.kg-badges')?.getBoundingClientRect();
			if (main && badges && badges.width > 0 && main.right > badges.left + 0.5 && main.left < badges.right && main.bottom > badges.top + 0.5 && main.top < badges.bottom) badgeOverlaps++;
		}
		const fields = [...root.querySelectorAll('.kg-field input, .kg-field select, .kg-field textarea')];
		const hiddenChecks = [...root.querySelectorAll('.kg-check')].filter((check) => {
			const box = check.querySelector('input')!.getBoundingClientRect();
			return box.width < 12 || box.height < 12 || !check.querySelector('span')?.textContent?.trim();
		}).length;
		const squeezedNames = [...root.querySelectorAll('.kg-list-item .kg-item-title')].filter((title) => {
			const lineHeight = parseFloat(getComputedStyle(title).lineHeight) || 24;
			// a long name may wrap across the whole row; squeezed is wrapping beside something taking the room
			const row = title.closest('.kg-list-item')!.getBoundingClientRect();
			const box = title.getBoundingClientRect();
			return box.height > 2.5 * lineHeight && box.width < 0.6 * row.width;
		}).length;
		return {
			squeezedNames,
			overflow,
			widestCompact,
			widestButton,
			badgeOverlaps,
			fieldRadii: [...new Set(fields.map((field) => getComputedStyle(field).borderTopLeftRadius))],
			font: getComputedStyle(root).fontFamily,
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
					// taken before the checks, so a failure can be looked at
					await page.screenshot({ path: join(SHOTS, `${host}-${name}-${scheme}-${width}.png`), fullPage: true, animations: 'disabled', caret: 'hide' });
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
				}
			} finally {
				await context.close();
			}
		}
	);
});

describe('the built-in organization pages', () => {
	const common = (scheme: 'light' | 'dark') => ({ theme: { colorScheme: scheme }, messages: resolveMessages('en'), lang: 'en' });
	const base = { basePath: '/auth', homeUrl: 'http://localhost/' };
	const pages = [
		['organizations', (scheme: 'light' | 'dark') => renderPage('organizations', { ...common(scheme), ...base, list: organizationList, callbackUrl: 'http://localhost/auth/organizations' })],
		['organization-settings', (scheme: 'light' | 'dark') => renderPage('organization-settings', { ...common(scheme), ...base, detail: ownerDetail, callbackUrl: 'http://localhost/auth/organizations/settings?id=org-1', listUrl: 'http://localhost/auth/organizations' })],
		['organization-invitation', (scheme: 'light' | 'dark') => renderPage('organization-invitation', { ...common(scheme), ...base, invitation: invitationSignedOut, token: INVITATION_TOKEN, signInUrl: 'http://localhost/auth/signin', signOutUrl: 'http://localhost/auth/signout' })]
	] as const;

	test.each(pages.flatMap(([kind, html]) => (['light', 'dark'] as const).map((scheme) => [kind, scheme, html] as const)))('%s, %s: axe-clean and boxes held, wide and narrow', async (kind, scheme, html) => {
		const context = await browser.newContext({ viewport: { width: 720, height: 900 }, colorScheme: scheme });
		try {
			const page = await context.newPage();
			await page.setContent(html(scheme));
			await expectNoSeriousViolations(page, `${kind} ${scheme}`);
			for (const width of [720, 360]) {
				await page.setViewportSize({ width, height: 900 });
				const boxes = await measure(page);
				// taken before the checks, so a failure can be looked at
				await page.screenshot({ path: join(SHOTS, `page-${kind}-${scheme}-${width}.png`), fullPage: true, animations: 'disabled', caret: 'hide' });
				expect(boxes.overflow).toBeLessThanOrEqual(0.5);
				expect(boxes.badgeOverlaps).toBe(0);
				expect(boxes.squeezedNames).toBe(0);
			}
		} finally {
			await context.close();
		}
	});
});

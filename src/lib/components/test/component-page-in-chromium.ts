// The Chromium world of the component tests (admin, organization): one browser a test file, a page
// a test in a light or dark scheme, a component rendered on the server inside one of the host apps of
// src/stories/HostApp.svelte with the shipped stylesheet, axe on it, and what its boxes measure at
// each width.

import { chromium, type Browser, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Component } from 'svelte';
import { render } from 'svelte/server';
import { afterAll, beforeAll } from 'vitest';
import { chromiumPath } from '../../../../scripts/chromium-path.js';
import { expectNoSeriousViolations } from './axe-in-chromium.js';

const root = join(import.meta.dirname, '../../../..');
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

/** One of the host apps. */
export type Host = keyof typeof hosts;

/** The host apps, in the order the tests go through them. */
export const hostNames = Object.keys(hosts) as Host[];

/** The colour schemes each view is looked at in. */
export type Scheme = 'light' | 'dark';

type WithScheme<Row> = Row extends readonly [infer Name, ...infer Rest] ? readonly [Name, Scheme, ...Rest] : never;

/**
 * Each row once light and once dark, the scheme second: the cases of a `test.each` named `'%s, %s: …'`.
 *
 * @example
 * test.each(inBothSchemes([['users', AdminUsers]] as const))('%s, %s', async (name, scheme, component) => {});
 */
export function inBothSchemes<Row extends readonly [unknown, ...unknown[]]>(rows: readonly Row[]): WithScheme<Row>[] {
	return rows.flatMap(([name, ...rest]) => (['light', 'dark'] as const).map((scheme) => [name, scheme, ...rest] as unknown as WithScheme<Row>));
}

const FRAME = `
	body { margin: 0; background: var(--kg-bg); color: var(--kg-text); }
	.host > header { display: flex; justify-content: space-between; padding: 0.75rem 1rem; border-bottom: 1px solid #8884; }
	.host > main { padding: 1rem; }`;

type AnyComponent = Component<Record<string, unknown>>;

/**
 * A host app's page around one component, rendered on the server as SvelteKit would.
 *
 * @example
 * await page.setContent(hostPage('tailwind', 'dark', 'Users', AdminUsers, { list: usersPage, callbackUrl: '/admin' }));
 */
export function hostPage(host: Host, scheme: Scheme, title: string, component: unknown, props: Record<string, unknown>): string {
	const { body } = render(component as AnyComponent, { props });
	return `<!doctype html><html lang="en" data-kg-theme="${scheme}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
		<style>${stylesheet}</style><style>${FRAME}${hosts[host]}</style></head>
		<body><div class="host"><header><strong>My app</strong></header><main><h1>${title}</h1>${body}</main></div></body></html>`;
}

/**
 * Launches Chromium before the calling file's tests and closes it after them; measures the component
 * under `measured.root`; screenshots go to test-results/`shots`/ (not committed), for a look by eye.
 *
 * @example
 * const chromiumPage = componentPagesInChromium('admin', { root: '.kg-admin' });
 * await chromiumPage.axeCleanAtWidths('dark', html, 'users dark', [720, 360], async (boxes, width, page) => {
 * 	expect(boxes.overflow).toBeLessThanOrEqual(0.5);
 * 	await chromiumPage.screenshot(page, `users-dark-${width}`);
 * });
 */
export function componentPagesInChromium(shots: string, measured: MeasureOptions) {
	const folder = join(root, 'test-results', shots);
	let browser: Browser;

	beforeAll(async () => {
		mkdirSync(folder, { recursive: true });
		browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu'] });
	});

	afterAll(async () => {
		await browser?.close();
	});

	return {
		/**
		 * Shows `html` in a page of its own in `scheme`, expects axe to find no serious or critical
		 * violation (`name` labels a failure), then hands `check` the component's boxes at each of
		 * `widths`; the page is closed after.
		 */
		async axeCleanAtWidths(scheme: Scheme, html: string, name: string, widths: number[], check: (boxes: Boxes, width: number, page: Page) => Promise<void>): Promise<void> {
			const context = await browser.newContext({ viewport: { width: 720, height: 900 }, colorScheme: scheme });
			try {
				const page = await context.newPage();
				await page.setContent(html);
				await expectNoSeriousViolations(page, name);
				for (const width of widths) {
					await page.setViewportSize({ width, height: 900 });
					await check(await measureBoxes(page, measured), width, page);
				}
			} finally {
				await context.close();
			}
		},
		/** Saves the whole page as `name`.png. */
		async screenshot(page: Page, name: string): Promise<void> {
			await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true, animations: 'disabled', caret: 'hide' });
		}
	};
}

/** What the boxes of a component measure in the page. */
export interface Boxes {
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
	/** Row names squeezed onto more than two lines (by badges or buttons beside them). */
	squeezedNames: number;
}

/** How to measure: the component's root element, and whether a long name across the whole row may wrap. */
export interface MeasureOptions {
	root: string;
	/** When set, a name wrapping over most of its row's width is not counted as squeezed. */
	wideNamesMayWrap?: boolean;
}

/** Measures the boxes of the component under `root` at the page's current size. */
async function measureBoxes(page: Page, options: MeasureOptions): Promise<Boxes> {
	return page.evaluate(({ root: rootSelector, wideNamesMayWrap }) => {
		const root = document.querySelector(rootSelector)!;
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
			const box = title.getBoundingClientRect();
			// squeezed is wrapping beside something taking the room
			const acrossTheRow = wideNamesMayWrap === true && box.width >= 0.6 * title.closest('.kg-list-item')!.getBoundingClientRect().width;
			return box.height > 2.5 * lineHeight && !acrossTheRow;
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
	}, options);
}

// kitgate's components in three host apps made by the official tools from the packed tarball
// (e2e-apps/setup.ts): the getting-started guide's app (no CSS of its own), the same guide in an
// app with Tailwind CSS 4 (docs/with-tailwind.md) and in one with Skeleton's theme
// (docs/with-skeleton.md). In Chromium, light and dark, desktop and phone width: the whole
// sign-in's boxes (no control wider than its card, a gap between forms), the app's font, SignOut
// no wider than its label, UserButton's menu from the keyboard. KITGATE_UPDATE_SCREENSHOTS=1 writes
// the pictures of docs/components.md (docs/images/components/); each run writes the measurements
// to reports/component-boxes.json.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectCompactSignOut, expectKeyboardUserMenu, expectSignInBoxes, fontOf } from '../e2e/component-boxes.js';
import { realApps } from './apps.js';
import type { AppName } from './setup.js';

const ROOT = resolve(import.meta.dirname, '..');
const REPORT = join(ROOT, 'reports/component-boxes.json');
const PICTURES = join(ROOT, 'docs/images/components');
const { apps } = realApps();

const hosts: { app: AppName; name: string }[] = [
	{ app: 'sveltekit', name: 'bare' },
	{ app: 'tailwind', name: 'tailwind' },
	{ app: 'skeleton', name: 'skeleton' }
];
const viewports = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } } as const;
const schemes = ['light', 'dark'] as const;

/** Measurements of this run, for the report. */
function record(key: string, value: unknown) {
	mkdirSync(dirname(REPORT), { recursive: true });
	let all: Record<string, unknown> = {};
	try {
		all = JSON.parse(readFileSync(REPORT, 'utf8')) as Record<string, unknown>;
	} catch {
		// first measurement of the run
	}
	writeFileSync(REPORT, JSON.stringify({ ...all, [key]: value }, null, 2));
}

/** A picture for docs/components.md (only with KITGATE_UPDATE_SCREENSHOTS=1): the part of the window that shows the component. */
async function picture(page: Page, name: string, clip: { x: number; y: number; width: number; height: number }) {
	if (!process.env.KITGATE_UPDATE_SCREENSHOTS) return;
	mkdirSync(PICTURES, { recursive: true });
	await page.screenshot({ path: join(PICTURES, `${name}.png`), animations: 'disabled', caret: 'hide', clip });
}

async function signIn(page: Page, origin: string) {
	await page.goto(`${origin}/signin?callbackUrl=%2Fdashboard`);
	const card = page.locator('.kg-signin-all');
	await card.getByLabel('Username').fill('ada');
	await card.getByLabel('Password').fill('correct horse battery staple');
	await card.getByRole('button', { name: 'Sign in with Credentials' }).click();
	await expect(page).toHaveURL(`${origin}/dashboard`);
}

test.describe.configure({ mode: 'serial' });

for (const { app, name } of hosts) {
	const { origin } = apps[app];

	for (const scheme of schemes) {
		for (const [size, viewport] of Object.entries(viewports)) {
			test(`${name} app, ${scheme}, ${size}: the whole sign-in holds its boxes and takes the app's font`, async ({ browser }) => {
				const context = await browser.newContext({ viewport, colorScheme: scheme });
				try {
					const page = await context.newPage();
					await page.goto(`${origin}/signin`);
					const card = page.locator('.kg-signin-all');
					await expect(card.getByRole('button')).toHaveText(['Sign in with Credentials', 'Sign in with Company SSO', 'Sign in with Email']);
					await expect(card.locator('.kg-divider')).toHaveCount(2);
					const boxes = await expectSignInBoxes(card);
					// the app's font where it has one (Tailwind's, Skeleton's theme's); a system font, never the browser's serif, where it has none
					const appFont = await fontOf(page.locator('body'));
					const font = await fontOf(card.getByRole('button', { name: 'Sign in with Credentials' }));
					expect(font).toBe(appFont);
					expect(font).not.toMatch(/^(serif|"?Times)/i);
					if (app === 'sveltekit') expect(font).toMatch(/^system-ui/);
					// light or dark with the app (each follows the system): a card of the scheme's lightness, its text the other way
					const lightness = await card.evaluate((element) => {
						const style = getComputedStyle(element);
						const of = (color: string) => {
							const probe = document.createElement('canvas').getContext('2d')!;
							probe.fillStyle = color;
							probe.fillRect(0, 0, 1, 1);
							const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
							return a === 0 ? -1 : (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
						};
						return { card: of(style.backgroundColor), text: of(style.color), background: style.backgroundColor };
					});
					if (scheme === 'light') expect(lightness.card, 'a light card').toBeGreaterThan(0.85);
					else expect(lightness.card, 'a dark card').toBeLessThan(0.2);
					expect(lightness.card >= 0 && Math.abs(lightness.card - lightness.text), 'text that stands out from the card').toBeGreaterThan(0.6);
					record(`${name}/${scheme}/${size}/signin`, { ...boxes, font, lightness });
					const bottom = Math.min(viewport.height, Math.ceil(boxes.card.bottom + 24));
					const left = Math.max(0, Math.floor(boxes.card.left - 24));
					await picture(page, `${name}-signin-${scheme}-${size}`, { x: left, y: 0, width: Math.min(viewport.width - left, Math.ceil(boxes.card.width + 48)), height: bottom });
				} finally {
					await context.close();
				}
			});
		}

		test(`${name} app, ${scheme}: SignOut sized to its label, UserButton's menu from the keyboard`, async ({ browser }) => {
			const context = await browser.newContext({ viewport: viewports.desktop, colorScheme: scheme });
			try {
				const page = await context.newPage();
				await signIn(page, origin);
				const signOut = await expectCompactSignOut(page.locator('main form.kg-signout button'));
				await expectKeyboardUserMenu(page, 'Ada Lovelace');
				await page.locator('.kg-userbutton > summary').click();
				const menu = page.locator('.kg-menu');
				await expect(menu.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/auth/account');
				const menuBox = await menu.boundingBox();
				expect(menuBox!.x + menuBox!.width, 'the menu stays in the window').toBeLessThanOrEqual(viewports.desktop.width);
				record(`${name}/${scheme}/signout`, signOut);
				await picture(page, `${name}-menu-${scheme}`, { x: viewports.desktop.width - 420, y: 0, width: 420, height: 300 });
				await menu.getByRole('button', { name: 'Sign out' }).click();
				await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
			} finally {
				await context.close();
			}
		});
	}
}

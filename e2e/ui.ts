// What the UI tests share: the built-in pages in each state, the two colour schemes, a browser
// context without JavaScript, and an axe check that fails on serious or critical violations.

import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';

/** One state of a built-in page: where it is (under the app's origin) and what shows it rendered. */
export interface BuiltInPage {
	/** Also the screenshot name, shared by both apps: `<name>-<scheme>.png`. */
	name: string;
	path: string;
	heading: string;
	/** An element whose text names the host: screenshots drop the port, which is the only difference between the apps. */
	hostText?: string;
}

/** Every built-in page, with the sign-in page also in its error state. */
export const builtInPages: BuiltInPage[] = [
	{ name: 'signin', path: '/auth/signin', heading: 'Sign in' },
	{ name: 'signin-error', path: '/auth/signin?error=CredentialsSignin', heading: 'Sign in' },
	{ name: 'signout', path: '/auth/signout', heading: 'Sign out' },
	{ name: 'error', path: '/auth/error?error=AccessDenied', heading: 'Access denied' },
	{ name: 'error-configuration', path: '/auth/error?error=Configuration', heading: 'There is a problem with the server configuration' },
	{ name: 'verify-request', path: '/auth/verify-request?provider=email', heading: 'Check your email' },
	{
		name: 'verify-email',
		path: '/auth/callback/email?token=0123456789abcdef0123456789abcdef&email=reader%40example.com',
		heading: 'Confirm sign in',
		// "Sign in to localhost:<port> as …"
		hostText: '.kg-text'
	}
];

export const schemes = ['light', 'dark'] as const;
export type Scheme = (typeof schemes)[number];

/** The same window for every screenshot, so both apps' pages can be compared pixel for pixel. */
export const viewport = { width: 720, height: 900 };

/** A second browser context with JavaScript turned off (what a no-JS visitor or a crawler sees). */
export function noScriptContext(browser: Browser, colorScheme: Scheme = 'light'): Promise<BrowserContext> {
	return browser.newContext({ javaScriptEnabled: false, viewport, colorScheme });
}

/** Runs axe on the page (WCAG 2 A/AA rules and best practices) and expects no serious or critical violation. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
	// axe.run in the page itself: the default mode also opens a blank page to merge the frames' results
	// (0.3 s instead of 1 s a page; these pages have no frames, the results are the same): a frame fails here
	expect(page.frames(), 'a page without frames').toHaveLength(1);
	const { violations } = await new AxeBuilder({ page }).setLegacyMode().withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
	const serious = violations
		.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
		.map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
	expect(serious, `axe on ${page.url()}`).toEqual([]);
}

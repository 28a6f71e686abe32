// The worlds the end-to-end tests build as Playwright fixtures, each torn down after its test:
// people, each in a browser of their own, and demos a test starts on their own port and SQLite
// file (e2e/own-demo.ts). Every test still gets Playwright's own fixtures (page, browser, …).

import { test as base, type BrowserContext, type Page } from '@playwright/test';
import type { DemoApp } from './apps.js';
import { startOwnDemo, type OwnDemo } from './own-demo.js';
import { viewport } from './ui.js';

export { expect } from '@playwright/test';

/** One person's browser: a context of its own and a page in it. */
export interface Person {
	context: BrowserContext;
	page: Page;
}

export const test = base.extend<{
	/** Opens a browser of its own (another person, or the same person's other device). */
	newPerson: () => Promise<Person>;
	/** Starts `app`'s demo on `port` with `env` and a fresh SQLite file; answers its origin once it listens. */
	ownDemo: (app: DemoApp, port: number, env?: Record<string, string>) => Promise<string>;
}>({
	newPerson: async ({ browser }, use) => {
		const contexts: BrowserContext[] = [];
		await use(async () => {
			const context = await browser.newContext({ viewport });
			contexts.push(context);
			return { context, page: await context.newPage() };
		});
		for (const context of contexts) await context.close();
	},
	// eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none
	ownDemo: async ({}, use) => {
		const demos: OwnDemo[] = [];
		await use(async (app, port, env = {}) => {
			const demo = startOwnDemo(app, port, env);
			demos.push(demo);
			await demo.ready;
			return demo.origin;
		});
		// Playwright runs every fixture's teardown even when another fails: a browser that fails to
		// close never leaves a demo running on its port
		for (const demo of demos) demo.stop();
	}
});

// Playwright for the real apps (e2e-apps/): made from the packed tarball by the official tools,
// built and started by the global set-up; Debian's Chromium as in playwright.config.ts.

import { defineConfig } from '@playwright/test';
import { chromiumPath } from './scripts/chromium-path.js';

/** The specs that sign in to, start, type-check in or copy the apps the global set-up made: never two at once. */
const SET_UP_APP_SPECS = ['components.spec.ts', 'docs-types.spec.ts', 'signin.spec.ts', 'startup.spec.ts', 'testing-fixtures.spec.ts'];

export default defineConfig({
	testDir: 'e2e-apps',
	outputDir: 'test-results-apps',
	globalSetup: './e2e-apps/setup.ts',
	// two workers: the specs that use, change or copy the apps of the set-up run one after another in
	// their own project; the others make their own apps (kitgate init, Cloudflare, the deploying
	// guide, the Auth.js migration apps) and run beside them
	workers: 2,
	projects: [
		{ name: 'set-up apps', testMatch: SET_UP_APP_SPECS, workers: 1 },
		{ name: 'own apps', testIgnore: SET_UP_APP_SPECS }
	],
	retries: 0,
	timeout: 60_000,
	globalTimeout: 30 * 60_000,
	reporter: process.env.CI ? [['list'], ['json', { outputFile: 'reports/playwright-apps.json' }]] : 'list',
	use: {
		launchOptions: {
			executablePath: chromiumPath(),
			args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']
		}
	}
});

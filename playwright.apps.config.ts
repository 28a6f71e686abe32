// Playwright for the real apps (e2e-apps/): made from the packed tarball by the official tools,
// built and started by the global set-up; Debian's Chromium as in playwright.config.ts.

import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const chromium = '/usr/bin/chromium';

export default defineConfig({
	testDir: 'e2e-apps',
	outputDir: 'test-results-apps',
	globalSetup: './e2e-apps/setup.ts',
	workers: 1,
	retries: 0,
	timeout: 60_000,
	globalTimeout: 30 * 60_000,
	reporter: process.env.CI ? [['list'], ['json', { outputFile: 'reports/playwright-apps.json' }]] : 'list',
	use: {
		launchOptions: {
			executablePath: existsSync(chromium) ? chromium : undefined,
			args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']
		}
	}
});

// Playwright: Debian's Chromium headless shell when present (scripts/chromium-path.js), both
// demo apps started as web servers: SvelteKit (built, adapter-node) and the Express example,
// with the local IdP and mail sink they use; each also with its other session strategy
// (SvelteKit on JWT, Express on database sessions) for the account tests (e2e/account.spec.ts).

import { defineConfig } from '@playwright/test';
import { chromiumPath } from './scripts/chromium-path.js';

const SVELTEKIT_PORT = 4173;
const EXPRESS_PORT = 3100;
const SVELTEKIT_JWT_PORT = 4174;
const EXPRESS_DATABASE_PORT = 3101;
const SVELTEKIT_STALE_PORT = 4175;
const EXPRESS_STALE_PORT = 3102;
/** account.freshSignIn.maxAge of the "stale" demos (e2e/apps.ts staleApps). */
const STALE_AFTER_SECONDS = 4;
/**
 * The specs that sign in as the demos' shared user `demo` (credentials, passkeys, remote functions,
 * the session state, the components) or its IdP account, or restart a demo: never two at once.
 */
const SHARED_DEMO_USER_SPECS = [
	'base-path.spec.ts',
	'credentials.spec.ts',
	'oidc.spec.ts',
	'passkey.spec.ts',
	'passkey-autofill.spec.ts',
	'remote-functions.spec.ts',
	'restart.spec.ts',
	'session-state.spec.ts',
	'ui-components.spec.ts'
];
/** Where the demos keep their SQLite files (KITGATE_E2E_DATA: a fresh folder starts from empty databases and rate limits). */
const DATA = process.env.KITGATE_E2E_DATA ?? '.data';

export default defineConfig({
	testDir: 'e2e',
	outputDir: 'test-results',
	// two workers: the specs that sign in as the shared demo user (or change it: passkeys, the IdP's
	// demo account) run one after another in their own project; the others make their own users
	// (fresh addresses, their own demo processes on their own ports) and run beside them
	workers: 2,
	projects: [
		{ name: 'demo user', testMatch: SHARED_DEMO_USER_SPECS, workers: 1 },
		{ name: 'own users', testIgnore: SHARED_DEMO_USER_SPECS }
	],
	retries: 0,
	timeout: 30_000,
	reporter: process.env.CI ? [['list'], ['json', { outputFile: 'reports/playwright.json' }]] : 'list',
	// screenshot baselines are committed, one per page and theme, shared by both apps (e2e/ui-pages.spec.ts)
	snapshotPathTemplate: '{testDir}/__screenshots__/{arg}{ext}',
	expect: { toHaveScreenshot: { maxDiffPixelRatio: 0.01, animations: 'disabled', caret: 'hide', scale: 'css' } },
	use: {
		launchOptions: {
			executablePath: chromiumPath(),
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				'--no-first-run',
				'--disable-quic'
			]
		}
	},
	webServer: [
		{
			// the local OpenID Provider both demos sign in with
			command: 'node scripts/demo-idp.js',
			port: 9090,
			reuseExistingServer: false,
			timeout: 30_000
		},
		{
			// the local mail sink both demos send sign-in links to (SMTP 2525, mailbox JSON on 2526)
			command: 'node scripts/demo-smtp.js',
			url: 'http://127.0.0.1:2526/messages',
			reuseExistingServer: false,
			timeout: 30_000
		},
		{
			command: 'node build',
			port: SVELTEKIT_PORT,
			env: {
				PORT: String(SVELTEKIT_PORT),
				HOST: '127.0.0.1',
				ORIGIN: `http://localhost:${SVELTEKIT_PORT}`,
				KITGATE_DB_FILE: `${DATA}/e2e-sveltekit.sqlite`
			},
			reuseExistingServer: false,
			timeout: 60_000
		},
		{
			command: 'node examples/express/server.js',
			port: EXPRESS_PORT,
			env: { PORT: String(EXPRESS_PORT), HOST: '127.0.0.1', KITGATE_EXPRESS_DB_FILE: `${DATA}/e2e-express.sqlite` },
			reuseExistingServer: false,
			timeout: 60_000
		},
		{
			// the same SvelteKit build on JWT sessions
			command: 'node build',
			port: SVELTEKIT_JWT_PORT,
			env: {
				PORT: String(SVELTEKIT_JWT_PORT),
				HOST: '127.0.0.1',
				ORIGIN: `http://localhost:${SVELTEKIT_JWT_PORT}`,
				KITGATE_DB_FILE: `${DATA}/e2e-sveltekit-jwt.sqlite`,
				KITGATE_SESSION_STRATEGY: 'jwt'
			},
			reuseExistingServer: false,
			timeout: 60_000
		},
		{
			// the SvelteKit demo whose sign-ins go stale after 4 s: sensitive changes send the user to sign in again
			command: 'node build',
			port: SVELTEKIT_STALE_PORT,
			env: {
				PORT: String(SVELTEKIT_STALE_PORT),
				HOST: '127.0.0.1',
				ORIGIN: `http://localhost:${SVELTEKIT_STALE_PORT}`,
				KITGATE_DB_FILE: `${DATA}/e2e-sveltekit-stale.sqlite`,
				KITGATE_FRESH_SIGN_IN_MAX_AGE: String(STALE_AFTER_SECONDS)
			},
			reuseExistingServer: false,
			timeout: 60_000
		},
		{
			// the Express demo (JWT sessions) whose sign-ins go stale after 4 s
			command: 'node examples/express/server.js',
			port: EXPRESS_STALE_PORT,
			env: {
				PORT: String(EXPRESS_STALE_PORT),
				HOST: '127.0.0.1',
				KITGATE_EXPRESS_DB_FILE: `${DATA}/e2e-express-stale.sqlite`,
				KITGATE_FRESH_SIGN_IN_MAX_AGE: String(STALE_AFTER_SECONDS)
			},
			reuseExistingServer: false,
			timeout: 60_000
		},
		{
			// the same Express demo on database sessions
			command: 'node examples/express/server.js',
			port: EXPRESS_DATABASE_PORT,
			env: {
				PORT: String(EXPRESS_DATABASE_PORT),
				HOST: '127.0.0.1',
				KITGATE_EXPRESS_DB_FILE: `${DATA}/e2e-express-database.sqlite`,
				KITGATE_SESSION_STRATEGY: 'database'
			},
			reuseExistingServer: false,
			timeout: 60_000
		}
	]
});

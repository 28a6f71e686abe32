// The two demo apps the end-to-end tests run against, and how each signs in and out.

import type { Page } from '@playwright/test';

export interface DemoApp {
	name: 'sveltekit' | 'express';
	origin: string;
	/** Clicks through to signing out from a signed-in page. */
	signOut(page: Page): Promise<void>;
}

export const apps: DemoApp[] = [
	{
		name: 'sveltekit',
		origin: 'http://localhost:4173',
		// the SignOut component in the layout posts to the /signout form action
		signOut: (page) => page.getByRole('button', { name: 'Sign out' }).click()
	},
	{
		name: 'express',
		origin: 'http://localhost:3100',
		// the nav links to the built-in sign-out page, which asks for confirmation
		signOut: async (page) => {
			await page.getByRole('link', { name: 'Sign out' }).click();
			await page.getByRole('button', { name: 'Sign out' }).click();
		}
	}
];

/** A demo app with the session strategy it runs on. */
export interface StrategyApp extends DemoApp {
	strategy: 'jwt' | 'database';
	/** Its SQLite file (the end-to-end tests read it to check what is stored). */
	database: string;
}

/**
 * Both demo apps on both session strategies: the defaults (SvelteKit on database sessions, Express
 * on JWT) and the same demos started with KITGATE_SESSION_STRATEGY (playwright.config.ts).
 */
export const strategyApps: StrategyApp[] = [
	{ ...apps[0], strategy: 'database', database: 'e2e-sveltekit.sqlite' },
	{ ...apps[0], origin: 'http://localhost:4174', strategy: 'jwt', database: 'e2e-sveltekit-jwt.sqlite' },
	{ ...apps[1], strategy: 'jwt', database: 'e2e-express.sqlite' },
	{ ...apps[1], origin: 'http://localhost:3101', strategy: 'database', database: 'e2e-express-database.sqlite' }
].map((app) => ({ ...app, database: `${process.env.KITGATE_E2E_DATA ?? '.data'}/${app.database}` }) as StrategyApp);

/** The demo user of both apps. */
export const DEMO = { username: 'demo', password: 'demo-password', name: 'Demo User' };

/** The credentials form's button: "Sign in with Demo account" on both demos (the component is given the provider's name). */
export const CREDENTIALS_BUTTON = /sign in with (credentials|demo account)/i;

/**
 * The demos started with KITGATE_FRESH_SIGN_IN_MAX_AGE=4 (playwright.config.ts): four seconds after
 * a sign-in, sensitive account changes (unlink, remove the last passkey, change email, delete,
 * remove the second factor) send the user to sign in again.
 */
export const staleApps: (StrategyApp & { staleAfterMs: number })[] = [
	{ ...apps[0], origin: 'http://localhost:4175', strategy: 'database', database: 'e2e-sveltekit-stale.sqlite' },
	{ ...apps[1], origin: 'http://localhost:3102', strategy: 'jwt', database: 'e2e-express-stale.sqlite' }
].map((app) => ({ ...app, staleAfterMs: 4000, database: `${process.env.KITGATE_E2E_DATA ?? '.data'}/${app.database}` }) as StrategyApp & { staleAfterMs: number });

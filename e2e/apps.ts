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

/** The demo user of both apps. */
export const DEMO = { username: 'demo', password: 'demo-password', name: 'Demo User' };

/** The credentials form's button: "Sign in with Demo account" on both demos (the component is given the provider's name). */
export const CREDENTIALS_BUTTON = /sign in with (credentials|demo account)/i;

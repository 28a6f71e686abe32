// How a person signs in and out of the demos in the end-to-end tests: an email link from the mail
// sink, the credentials form, each demo's sign-out, and the session the app then sees.

import { expect, type Page } from '@playwright/test';
import { CREDENTIALS_BUTTON, DEMO, type DemoApp } from './apps.js';
import { inbox, mailedLink } from './mailbox.js';

/** Where each demo manages the account: its own page built from AccountSettings, or kitgate's built-in page. */
export const accountPath = (app: DemoApp) => (app.name === 'sveltekit' ? '/account' : '/auth/account');

/** A fresh address (the demo databases outlive a run): `parts`, the time and a random tail, joined by dashes. */
export const uniqueAddress = (...parts: string[]) => `${[...parts, Date.now(), Math.random().toString(36).slice(2, 8)].join('-')}@example.test`;

/** On a sign-in page: asks for a link for `address`, follows the one that arrives and confirms it. Ends wherever the sign-in goes. */
export async function signInOnThisPage(page: Page, address: string): Promise<void> {
	const before = (await inbox(address)).length;
	await page.getByLabel('Email address').fill(address);
	await page.getByRole('button', { name: /sign in with email/i }).click();
	await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
	await page.goto(await mailedLink(address, '/auth/callback/email', before));
	await page.getByRole('button', { name: 'Sign in' }).click();
}

/** From signed out: opens `path`, is sent to sign in, signs in with an email link. Ends wherever the sign-in goes. */
export async function emailSignIn(page: Page, address: string, origin: string, path = '/protected'): Promise<void> {
	await page.goto(`${origin}${path}`);
	await expect(page).toHaveURL(/signin\?callbackUrl=/);
	await signInOnThisPage(page, address);
}

/** From signed out: signs in with an email link on /protected and expects the page to be the user's. */
export async function userSignsIn(page: Page, address: string, origin: string): Promise<void> {
	await emailSignIn(page, address, origin);
	await expect(page).toHaveURL(`${origin}/protected`);
	await expect(page.getByTestId('protected-user')).toContainText(address);
}

/** On a sign-in page: the credentials form with `account` (the demo user unless told). */
export async function typeCredentials(page: Page, account: { username: string; password: string } = DEMO): Promise<void> {
	await page.getByLabel('Username').fill(account.username);
	await page.getByLabel('Password').fill(account.password);
	await page.getByRole('button', { name: CREDENTIALS_BUTTON }).click();
}

/** Signs out from a signed-in page of the demo (at `origin`, when the demo runs elsewhere than its usual port). */
export async function signOut(page: Page, app: DemoApp, origin = app.origin): Promise<void> {
	await page.goto(`${origin}/`);
	await app.signOut(page);
	await expect(page.getByTestId('anonymous')).toBeVisible();
}

/** What the app's session route answers this browser. */
export interface SeenSession {
	user?: { email?: string };
	impersonation?: { admin: { email: string | null } };
}

/** The session as the app's session route sees it in this browser (null or no user: nobody is signed in). */
export async function sessionOf(page: Page, origin: string): Promise<SeenSession | null> {
	return (await (await page.request.get(`${origin}/auth/session`)).json()) as SeenSession | null;
}

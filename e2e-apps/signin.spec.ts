// Signing in to the real apps in Chromium: each app was made by the official tools from the packed
// tarball, built without secrets and started in production. Passwords, OpenID Connect against the
// local identity provider, and email links through the local mail sink.

import { expect, test } from '@playwright/test';
import { connectTestMailbox } from '../src/lib/testing/mailbox.js';
import { freshAddress, loginAtIdp, realApps } from './apps.js';

const { apps, idpUser } = realApps();
// the set-up's mailbox (startTestMailbox of kitgate/testing), read over its listing as an app's tests would
const mailbox = connectTestMailbox(realApps().mailbox);

test.describe('SvelteKit app from the getting-started guide', () => {
	const { origin } = apps.sveltekit;

	test('credentials: a protected page sends to /signin, the password signs in, sign-out signs out', async ({ page }) => {
		await page.goto(`${origin}/dashboard`);
		await expect(page).toHaveURL(`${origin}/signin?callbackUrl=%2Fdashboard`);
		await page.getByLabel('Username').fill('ada');
		await page.getByLabel('Password').fill('correct horse battery staple');
		await page.getByRole('button', { name: 'Sign in with Credentials' }).click();
		await expect(page).toHaveURL(`${origin}/dashboard`);
		await expect(page.getByTestId('dashboard-user')).toHaveText('ada@example.com');
		await page.getByRole('button', { name: /sign out/i }).click();
		await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
		await page.goto(`${origin}/dashboard`);
		await expect(page).toHaveURL(/\/signin/);
	});

	test('credentials: a wrong password shows the error on the page', async ({ page }) => {
		await page.goto(`${origin}/signin`);
		await page.getByLabel('Username').fill('ada');
		await page.getByLabel('Password').fill('wrong');
		await page.getByRole('button', { name: 'Sign in with Credentials' }).click();
		await expect(page.getByRole('alert')).toContainText(/sign in failed/i);
	});

	test('OpenID Connect: the local identity provider signs in', async ({ page }) => {
		await page.goto(`${origin}/signin?callbackUrl=%2Fdashboard`);
		await page.getByRole('button', { name: 'Sign in with Company SSO' }).click();
		await loginAtIdp(page, idpUser.login);
		await expect(page).toHaveURL(`${origin}/dashboard`);
		await expect(page.getByTestId('dashboard-user')).toHaveText(idpUser.email);
	});

	test('email: a link from the mailbox signs in', async ({ page }) => {
		const address = freshAddress('sveltekit');
		await page.goto(`${origin}/signin?callbackUrl=%2Fdashboard`);
		await page.getByLabel('Email address').fill(address);
		await page.getByRole('button', { name: 'Sign in with Email' }).click();
		await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
		await page.goto(await mailbox.waitForLink(address));
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page).toHaveURL(`${origin}/dashboard`);
		await expect(page.getByTestId('dashboard-user')).toHaveText(address);
	});
});

test.describe('Express app from the getting-started guide', () => {
	const { origin } = apps.express;

	test('credentials on the built-in sign-in page', async ({ page }) => {
		await page.goto(`${origin}/dashboard`);
		await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=/);
		await page.getByLabel('Username').fill('ada');
		await page.getByLabel('Password').fill('correct horse battery staple');
		await page.getByRole('button', { name: /sign in with credentials/i }).click();
		await expect(page).toHaveURL(`${origin}/dashboard`);
		await expect(page.getByTestId('dashboard-user')).toHaveText('ada@example.com');
	});

	test('OpenID Connect: the local identity provider signs in', async ({ page }) => {
		await page.goto(`${origin}/dashboard`);
		await page.getByRole('button', { name: 'Sign in with Company SSO' }).click();
		await loginAtIdp(page, idpUser.login);
		await expect(page).toHaveURL(`${origin}/dashboard`);
		await expect(page.getByTestId('dashboard-user')).toHaveText(idpUser.email);
	});

	test('email: a link from the mailbox signs in', async ({ page }) => {
		const address = freshAddress('express');
		await page.goto(`${origin}/dashboard`);
		await page.getByLabel('Email address').fill(address);
		await page.getByRole('button', { name: /sign in with email/i }).click();
		await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
		await page.goto(await mailbox.waitForLink(address));
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page).toHaveURL(`${origin}/dashboard`);
		await expect(page.getByTestId('dashboard-user')).toHaveText(address);
	});
});

test.describe('Auth.js-style SvelteKit app switched by its imports', () => {
	const { origin } = apps.authjs;

	test('Keycloak (an uncalled provider factory) against the local identity provider, with the session field the callbacks add', async ({ page }) => {
		await page.goto(`${origin}/`);
		await page.getByRole('button', { name: 'Sign in with Keycloak' }).click();
		await loginAtIdp(page, idpUser.login);
		await expect(page).toHaveURL(`${origin}/`);
		await expect(page.getByTestId('signed-in-as')).toHaveText('Signed in as Grace Hopper (member)');
		await page.getByRole('button', { name: 'Sign out' }).click();
		await expect(page.getByText('You are not signed in')).toBeVisible();
	});

	test('credentials given with slot="credentials", submitted with the slotted button text', async ({ page }) => {
		await page.goto(`${origin}/signin`);
		await page.getByLabel('Email').fill('linus@example.com');
		await page.getByLabel('Password').fill('penguins');
		await page.getByRole('button', { name: 'Sign in with password' }).click();
		await expect(page).toHaveURL(`${origin}/protected`);
		await expect(page.getByTestId('protected-user')).toHaveText('linus@example.com (admin)');
	});

	test('a wrong password with `actions = { default: signIn }` is a 401, not a 500', async ({ page }) => {
		await page.goto(`${origin}/signin`);
		await page.getByLabel('Email').fill('linus@example.com');
		await page.getByLabel('Password').fill('wrong');
		const [answer] = await Promise.all([
			page.waitForResponse((response) => response.url().startsWith(`${origin}/signin`) && response.request().method() === 'POST'),
			page.getByRole('button', { name: 'Sign in with password' }).click()
		]);
		expect(answer.status()).toBe(401);
	});
});

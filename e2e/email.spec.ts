// Email sign-in on both demo apps: ask for a link, find it in the demo mailbox (the local SMTP
// sink), open it, confirm, and see the session; the same link then no longer works.

import { expect, test, type Page } from '@playwright/test';
import { apps } from './apps.js';

/** Opens the demo mailbox and clicks the sign-in link of the newest mail to `address`. */
async function openLinkFromMailbox(page: Page, origin: string, address: string) {
	await page.goto(`${origin}/dev/mailbox`);
	const mail = page.locator(`[data-testid="mail"][data-to="${address}"]`).first();
	await expect(mail).toContainText(/sign in to localhost:\d+/i);
	await mail.getByTestId('mail-link').first().click();
}

for (const app of apps) {
	test(`${app.name}: sign in with a link from the demo mailbox`, async ({ page }) => {
		const address = `${app.name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;

		await page.goto(`${app.origin}/protected`);
		await expect(page).toHaveURL(/signin\?callbackUrl=/);
		await page.getByLabel('Email address').fill(address);
		await page.getByRole('button', { name: /sign in with email/i }).click();
		await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
		await expect(page.getByText('The link expires in 24 hours and works only once.')).toBeVisible();

		await openLinkFromMailbox(page, app.origin, address);
		// the link opens a confirmation page: nothing is spent until the button is pressed
		await expect(page.getByRole('heading', { name: 'Confirm sign in' })).toBeVisible();
		await expect(page.getByText(address)).toBeVisible();
		expect((await page.context().cookies()).some((c) => c.name === 'kitgate.session-token')).toBe(false);
		await page.getByRole('button', { name: 'Sign in' }).click();

		await expect(page).toHaveURL(`${app.origin}/protected`);
		await expect(page.getByTestId('protected-user')).toContainText(address);
		await page.goto(`${app.origin}/`);
		await expect(page.getByTestId('session-json')).toContainText(address);

		// the same link a second time: the error page explains it
		await app.signOut(page);
		await openLinkFromMailbox(page, app.origin, address);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page.getByText('This sign in link cannot be used')).toBeVisible();
		await page.goto(`${app.origin}/`);
		await expect(page.getByTestId('anonymous')).toBeVisible();
	});
}

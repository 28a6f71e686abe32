// Credentials sign-in, protected page, wrong password and sign-out on both demo apps.

import { expect, test } from '@playwright/test';
import { apps, CREDENTIALS_BUTTON, DEMO } from './apps.js';

for (const app of apps) {
	test.describe(`${app.name} demo`, () => {
		test('anonymous visitors of the protected page are sent to sign in, then come back', async ({ page }) => {
			await page.goto(`${app.origin}/protected`);
			await expect(page).toHaveURL(/signin\?callbackUrl=%2Fprotected/);
			await page.getByLabel('Username').fill(DEMO.username);
			await page.getByLabel('Password').fill(DEMO.password);
			await page.getByRole('button', { name: CREDENTIALS_BUTTON }).click();
			await expect(page).toHaveURL(`${app.origin}/protected`);
			await expect(page.getByTestId('protected-user')).toContainText(DEMO.name);
			const cookies = await page.context().cookies();
			const session = cookies.find((c) => c.name === 'kitgate.session-token');
			expect(session?.httpOnly).toBe(true);
			expect(session?.sameSite).toBe('Lax');
		});

		test('a wrong password shows the error on the sign-in page and gives no session', async ({ page }) => {
			await page.goto(`${app.origin}/protected`);
			await page.getByLabel('Username').fill(DEMO.username);
			await page.getByLabel('Password').fill('not-the-password');
			await page.getByRole('button', { name: CREDENTIALS_BUTTON }).click();
			await expect(page.getByRole('alert')).toContainText(/sign in failed/i);
			const cookies = await page.context().cookies();
			expect(cookies.some((c) => c.name === 'kitgate.session-token')).toBe(false);
			await page.goto(`${app.origin}/protected`);
			await expect(page).toHaveURL(/signin/);
		});

		test('signing out ends the session', async ({ page }) => {
			await page.goto(`${app.origin}/protected`);
			await page.getByLabel('Username').fill(DEMO.username);
			await page.getByLabel('Password').fill(DEMO.password);
			await page.getByRole('button', { name: CREDENTIALS_BUTTON }).click();
			await expect(page.getByTestId('protected-user')).toBeVisible();
			await page.goto(`${app.origin}/`);
			await expect(page.getByTestId('session-user')).toContainText(DEMO.name);
			await app.signOut(page);
			await expect(page.getByTestId('anonymous')).toBeVisible();
			await page.goto(`${app.origin}/protected`);
			await expect(page).toHaveURL(/signin/);
		});
	});
}

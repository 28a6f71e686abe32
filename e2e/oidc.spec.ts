// OpenID Connect sign-in through the local identity provider's login form, on both demo apps.

import { expect, test, type Page } from '@playwright/test';
import { apps } from './apps.js';

/** Fills oidc-provider's development login and consent pages. */
async function loginAtIdp(page: Page) {
	await expect(page).toHaveURL(/127\.0\.0\.1:9090/);
	await page.locator('input[name="login"]').fill('demo');
	await page.locator('input[name="password"]').fill('any-password');
	await page.getByRole('button', { name: /sign-in/i }).click();
	await page.getByRole('button', { name: /continue/i }).click();
}

for (const app of apps) {
	test(`${app.name}: sign in with the demo IdP, see the session, sign out`, async ({ page }) => {
		await page.goto(`${app.origin}/protected`);
		await page.getByRole('button', { name: 'Sign in with Demo IdP' }).click();
		await loginAtIdp(page);
		await expect(page).toHaveURL(`${app.origin}/protected`);
		await expect(page.getByTestId('protected-user')).toContainText('demo@kitgate.dev');
		await page.goto(`${app.origin}/`);
		await expect(page.getByTestId('session-json')).toContainText('demo@kitgate.dev');
		await app.signOut(page);
		await expect(page.getByTestId('anonymous')).toBeVisible();
	});
}

// The built-in pages on both integrations: each page in each state renders the same with and
// without JavaScript, has no serious accessibility violation in light and dark, and matches one
// committed screenshot per page and scheme, shared by SvelteKit and Express (same page, same pixels).

import { expect, test, type Page } from '@playwright/test';
import { apps } from './apps.js';
import { builtInPages, expectNoSeriousA11yViolations, noScriptContext, schemes, viewport, type BuiltInPage } from './ui.js';

/** The forms of a page as plain values (action, method, field names and types); tokens differ per visitor. */
function formsOf(page: Page) {
	return page.locator('form').evaluateAll((forms) =>
		(forms as HTMLFormElement[]).map((form) => ({
			action: form.getAttribute('action'),
			method: form.getAttribute('method'),
			fields: [...form.querySelectorAll('input, button')].map((el) => `${el.tagName}:${el.getAttribute('type')}:${el.getAttribute('name') ?? ''}`)
		}))
	);
}

/** What every rendered built-in page shows: its heading, the stylesheet, labelled fields, a main landmark. */
async function expectRendered(page: Page, builtIn: BuiltInPage) {
	await expect(page.getByRole('heading', { level: 1, name: builtIn.heading })).toBeVisible();
	await expect(page.getByRole('main')).toBeVisible();
	// the inlined stylesheet is on: the card has the token background, not the browser default
	await expect(page.locator('.kg-card')).toHaveCSS('border-top-left-radius', '12px');
	for (const input of await page.locator('input:not([type=hidden])').all()) {
		await expect(input).toHaveAccessibleName(/\S/);
	}
}

for (const app of apps) {
	test.describe(`${app.name}: built-in pages`, () => {
		test.use({ viewport });

		for (const builtIn of builtInPages) {
			test(`${builtIn.name} renders the same forms with and without JavaScript`, async ({ page, browser }) => {
				await page.goto(`${app.origin}${builtIn.path}`);
				await expectRendered(page, builtIn);
				const context = await noScriptContext(browser);
				try {
					const noScript = await context.newPage();
					await noScript.goto(`${app.origin}${builtIn.path}`);
					await expectRendered(noScript, builtIn);
					expect(await formsOf(noScript)).toEqual(await formsOf(page));
				} finally {
					await context.close();
				}
			});

			for (const scheme of schemes) {
				test(`${builtIn.name}, ${scheme}: no serious accessibility violation, and the shared screenshot`, async ({ page }) => {
					await page.emulateMedia({ colorScheme: scheme });
					await page.goto(`${app.origin}${builtIn.path}`);
					await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
					await expectNoSeriousA11yViolations(page);
					if (builtIn.hostText) {
						const host = page.locator(builtIn.hostText);
						await expect(host).toContainText(new URL(app.origin).host);
						await host.evaluate((element) => (element.textContent = element.textContent!.replace(/localhost:\d+/, 'localhost')));
					}
					// named without the app: Express must match the same baseline as SvelteKit
					await expect(page).toHaveScreenshot(`${builtIn.name}-${scheme}.png`, { fullPage: true });
				});
			}
		}

		test('the sign-in page: a form per provider, brand colours, the passkey button needs JavaScript', async ({ page, browser }) => {
			await page.goto(`${app.origin}/auth/signin`);
			await expect(page.locator('form')).toHaveCount(4);
			const idp = page.getByRole('button', { name: 'Sign in with Demo IdP' });
			await expect(idp).toHaveCSS('background-color', 'rgb(15, 118, 110)');
			await expect(idp).toHaveCSS('color', 'rgb(255, 255, 255)');
			await expect(page.getByRole('button', { name: 'Sign in with Passkey' })).toBeEnabled();
			const context = await noScriptContext(browser);
			try {
				const noScript = await context.newPage();
				await noScript.goto(`${app.origin}/auth/signin`);
				await expect(noScript.getByRole('button', { name: 'Sign in with Passkey' })).toBeDisabled();
				await expect(noScript.getByText(/Passkeys need JavaScript/)).toBeVisible();
			} finally {
				await context.close();
			}
		});

		test('the sign-in page error is an alert, and the focus ring is visible', async ({ page }) => {
			await page.goto(`${app.origin}/auth/signin?error=CredentialsSignin`);
			await expect(page.getByRole('alert')).toHaveText(/Sign in failed/);
			await page.keyboard.press('Tab');
			const focused = page.locator(':focus');
			await expect(focused).toHaveCSS('outline-style', 'solid');
			await expect(focused).toHaveCSS('outline-width', '3px');
		});
	});
}

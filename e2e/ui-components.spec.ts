// The Svelte components on the SvelteKit demo: they render with and without JavaScript, sign in
// and out without JavaScript, enhance with it (errors in place, no full reload), forward
// authorization parameters to the IdP, and a prerendered page carries the form but no session.

import { expect, test, type Page } from '@playwright/test';
import { apps, DEMO } from './apps.js';
import { expectCompactSignOut, expectKeyboardUserMenu, expectSignInBoxes } from './component-boxes.js';
import { expectNoSeriousA11yViolations, noScriptContext, schemes, viewport } from './ui.js';

const origin = apps.find((app) => app.name === 'sveltekit')!.origin;
const CREDENTIALS = 'Sign in with Demo account';
/** White as the stylesheet computes it for a dark brand colour (a relative colour serialises as `color(srgb …)`). */
const WHITE = /^(rgb\(255, 255, 255\)|color\(srgb 1 1 1\))$/;

/** What the demo sign-in page (built from SignIn and PasskeySignIn) shows, with or without JavaScript. */
async function expectSignInComponents(page: Page, javaScript: boolean) {
	await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
	const signInForms = page.locator('form.kg-signin');
	await expect(signInForms).toHaveCount(3);
	for (const form of await signInForms.all()) {
		await expect(form).toHaveAttribute('method', 'POST');
		// SvelteKit renders paths relative to the page (`./signin`); what counts is where it posts
		expect(await form.evaluate((element: HTMLFormElement) => element.action)).toBe(`${origin}/signin`);
	}
	const idp = page.getByRole('button', { name: 'Sign in with Demo IdP' });
	await expect(idp).toHaveCSS('background-color', 'rgb(15, 118, 110)');
	await expect(idp).toHaveCSS('color', WHITE);
	await expect(page.getByLabel('Username')).toHaveAttribute('autocomplete', 'username webauthn');
	await expect(page.getByLabel('Password')).toHaveAttribute('type', 'password');
	await expect(page.getByLabel('Email address')).toHaveAttribute('type', 'email');
	await expect(page.getByRole('button', { name: CREDENTIALS })).toHaveCSS('border-top-left-radius', '8px');
	const passkey = page.getByRole('button', { name: 'Sign in with a passkey' });
	if (javaScript) await expect(passkey).toBeEnabled();
	else await expect(passkey).toBeDisabled();
	await expect(page.getByText(/Passkeys need JavaScript/)).toBeVisible({ visible: !javaScript });
}

async function fillCredentials(page: Page, password: string) {
	await page.getByLabel('Username').fill(DEMO.username);
	await page.getByLabel('Password').fill(password);
	await page.getByRole('button', { name: CREDENTIALS }).click();
}

test.use({ viewport });

/** The sign-out page and the prerendered page: SignOut (and SignIn) forms posting to the actions. */
async function expectSignOutComponents(page: Page) {
	await page.goto(`${origin}/signout`);
	const signOut = page.locator('form.kg-signout');
	await expect(signOut).toHaveCount(1);
	expect(await signOut.evaluate((element: HTMLFormElement) => element.action)).toBe(`${origin}/signout`);
	await expect(signOut.getByRole('button', { name: 'Sign out' })).toHaveCSS('background-color', 'rgb(79, 70, 229)');
	await page.goto(`${origin}/prerendered`);
	await expect(page.locator('.prerendered form.kg-signin')).toHaveCount(2);
	await expect(page.locator('form.kg-signout')).toHaveCount(1);
	await expect(page.locator('input[name="authorizationParams.login_hint"]')).toHaveValue('demo');
}

test('the demo pages render their components with and without JavaScript', async ({ page, browser }) => {
	await page.goto(`${origin}/signin`);
	await expectSignInComponents(page, true);
	await expectSignOutComponents(page);
	const context = await noScriptContext(browser);
	try {
		const noScript = await context.newPage();
		await noScript.goto(`${origin}/signin`);
		await expectSignInComponents(noScript, false);
		await expectSignOutComponents(noScript);
	} finally {
		await context.close();
	}
});

test('without JavaScript: a wrong password shows the alert, SignIn signs in, SignOut signs out', async ({ browser }) => {
	const context = await noScriptContext(browser);
	try {
		const page = await context.newPage();
		await page.goto(`${origin}/protected`);
		await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fprotected/);
		await fillCredentials(page, 'not-the-password');
		await expect(page.getByRole('alert')).toHaveText('Sign in failed. Check the details you provided are correct.');
		await fillCredentials(page, DEMO.password);
		await expect(page).toHaveURL(`${origin}/protected`);
		await expect(page.getByTestId('protected-user')).toContainText(DEMO.name);
		await page.getByRole('button', { name: 'Sign out' }).click();
		await expect(page).toHaveURL(`${origin}/`);
		await expect(page.getByTestId('anonymous')).toBeVisible();
	} finally {
		await context.close();
	}
});

test('with JavaScript: the error shows in place, and signing in and out navigate without a full reload', async ({ page }) => {
	await page.goto(`${origin}/signin?callbackUrl=%2Fprotected`);
	// a full page load would drop this marker
	await page.evaluate(() => Object.assign(window, { kitgateMarker: 'same document' }));
	const marker = () => page.evaluate(() => (window as unknown as { kitgateMarker?: string }).kitgateMarker);

	await fillCredentials(page, 'not-the-password');
	await expect(page.getByRole('alert')).toHaveText('Sign in failed. Check the details you provided are correct.');
	expect(await marker()).toBe('same document');

	await fillCredentials(page, DEMO.password);
	await expect(page).toHaveURL(`${origin}/protected`);
	await expect(page.getByTestId('protected-user')).toContainText(DEMO.name);
	expect(await marker()).toBe('same document');

	await page.getByRole('button', { name: 'Sign out' }).click();
	await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
	expect(await marker()).toBe('same document');
	await page.goto(`${origin}/`);
	await expect(page.getByTestId('anonymous')).toBeVisible();
});

test('SignIn forwards authorizationParams to the identity provider (no JavaScript needed)', async ({ browser }) => {
	const context = await noScriptContext(browser);
	try {
		const page = await context.newPage();
		await page.goto(`${origin}/prerendered`);
		const authorization = page.waitForRequest((request) => request.url().startsWith('http://127.0.0.1:9090/auth?'));
		await page.locator('.prerendered').getByRole('button', { name: 'Sign in with Demo IdP' }).click();
		const url = new URL((await authorization).url());
		expect(url.searchParams.get('login_hint')).toBe('demo');
		expect(url.searchParams.get('client_id')).toBe('kitgate-demo');
		expect(url.searchParams.get('code_challenge_method')).toBe('S256');
	} finally {
		await context.close();
	}
});

test('a bare SignIn (no provider) on a prerendered page goes to the sign-in page', async ({ page }) => {
	await page.goto(`${origin}/prerendered`);
	await page.getByRole('button', { name: 'Sign in', exact: true }).click();
	await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=/);
	await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
});

test('the prerendered page has the SignIn and SignOut forms and no session data, even for a signed-in visitor', async ({ page }) => {
	await page.goto(`${origin}/signin`);
	await fillCredentials(page, DEMO.password);
	await expect(page.getByTestId('session-user')).toContainText(DEMO.name);

	// the same cookies as the signed-in page: the HTML is still the one built at build time
	const response = await page.request.get(`${origin}/prerendered`);
	expect(response.status()).toBe(200);
	const html = await response.text();
	expect(html).toMatch(/<form method="POST" action="\.\/signin" class="kg-form kg-signin/);
	expect(html).toMatch(/<form method="POST" action="\.\/signout" class="kg-form kg-signout/);
	expect(html).not.toContain(DEMO.name);
	expect(html).not.toContain('demo@kitgate.dev');
	expect(html).not.toContain('/auth/signin');
	expect(html).toContain('session:null');
});

for (const scheme of schemes) {
	test(`the demo sign-in page built from components, ${scheme}: no serious accessibility violation`, async ({ page }) => {
		await page.emulateMedia({ colorScheme: scheme });
		await page.goto(`${origin}/signin?error=x`);
		await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
		await expectNoSeriousA11yViolations(page);
		await fillCredentials(page, 'not-the-password');
		await expect(page.getByRole('alert')).toBeVisible();
		await expectNoSeriousA11yViolations(page);
		// the picture in docs/components.md
		await expect(page).toHaveScreenshot(`components-signin-${scheme}.png`, { fullPage: true });
		// the whole sign-in and the user menu
		await page.goto(`${origin}/prerendered`);
		await expect(page.locator('.kg-signin-all').getByRole('button', { name: 'Sign in with Passkey' })).toBeEnabled();
		await expectNoSeriousA11yViolations(page);
	});
}

/** The whole sign-in (`<SignIn />`) of the prerendered page: every provider of the demo's config, in its order. */
async function expectWholeSignIn(page: Page, javaScript: boolean) {
	const card = page.locator('.kg-signin-all');
	await expect(card).toHaveCount(1);
	const buttons = card.getByRole('button');
	await expect(buttons).toHaveText(['Sign in with Demo IdP', 'Sign in with Demo account', 'Sign in with Email', 'Sign in with Passkey']);
	await expect(card.locator('.kg-divider')).toHaveCount(3);
	// the credentials provider's own fields, from its config; the passkey button works once its code has loaded
	await expect(card.getByLabel('Username')).toHaveAttribute('autocomplete', 'username webauthn');
	await expect(card.getByLabel('Password')).toHaveAttribute('type', 'password');
	await expect(card.getByLabel('Email address')).toHaveAttribute('type', 'email');
	const passkey = card.getByRole('button', { name: 'Sign in with Passkey' });
	if (javaScript) await expect(passkey).toBeEnabled();
	else await expect(passkey).toBeDisabled();
	await expect(card.getByRole('button', { name: 'Sign in with Demo IdP' })).toHaveCSS('color', WHITE);
	await expectSignInBoxes(card);
}

test('<SignIn /> on a prerendered page renders every provider from the data of the build, with and without JavaScript', async ({ page, browser }) => {
	await page.goto(`${origin}/prerendered`);
	await expectWholeSignIn(page, true);
	const context = await noScriptContext(browser);
	try {
		const noScript = await context.newPage();
		await noScript.goto(`${origin}/prerendered`);
		await expectWholeSignIn(noScript, false);
		// a wrong password comes back to the action's page with the alert, in the whole sign-in too
		const card = noScript.locator('.kg-signin-all');
		await card.getByLabel('Username').fill(DEMO.username);
		await card.getByLabel('Password').fill('not-the-password');
		await card.getByRole('button', { name: CREDENTIALS }).click();
		await expect(noScript.getByRole('alert')).toHaveText('Sign in failed. Check the details you provided are correct.');
	} finally {
		await context.close();
	}
});

test('<SignIn /> with JavaScript: the error shows in place in the form that failed, then the password signs in', async ({ page }) => {
	await page.goto(`${origin}/prerendered`);
	const card = page.locator('.kg-signin-all');
	await card.getByLabel('Username').fill(DEMO.username);
	await card.getByLabel('Password').fill('not-the-password');
	await card.getByRole('button', { name: CREDENTIALS }).click();
	await expect(card.getByRole('alert')).toHaveText('Sign in failed. Check the details you provided are correct.');
	await card.getByLabel('Password').fill(DEMO.password);
	await card.getByRole('button', { name: CREDENTIALS }).click();
	await expect(page.getByTestId('signed-in-as')).toContainText(DEMO.name);
	// the header: SignOut sized to its label, and the user menu from the keyboard
	await expectCompactSignOut(page.locator('nav > form.kg-signout button'));
	await expectKeyboardUserMenu(page, DEMO.name);
	await page.locator('.kg-userbutton > summary').click();
	await page.locator('.kg-menu').getByRole('button', { name: 'Sign out' }).click();
	await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
});

test('UserButton without JavaScript: the menu opens (a <details>) and its SignOut signs out', async ({ browser }) => {
	const context = await noScriptContext(browser);
	try {
		const page = await context.newPage();
		await page.goto(`${origin}/signin`);
		await fillCredentials(page, DEMO.password);
		await expect(page.getByTestId('signed-in-as')).toContainText(DEMO.name);
		await page.locator('.kg-userbutton > summary').click();
		const menu = page.locator('.kg-menu');
		await expect(menu.getByText('demo@kitgate.dev')).toBeVisible();
		await expect(menu.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/auth/account');
		await menu.getByRole('button', { name: 'Sign out' }).click();
		await expect(page.getByTestId('anonymous')).toBeVisible();
	} finally {
		await context.close();
	}
});

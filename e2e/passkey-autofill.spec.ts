// Passkey autofill (WebAuthn conditional mediation) on both demo apps, in Chromium with a CDP
// virtual authenticator: SvelteKit's own sign-in page (SignIn and PasskeySignIn components) and
// Express's built-in page (its script). Chromium answers a conditional request by itself when the
// virtual authenticator holds a discoverable credential for the site (and presence simulation is
// on), as if the user had picked that passkey in the field: opening the sign-in page signs in
// without a click. With presence simulation off, the conditional request waits (a user who has
// not picked yet), which is how the button's abort is shown. Each navigator.credentials.get is
// recorded (an init script that wraps it and calls through), so a test can say which request
// signed in.

import { expect, test, type Page } from '@playwright/test';
import { apps, DEMO, type DemoApp } from './apps.js';
import { addAuthenticator, addPasskey, openAccountSignedIn, passkeySignInPage as signInPage, removeAllPasskeys } from './passkeys.js';
import { signOut, typeCredentials } from './sign-in.js';

/**
 * Records, across navigations, each `navigator.credentials.get` of the page: `get:<mediation>`
 * when it is called and `<mediation>:<outcome>` (`credential` or the error's name) when it ends.
 */
async function recordCredentialRequests(page: Page): Promise<string[]> {
	const events: string[] = [];
	await page.exposeFunction('kitgateRecordGet', (event: string) => void events.push(event));
	await page.addInitScript(() => {
		const record = (window as unknown as { kitgateRecordGet: (event: string) => Promise<void> }).kitgateRecordGet;
		const get = navigator.credentials.get.bind(navigator.credentials);
		navigator.credentials.get = async (options?: CredentialRequestOptions) => {
			const mediation = options?.mediation ?? 'optional';
			await record(`get:${mediation}`);
			try {
				const credential = await get(options);
				await record(`${mediation}:credential`);
				return credential;
			} catch (error) {
				await record(`${mediation}:${(error as Error).name}`);
				throw error;
			}
		};
	});
	return events;
}

/** The passkey requests the page sends: options (with their query) and callbacks. */
function recordPasskeyRoutes(page: Page): string[] {
	const seen: string[] = [];
	page.on('request', (request) => {
		const url = new URL(request.url());
		if (url.pathname.endsWith('/webauthn-options/passkey')) seen.push(`options?${url.searchParams}`);
		if (url.pathname.endsWith('/callback/passkey')) seen.push(`callback ${request.method()}`);
	});
	return seen;
}

/**
 * Signs in with the demo password on the account page, leaves the demo user without passkeys,
 * adds one (`removed`: then removes it on the server again, while the authenticator keeps it),
 * and signs out.
 */
async function registerPasskey(page: Page, app: DemoApp, { removed = false } = {}): Promise<void> {
	await openAccountSignedIn(page, app);
	await removeAllPasskeys(page, app);
	await addPasskey(page, 1);
	if (removed) await removeAllPasskeys(page, app);
	await signOut(page, app);
}

for (const app of apps) {
	test.describe(`${app.name} demo passkey autofill`, () => {
		test('opening the sign-in page signs in through the conditional request, without the button', async ({ page }) => {
			const gets = await recordCredentialRequests(page);
			await addAuthenticator(page);
			await registerPasskey(page, app);
			const routes = recordPasskeyRoutes(page);
			gets.length = 0;

			await page.goto(`${app.origin}${signInPage[app.name].path}`);
			await expect(page.getByTestId('session-user')).toContainText(DEMO.name);
			expect(gets).toEqual(['get:conditional', 'conditional:credential']);
			expect(routes).toEqual(['options?action=authenticate&mediation=conditional', 'callback POST']);
		});

		test('the fields that name the user offer passkeys (autocomplete "… webauthn"); the password field does not', async ({ page }) => {
			await page.goto(`${app.origin}${signInPage[app.name].path}`);
			await expect(page.getByLabel('Username')).toHaveAttribute('autocomplete', 'username webauthn');
			await expect(page.getByLabel('Password')).toHaveAttribute('autocomplete', 'current-password');
			await expect(page.getByLabel('Email address')).toHaveAttribute('autocomplete', 'email webauthn');
		});

		test('the button aborts the pending autofill request before its own, and signs in with its own challenge', async ({ page }) => {
			const gets = await recordCredentialRequests(page);
			const authenticator = await addAuthenticator(page);
			await registerPasskey(page, app);
			const routes = recordPasskeyRoutes(page);
			gets.length = 0;

			// a user who has not picked a passkey yet: the conditional request waits
			await authenticator.presence(false);
			await page.goto(`${app.origin}${signInPage[app.name].path}`);
			await expect.poll(() => [...gets]).toEqual(['get:conditional']);
			await page.waitForTimeout(500);
			expect(gets).toEqual(['get:conditional']);
			// still waiting, it is not answered when presence comes back: only a new request is
			await authenticator.presence(true);

			await page.getByRole('button', { name: signInPage[app.name].button }).click();
			await expect(page.getByTestId('session-user')).toContainText(DEMO.name);
			// one request at a time: autofill's ended (aborted) before the button's began
			expect(gets).toEqual(['get:conditional', 'conditional:AbortError', 'get:optional', 'optional:credential']);
			expect(routes).toEqual(['options?action=authenticate&mediation=conditional', 'options?action=authenticate', 'callback POST']);
		});

		test('a passkey the server no longer knows, picked in autofill, shows nothing and is not tried again; the button says why', async ({ page }) => {
			const gets = await recordCredentialRequests(page);
			await addAuthenticator(page);
			await registerPasskey(page, app, { removed: true });
			const routes = recordPasskeyRoutes(page);
			gets.length = 0;

			await page.goto(`${app.origin}${signInPage[app.name].path}`);
			await expect.poll(() => routes.length).toBe(2);
			await page.waitForTimeout(1000);
			expect(routes).toEqual(['options?action=authenticate&mediation=conditional', 'callback POST']);
			expect(gets).toEqual(['get:conditional', 'conditional:credential']);
			await expect(page.getByRole('alert')).toHaveCount(0);
			expect(new URL(page.url()).searchParams.get('error')).toBeNull();

			const button = page.getByRole('button', { name: signInPage[app.name].button });
			await expect(button).toBeEnabled();
			await button.click();
			await expect(page.getByRole('alert')).toContainText(/passkey could not be verified/i);
		});
	});
}

for (const app of apps) {
	test.describe(`${app.name} demo passkey autofill without JavaScript`, () => {
		test.use({ javaScriptEnabled: false });

		test('the sign-in page keeps its fields and the password sign-in works', async ({ page }) => {
			await page.goto(`${app.origin}${signInPage[app.name].path}`);
			await expect(page.getByLabel('Username')).toHaveAttribute('autocomplete', 'username webauthn');
			await typeCredentials(page);
			await expect(page.getByTestId('session-user')).toContainText(DEMO.name);
		});
	});
}

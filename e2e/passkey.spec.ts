// Passkeys on both demo apps with Chromium's virtual authenticator (CDP WebAuthn.*): add one on
// the account page (SvelteKit: AccountSettings' PasskeyList; Express: its page on kitgate/client),
// sign out, sign in with it; a second one from another authenticator; removal; and a replayed or
// altered assertion refused by the server.

import { expect, test, type Page } from '@playwright/test';
import { apps, DEMO, type DemoApp } from './apps.js';
import { addAuthenticator, addPasskey, openAccountSignedIn, passkeySignInPage, removeAllPasskeys } from './passkeys.js';
import { signOut } from './sign-in.js';

// These tests drive the passkey button, so their browsers have no passkey autofill (Chromium would
// answer its conditional request at once and sign in first): e2e/passkey-autofill.spec.ts tests autofill.
const withoutAutofill = { autofill: false };

async function signInWithPasskey(page: Page, app: DemoApp): Promise<void> {
	const { path, button } = passkeySignInPage[app.name];
	await page.goto(`${app.origin}${path}`);
	await page.getByRole('button', { name: button }).click();
	await expect(page.getByTestId('session-user')).toContainText(DEMO.name);
}

for (const app of apps) {
	test.describe(`${app.name} demo passkeys`, () => {
		test('add a passkey, sign out, sign in with it; a second one from another authenticator; remove one', async ({ page }) => {
			await openAccountSignedIn(page, app);
			await removeAllPasskeys(page, app);
			const first = await addAuthenticator(page, withoutAutofill);
			const firstId = await addPasskey(page, 1);
			const held = await first.cdp.send('WebAuthn.getCredentials', { authenticatorId: first.id });
			expect(held.credentials).toHaveLength(1);
			expect(held.credentials[0].isResidentCredential).toBe(true);
			await expect(page.getByTestId('account-user')).toContainText(DEMO.name);

			await signOut(page, app);
			await signInWithPasskey(page, app);

			// one resident key per authenticator: the second passkey lives on a second device
			await first.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: first.id });
			const second = await addAuthenticator(page, withoutAutofill);
			await page.goto(`${app.origin}/account`);
			const secondId = await addPasskey(page, 2);
			expect(secondId).not.toBe(firstId);
			await signOut(page, app);
			await signInWithPasskey(page, app);

			// removed on the account page, the second passkey no longer signs in
			await page.goto(`${app.origin}/account`);
			await page.getByRole('button', { name: `Remove: Passkey …${secondId.slice(-6)}` }).click();
			await expect(page.locator('li[data-credential-id]')).toHaveCount(1);
			await signOut(page, app);
			const { path, button } = passkeySignInPage[app.name];
			await page.goto(`${app.origin}${path}`);
			await page.getByRole('button', { name: button }).click();
			await expect(page.getByRole('alert')).toContainText(/passkey could not be verified/i);
			await page.goto(`${app.origin}/`);
			await expect(page.getByTestId('anonymous')).toBeVisible();
			await second.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: second.id });
		});

		test('a replayed or altered assertion is refused with a 4xx and no session', async ({ page }) => {
			await openAccountSignedIn(page, app);
			await removeAllPasskeys(page, app);
			await addAuthenticator(page, withoutAutofill);
			await addPasskey(page, 1);
			await signOut(page, app);

			let captured: Record<string, unknown> | undefined;
			await page.route('**/auth/callback/passkey', async (route) => {
				captured = route.request().postDataJSON() as Record<string, unknown>;
				await route.continue();
			});
			await signInWithPasskey(page, app);
			expect(captured?.action).toBe('authenticate');
			await page.unroute('**/auth/callback/passkey');
			await app.signOut(page);
			await expect(page.getByTestId('anonymous')).toBeVisible();

			const post = async (body: Record<string, unknown>) => {
				const { csrfToken } = (await (await page.request.get(`${app.origin}/auth/csrf`)).json()) as { csrfToken: string };
				return page.request.post(`${app.origin}/auth/callback/passkey`, { data: { ...body, csrfToken } });
			};
			// the challenge cookie was used up by the first sign-in
			const replay = await post(captured!);
			expect(replay.status()).toBe(400);
			expect(await replay.json()).toEqual({ error: 'WebAuthnVerificationError' });

			// a fresh challenge does not match the old assertion
			await page.request.get(`${app.origin}/auth/webauthn-options/passkey?action=authenticate`);
			const stale = await post(captured!);
			expect(stale.status()).toBe(400);

			// rewritten for the fresh challenge and another origin, the signature no longer holds either way
			const options = (await (await page.request.get(`${app.origin}/auth/webauthn-options/passkey?action=authenticate`)).json()) as {
				options: { challenge: string };
			};
			const data = captured!.data as { response: { clientDataJSON: string } };
			const clientData = JSON.parse(Buffer.from(data.response.clientDataJSON, 'base64url').toString());
			const forged = { ...clientData, challenge: options.options.challenge, origin: 'http://evil.example' };
			const altered = await post({
				...captured!,
				data: { ...data, response: { ...data.response, clientDataJSON: Buffer.from(JSON.stringify(forged)).toString('base64url') } }
			});
			expect(altered.status()).toBe(400);

			await page.goto(`${app.origin}/`);
			await expect(page.getByTestId('anonymous')).toBeVisible();
		});
	});
}

for (const app of apps) {
	test.describe(`${app.name} demo passkeys without JavaScript`, () => {
		test.use({ javaScriptEnabled: false });

		test('the pages still render, keep the passkey buttons disabled and say passkeys need JavaScript', async ({ page }) => {
			await openAccountSignedIn(page, app);
			await expect(page.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
			await expect(page.getByRole('button', { name: 'Add a passkey' })).toBeDisabled();
			await expect(page.getByText(/Passkeys need JavaScript/)).toBeVisible();
			await signOut(page, app);
			const { path, button } = passkeySignInPage[app.name];
			await page.goto(`${app.origin}${path}`);
			await expect(page.getByRole('button', { name: button })).toBeDisabled();
			await expect(page.getByText(/Passkeys need JavaScript/)).toBeVisible();
		});
	});
}

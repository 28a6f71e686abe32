// Passkeys on both demo apps with Chromium's virtual authenticator (CDP WebAuthn.*): add one on
// the account page (SvelteKit: AccountSettings' PasskeyList; Express: its page on kitgate/client),
// sign out, sign in with it; a second one from another authenticator; removal; and a replayed or
// altered assertion refused by the server.

import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { apps, CREDENTIALS_BUTTON, DEMO, type DemoApp } from './apps.js';

/** Where each demo signs in with a passkey: its own page (component) or the built-in page (script). */
const passkeySignIn: Record<DemoApp['name'], { path: string; button: string }> = {
	sveltekit: { path: '/signin', button: 'Sign in with a passkey' },
	express: { path: '/auth/signin', button: 'Sign in with Passkey' }
};

/**
 * A platform authenticator with user verification that answers prompts by itself. These tests
 * drive the passkey button, so this browser has no passkey autofill: Chromium would answer its
 * conditional request at once and sign in first (e2e/passkey-autofill.spec.ts tests autofill).
 */
async function addAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
	await page.addInitScript(() => {
		PublicKeyCredential.isConditionalMediationAvailable = async () => false;
	});
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('WebAuthn.enable');
	const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
		options: {
			protocol: 'ctap2',
			transport: 'internal',
			hasResidentKey: true,
			hasUserVerification: true,
			isUserVerified: true,
			automaticPresenceSimulation: true
		}
	});
	return { cdp, id: authenticatorId };
}

/** Signs in with the demo password and lands on the account page. */
async function openAccountSignedIn(page: Page, app: DemoApp): Promise<void> {
	await page.goto(`${app.origin}/account`);
	await page.getByLabel('Username').fill(DEMO.username);
	await page.getByLabel('Password').fill(DEMO.password);
	await page.getByRole('button', { name: CREDENTIALS_BUTTON }).click();
	await expect(page).toHaveURL(`${app.origin}/account`);
	await expect(page.getByTestId('account-user')).toContainText(DEMO.name);
}

/**
 * Removes every passkey the demo user has (the demo databases outlive a test run) through the JSON
 * route, which unlike the account page's form may remove the demo user's last way in.
 */
async function removeAllPasskeys(page: Page, app: DemoApp): Promise<void> {
	const route = `${app.origin}/auth/webauthn-authenticators/passkey`;
	const { authenticators } = (await (await page.request.get(route)).json()) as { authenticators: { credentialID: string }[] };
	for (const { credentialID } of authenticators) {
		const { csrfToken } = (await (await page.request.get(`${app.origin}/auth/csrf`)).json()) as { csrfToken: string };
		expect((await page.request.post(route, { data: { credentialID, csrfToken } })).ok()).toBe(true);
	}
	await page.reload();
	await expect(page.getByTestId('passkey-empty')).toBeVisible();
}

/** Adds a passkey on the account page and returns its credential ID (the list is sorted by ID). */
async function addPasskey(page: Page, expected: number): Promise<string> {
	const items = page.locator('li[data-credential-id]');
	const ids = () => items.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-credential-id') as string));
	const before = await ids();
	await page.getByRole('button', { name: 'Add a passkey' }).click();
	await expect(page.getByText('Passkey added.')).toBeVisible();
	await expect(items).toHaveCount(expected);
	const added = (await ids()).filter((id) => !before.includes(id));
	expect(added).toHaveLength(1);
	return added[0];
}

async function signInWithPasskey(page: Page, app: DemoApp): Promise<void> {
	const { path, button } = passkeySignIn[app.name];
	await page.goto(`${app.origin}${path}`);
	await page.getByRole('button', { name: button }).click();
	await expect(page.getByTestId('session-user')).toContainText(DEMO.name);
}

for (const app of apps) {
	test.describe(`${app.name} demo passkeys`, () => {
		test('add a passkey, sign out, sign in with it; a second one from another authenticator; remove one', async ({ page }) => {
			await openAccountSignedIn(page, app);
			await removeAllPasskeys(page, app);
			const first = await addAuthenticator(page);
			const firstId = await addPasskey(page, 1);
			const held = await first.cdp.send('WebAuthn.getCredentials', { authenticatorId: first.id });
			expect(held.credentials).toHaveLength(1);
			expect(held.credentials[0].isResidentCredential).toBe(true);
			await expect(page.getByTestId('account-user')).toContainText(DEMO.name);

			await page.goto(`${app.origin}/`);
			await app.signOut(page);
			await expect(page.getByTestId('anonymous')).toBeVisible();
			await signInWithPasskey(page, app);

			// one resident key per authenticator: the second passkey lives on a second device
			await first.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: first.id });
			const second = await addAuthenticator(page);
			await page.goto(`${app.origin}/account`);
			const secondId = await addPasskey(page, 2);
			expect(secondId).not.toBe(firstId);
			await page.goto(`${app.origin}/`);
			await app.signOut(page);
			await signInWithPasskey(page, app);

			// removed on the account page, the second passkey no longer signs in
			await page.goto(`${app.origin}/account`);
			await page.getByRole('button', { name: `Remove: Passkey …${secondId.slice(-6)}` }).click();
			await expect(page.locator('li[data-credential-id]')).toHaveCount(1);
			await page.goto(`${app.origin}/`);
			await app.signOut(page);
			const { path, button } = passkeySignIn[app.name];
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
			await addAuthenticator(page);
			await addPasskey(page, 1);
			await page.goto(`${app.origin}/`);
			await app.signOut(page);

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
			await page.goto(`${app.origin}/`);
			await app.signOut(page);
			const { path, button } = passkeySignIn[app.name];
			await page.goto(`${app.origin}${path}`);
			await expect(page.getByRole('button', { name: button })).toBeDisabled();
			await expect(page.getByText(/Passkeys need JavaScript/)).toBeVisible();
		});
	});
}

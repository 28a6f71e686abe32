// Passkeys in the end-to-end tests: Chromium's virtual authenticator (CDP WebAuthn.*), where each
// demo signs in with a passkey, and the demo user's account page with the passkeys it holds.

import { expect, type CDPSession, type Page } from '@playwright/test';
import { DEMO, type DemoApp } from './apps.js';
import { typeCredentials } from './sign-in.js';

/** Where each demo signs in with a passkey: its own page (components) or the built-in page (script), and the passkey button there. */
export const passkeySignInPage: Record<DemoApp['name'], { path: string; button: string }> = {
	sveltekit: { path: '/signin', button: 'Sign in with a passkey' },
	express: { path: '/auth/signin', button: 'Sign in with Passkey' }
};

/** A virtual authenticator of the page's browser. */
export interface VirtualAuthenticator {
	cdp: CDPSession;
	id: string;
	/** Turns presence simulation (answering prompts by itself) on or off. */
	presence(enabled: boolean): Promise<void>;
}

/**
 * Adds a platform authenticator with user verification that answers prompts by itself while
 * presence simulation is on. `autofill: false` also turns the pages' passkey autofill off: Chromium
 * would answer its conditional request at once and sign in with the passkey alone, where the test
 * drives the button or signs in another way.
 */
export async function addAuthenticator(page: Page, { autofill = true } = {}): Promise<VirtualAuthenticator> {
	if (!autofill) {
		await page.addInitScript(() => {
			PublicKeyCredential.isConditionalMediationAvailable = async () => false;
		});
	}
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('WebAuthn.enable');
	const { authenticatorId: id } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
		options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true }
	});
	const presence = async (enabled: boolean) => void (await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId: id, enabled }));
	return { cdp, id, presence };
}

/** Signs in with the demo password from the account page and lands on it. */
export async function openAccountSignedIn(page: Page, app: DemoApp): Promise<void> {
	await page.goto(`${app.origin}/account`);
	await typeCredentials(page);
	await expect(page).toHaveURL(`${app.origin}/account`);
	await expect(page.getByTestId('account-user')).toContainText(DEMO.name);
}

/**
 * On the account page: removes every passkey the demo user has (the demo databases outlive a test
 * run) through the JSON route, which unlike the page's form may remove the user's last way in.
 */
export async function removeAllPasskeys(page: Page, app: DemoApp): Promise<void> {
	const route = `${app.origin}/auth/webauthn-authenticators/passkey`;
	const { authenticators } = (await (await page.request.get(route)).json()) as { authenticators: { credentialID: string }[] };
	for (const { credentialID } of authenticators) {
		const { csrfToken } = (await (await page.request.get(`${app.origin}/auth/csrf`)).json()) as { csrfToken: string };
		expect((await page.request.post(route, { data: { credentialID, csrfToken } })).ok()).toBe(true);
	}
	await page.reload();
	await expect(page.getByTestId('passkey-empty')).toBeVisible();
}

/** Adds a passkey on the account page, which then lists `expected`; answers its credential ID (the list is sorted by ID). */
export async function addPasskey(page: Page, expected: number): Promise<string> {
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

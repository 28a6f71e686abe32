// A passkey as the second factor in Chromium on both integrations, with its virtual authenticator
// (CDP WebAuthn.*): a user signs in with an email link, turns on two-step verification and adds a
// passkey on the account page, signs out, signs in with an email link again, and on the second step
// uses "Use a passkey" instead of a code (nobody is signed in before). Without JavaScript the same
// step shows the button disabled with a note, and the code form still signs in.

import { expect, test, type Page } from '@playwright/test';
import { totpCode, totpStep } from '../src/lib/server/core/two-factor/totp.js';
import { apps, type DemoApp } from './apps.js';
import { expectNoSeriousA11yViolations, noScriptContext, viewport } from './ui.js';

const MAILBOX = 'http://127.0.0.1:2526/messages';

test.use({ viewport });

/** Where each demo manages the account: its own page built from AccountSettings, or kitgate's built-in page. */
const accountPath = (app: DemoApp) => (app.name === 'sveltekit' ? '/account' : '/auth/account');

const newAddress = (app: DemoApp) => `2fa-passkey-${app.name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;

/**
 * A platform authenticator with user verification that answers prompts by itself. The sign-in
 * page's passkey autofill is turned off: Chromium would answer its conditional request at once and
 * sign in with the passkey alone, where these tests sign in with an email link first.
 */
async function addAuthenticator(page: Page): Promise<void> {
	await page.addInitScript(() => {
		PublicKeyCredential.isConditionalMediationAvailable = async () => false;
	});
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('WebAuthn.enable');
	await cdp.send('WebAuthn.addVirtualAuthenticator', {
		options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true }
	});
}

async function mailCount(address: string): Promise<number> {
	return ((await (await fetch(`${MAILBOX}?to=${encodeURIComponent(address)}`)).json()) as { messages: unknown[] }).messages.length;
}

/** The newest sign-in link mailed to `address`, once more mails than `before` arrived. */
async function mailedLink(address: string, before: number): Promise<string> {
	let link: string | undefined;
	await expect
		.poll(async () => {
			const { messages } = (await (await fetch(`${MAILBOX}?to=${encodeURIComponent(address)}`)).json()) as { messages: { links: string[] }[] };
			link = messages.length > before ? messages.flatMap((mail) => mail.links).find((url) => url.includes('/auth/callback/email')) : undefined;
			return link;
		})
		.toBeTruthy();
	return link!;
}

/** From a signed-out page at `path`: the sign-in page, an email link, its confirmation. */
async function emailSignIn(page: Page, app: DemoApp, address: string, path: string): Promise<void> {
	await page.goto(`${app.origin}${path}`);
	await expect(page).toHaveURL(/signin\?callbackUrl=/);
	const before = await mailCount(address);
	await page.getByLabel('Email address').fill(address);
	await page.getByRole('button', { name: /sign in with email/i }).click();
	await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
	await page.goto(await mailedLink(address, before));
	await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Turns on two-step verification on the account page (the key read off the page); answers the key. */
async function enrol(page: Page, accountUrl: string): Promise<string> {
	await page.goto(accountUrl);
	await page.locator('section.kitgate-two-factor').getByRole('button', { name: 'Set up two-step verification' }).click();
	const secret = (await page.locator('.kitgate-two-factor-secret code').getAttribute('data-secret'))!;
	await page.getByLabel('6-digit code from the app').fill(totpCode(secret, totpStep(Date.now())));
	await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
	await expect(page.getByRole('heading', { name: 'Save your recovery codes now' })).toBeVisible();
	await page.getByRole('link', { name: 'I have saved my recovery codes' }).click();
	await expect(page.locator('section.kitgate-two-factor')).toContainText('You have 10 recovery codes left.');
	return secret;
}

async function signOut(page: Page, app: DemoApp): Promise<void> {
	await page.goto(`${app.origin}/`);
	await app.signOut(page);
	await expect(page.getByTestId('anonymous')).toBeVisible();
}

async function expectNobodySignedIn(page: Page, origin: string): Promise<void> {
	const session = (await (await page.request.get(`${origin}/auth/session`)).json()) as { user?: unknown } | null;
	expect(session?.user).toBeUndefined();
}

for (const app of apps) {
	test.describe(app.name, () => {
		test('email link + "Use a passkey" on the second step signs in; without JavaScript the button is off and a code still works', async ({ page, browser }) => {
			test.setTimeout(120_000);
			await addAuthenticator(page);
			const address = newAddress(app);
			await emailSignIn(page, app, address, accountPath(app));
			await expect(page).toHaveURL(`${app.origin}${accountPath(app)}`);
			const secret = await enrol(page, `${app.origin}${accountPath(app)}`);
			await page.getByRole('button', { name: 'Add a passkey' }).click();
			await expect(page.getByText('Passkey added.')).toBeVisible();
			await signOut(page, app);

			await emailSignIn(page, app, address, '/protected');
			await expect(page).toHaveURL(`${app.origin}/auth/second-factor`);
			await expect(page.getByLabel('Verification code')).toBeVisible();
			const usePasskey = page.getByRole('button', { name: 'Use a passkey' });
			await expect(usePasskey).toBeEnabled();
			await expectNoSeriousA11yViolations(page);
			await expectNobodySignedIn(page, app.origin);
			await usePasskey.click();
			await expect(page).toHaveURL(`${app.origin}/protected`);
			await expect(page.getByTestId('protected-user')).toContainText(address);
			await signOut(page, app);

			const context = await noScriptContext(browser);
			try {
				const noJs = await context.newPage();
				await emailSignIn(noJs, app, address, '/protected');
				await expect(noJs).toHaveURL(`${app.origin}/auth/second-factor`);
				await expect(noJs.getByRole('button', { name: 'Use a passkey' })).toBeDisabled();
				await expect(noJs.getByText(/Passkeys need JavaScript/)).toBeVisible();
				// a step after the enrolment's code: each step is accepted once
				await noJs.getByLabel('Verification code').fill(totpCode(secret, totpStep(Date.now()) + 1));
				await noJs.getByRole('button', { name: 'Verify' }).click();
				await expect(noJs).toHaveURL(`${app.origin}/protected`);
				await expect(noJs.getByTestId('protected-user')).toContainText(address);
			} finally {
				await context.close();
			}
		});
	});
}

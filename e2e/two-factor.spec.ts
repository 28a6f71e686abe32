// Two-step verification (TOTP) in Chromium on both integrations: enrol on the account page (the
// code computed from the key read off the page, with the project's own TOTP module), sign out, sign
// in with an email link + a code (before the code nobody is signed in: the protected page, the
// session route and the app's own session read see no user), a replayed code and a wrong one
// refused, a recovery code (the page says one fewer remains), repeated wrong codes throttled; the
// same enrolment and challenge with JavaScript off. Password + code and "turning it off needs a
// recent sign-in and a current code" run on demos started here, each with its own database (the
// demo password user is shared by the other specs) and sign-ins that go stale in seconds; so do
// twoFactor.required (a new user sets it up at sign-in) and "Trust this browser".

import type { Page } from '@playwright/test';
import { apps, DEMO, type DemoApp } from './apps.js';
import { confirmEnrolment, enrolOnAccountPage, nextCode, wrongCode } from './authenticator-app.js';
import { expect, test } from './fixtures.js';
import { accountPath, emailSignIn, sessionOf, signOut, typeCredentials, uniqueAddress } from './sign-in.js';
import { expectNoSeriousA11yViolations, noScriptContext, viewport } from './ui.js';

test.use({ viewport });

const newAddress = (app: DemoApp, what: string) => uniqueAddress('2fa', what, app.name);

/** From a signed-out page at `path`: the credentials form with the demo user. */
async function passwordSignIn(page: Page, origin: string, path: string): Promise<void> {
	await page.goto(`${origin}${path}`);
	await expect(page).toHaveURL(/signin\?callbackUrl=/);
	await typeCredentials(page);
}

/** The second step's page: one field for a code or a recovery code. */
async function expectSecondStep(page: Page, origin: string): Promise<void> {
	await expect(page).toHaveURL(new RegExp(`^${origin}/auth/second-factor`));
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Two-step verification');
	await expect(page.getByLabel('Verification code')).toHaveAttribute('autocomplete', 'one-time-code');
}

async function typeSecondStep(page: Page, code: string): Promise<void> {
	await page.getByLabel('Verification code').fill(code);
	await page.getByRole('button', { name: 'Verify' }).click();
}

/** Nobody is signed in as the app sees it: its protected page (locals.auth() / getSession), its home page and /auth/session. */
async function expectNobodySignedIn(page: Page, origin: string): Promise<void> {
	expect((await sessionOf(page, origin))?.user).toBeUndefined();
	await page.goto(`${origin}/`);
	await expect(page.getByTestId('anonymous')).toBeVisible();
	await page.goto(`${origin}/protected`);
	await expect(page).toHaveURL(/signin\?callbackUrl=/);
}

for (const app of apps) {
	test.describe(app.name, () => {
		test('enrol on the account page, then sign in with an email link and a code; replayed and wrong codes refused; a recovery code', async ({ page }) => {
			test.setTimeout(120_000);
			const address = newAddress(app, 'email');
			await emailSignIn(page, address, app.origin, accountPath(app));
			await expect(page).toHaveURL(`${app.origin}${accountPath(app)}`);
			await expectNoSeriousA11yViolations(page);
			const { key, recoveryCodes } = await enrolOnAccountPage(page, `${app.origin}${accountPath(app)}`, { typoFirst: true });
			await signOut(page, app);

			// the primary sign-in alone signs nobody in
			await emailSignIn(page, address, app.origin);
			await expectSecondStep(page, app.origin);
			await expectNoSeriousA11yViolations(page);
			await expectNobodySignedIn(page, app.origin);
			await page.goto(`${app.origin}/auth/second-factor`);
			const code = await nextCode(page, key);
			await typeSecondStep(page, code);
			await expect(page).toHaveURL(`${app.origin}/protected`);
			await expect(page.getByTestId('protected-user')).toContainText(address);
			await signOut(page, app);

			// the same code again (same time step): refused, still nobody signed in; a wrong one too
			await emailSignIn(page, address, app.origin);
			await expectSecondStep(page, app.origin);
			await typeSecondStep(page, code);
			await expect(page).toHaveURL(/second-factor\?error=InvalidSecondFactor/);
			await expect(page.getByRole('alert')).toHaveText('That code is not right, or it was already used. Try the next code your app shows.');
			await typeSecondStep(page, wrongCode(key));
			await expect(page.getByRole('alert')).toContainText('That code is not right');
			expect((await sessionOf(page, app.origin))?.user).toBeUndefined();

			// a recovery code: signed in, and told how many are left
			await typeSecondStep(page, recoveryCodes[0]);
			await expect(page.getByRole('heading', { level: 1 })).toHaveText('You signed in with a recovery code');
			await expect(page.getByTestId('recovery-codes-left')).toHaveText('You have 9 recovery codes left. Each code works once.');
			await expectNoSeriousA11yViolations(page);
			await page.getByRole('link', { name: 'Continue' }).click();
			await expect(page).toHaveURL(`${app.origin}/protected`);
			await expect(page.getByTestId('protected-user')).toContainText(address);
			await page.goto(`${app.origin}${accountPath(app)}`);
			await expect(page.locator('section.kitgate-two-factor')).toContainText('You have 9 recovery codes left.');
		});

		test('repeated wrong codes are throttled: then even the right code is refused', async ({ page }) => {
			test.setTimeout(90_000);
			const address = newAddress(app, 'throttle');
			await emailSignIn(page, address, app.origin, accountPath(app));
			const { key } = await enrolOnAccountPage(page, `${app.origin}${accountPath(app)}`, { typoFirst: true });
			await signOut(page, app);
			await emailSignIn(page, address, app.origin);
			await expectSecondStep(page, app.origin);
			let throttled = false;
			for (let attempt = 0; attempt < 8 && !throttled; attempt++) {
				await typeSecondStep(page, wrongCode(key));
				await expect(page.getByRole('alert')).toBeVisible();
				throttled = new URL(page.url()).searchParams.get('error') === 'RateLimited';
			}
			expect(throttled, 'RateLimited after repeated wrong codes').toBe(true);
			await expect(page.getByRole('alert')).toHaveText('Too many codes were tried. Wait a few minutes, then try again.');
			await typeSecondStep(page, await nextCode(page, key));
			await expect(page).toHaveURL(/second-factor\?error=RateLimited/);
			await expectNobodySignedIn(page, app.origin);
		});

		test('without JavaScript: enrol, then sign in with an email link and a code', async ({ browser }) => {
			test.setTimeout(90_000);
			const context = await noScriptContext(browser);
			try {
				const page = await context.newPage();
				const address = newAddress(app, 'nojs');
				await emailSignIn(page, address, app.origin, accountPath(app));
				await expect(page).toHaveURL(`${app.origin}${accountPath(app)}`);
				const { key } = await enrolOnAccountPage(page, `${app.origin}${accountPath(app)}`, { typoFirst: true });
				await signOut(page, app);
				await emailSignIn(page, address, app.origin);
				await expectSecondStep(page, app.origin);
				await typeSecondStep(page, await nextCode(page, key));
				await expect(page).toHaveURL(`${app.origin}/protected`);
				await expect(page.getByTestId('protected-user')).toContainText(address);
			} finally {
				await context.close();
			}
		});
	});
}

/** The demos this spec starts (each with its own SQLite file), with sign-ins that count as recent for FRESH_SECONDS only. */
const FRESH_SECONDS = 8;
const spawned = [
	{ app: apps[0], port: 4190 },
	{ app: apps[1], port: 3190 }
];

for (const demo of spawned) {
	test(`${demo.app.name}: password + code; turning it off needs a recent sign-in and a current code`, async ({ page, ownDemo }) => {
		test.setTimeout(150_000);
		const origin = await ownDemo(demo.app, demo.port, { KITGATE_FRESH_SIGN_IN_MAX_AGE: String(FRESH_SECONDS) });
		const accountUrl = `${origin}${accountPath(demo.app)}`;
		await passwordSignIn(page, origin, accountPath(demo.app));
		await expect(page).toHaveURL(accountUrl);
		const { key, recoveryCodes } = await enrolOnAccountPage(page, accountUrl, { typoFirst: true });
		await signOut(page, demo.app, origin);

		// password, then the code
		await passwordSignIn(page, origin, '/protected');
		await expectSecondStep(page, origin);
		await expectNobodySignedIn(page, origin);
		await page.goto(`${origin}/auth/second-factor`);
		await typeSecondStep(page, await nextCode(page, key));
		await expect(page.getByTestId('protected-user')).toContainText(DEMO.name);

		// once the sign-in is stale, turning it off sends the user to sign in again first
		await page.waitForTimeout((FRESH_SECONDS + 1) * 1000);
		await page.goto(accountUrl);
		const section = page.locator('section.kitgate-two-factor');
		await expect(section.locator('.kitgate-account-fresh')).toHaveText('For your security, you will be asked to sign in again first.');
		const removal = section.locator('form.kitgate-account-two-factor-remove');
		await removal.getByLabel('Current code from the app, or a recovery code').fill(wrongCode(key));
		await removal.getByRole('button', { name: 'Turn off two-step verification' }).click();
		await expect(page).toHaveURL(/signin\?.*error=FreshSignInRequired/);
		await expect(page.getByText('For your security, sign in again to continue.')).toBeVisible();

		// signing in again (with a recovery code this time) comes back to the account page, fresh; the
		// code that turns it off is taken first (it may mean waiting for the app's next code), so the
		// sign-in is still recent when it is typed
		const removalCode = await nextCode(page, key);
		await typeCredentials(page);
		await expectSecondStep(page, origin);
		await typeSecondStep(page, recoveryCodes[4]);
		await expect(page.getByTestId('recovery-codes-left')).toHaveText('You have 9 recovery codes left. Each code works once.');
		await page.getByRole('link', { name: 'Continue' }).click();
		await expect(page).toHaveURL(accountUrl);

		// a wrong code is refused; a current one turns it off
		await removal.getByLabel('Current code from the app, or a recovery code').fill(wrongCode(key));
		await removal.getByRole('button', { name: 'Turn off two-step verification' }).click();
		await expect(page.getByRole('alert').first()).toContainText('That code is not right');
		await removal.getByLabel('Current code from the app, or a recovery code').fill(removalCode);
		await removal.getByRole('button', { name: 'Turn off two-step verification' }).click();
		await expect(page.getByRole('status').first()).toHaveText('Two-step verification is off.');
		await expect(section).toContainText('Two-step verification is off.');

		// the password alone signs in again
		await signOut(page, demo.app, origin);
		await passwordSignIn(page, origin, '/protected');
		await expect(page.getByTestId('protected-user')).toContainText(DEMO.name);
	});
}

/** Demos started with twoFactor.required and "Trust this browser for 30 days" (KITGATE_TWO_FACTOR_REQUIRED, KITGATE_TRUST_BROWSER_DAYS). */
const policyDemos = [
	{ app: apps[0], port: 4191 },
	{ app: apps[1], port: 3191 }
];

for (const demo of policyDemos) {
	test(`${demo.app.name}: two-step verification required — a new user sets it up at sign-in; "Trust this browser" skips the code in that browser only (another, without JavaScript, is asked)`, async ({ browser, newPerson, ownDemo }) => {
		test.setTimeout(150_000);
		const origin = await ownDemo(demo.app, demo.port, {
			KITGATE_FRESH_SIGN_IN_MAX_AGE: String(FRESH_SECONDS),
			KITGATE_TWO_FACTOR_REQUIRED: 'yes',
			KITGATE_TRUST_BROWSER_DAYS: '30'
		});
		// axe runs a script in the page: this browser has JavaScript (the pages themselves run none)
		const { context, page } = await newPerson();

		// the password alone signs nobody in: the second step sets up the second factor first
		await passwordSignIn(page, origin, '/protected');
		await expect(page).toHaveURL(`${origin}/auth/second-factor`);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Two-step verification');
		await expect(page.getByText('This site asks everyone to use two-step verification.')).toBeVisible();
		await expect(page.getByRole('img', { name: 'QR code of your authenticator key' })).toBeVisible();
		await expectNoSeriousA11yViolations(page);
		await expectNobodySignedIn(page, origin);
		const account = await page.request.get(`${origin}/auth/account`, { headers: { accept: 'application/json' } });
		expect(account.status()).toBe(401);

		await page.goto(`${origin}/auth/second-factor`);
		const { key } = await confirmEnrolment(page, { typoFirst: true });
		await expectNoSeriousA11yViolations(page);
		await page.getByRole('link', { name: 'I have saved my recovery codes, continue' }).click();
		await expect(page).toHaveURL(`${origin}/protected`);
		await expect(page.getByTestId('protected-user')).toContainText(DEMO.name);
		await signOut(page, demo.app, origin);

		// now a code is asked for, with "Trust this browser for 30 days"
		await passwordSignIn(page, origin, '/protected');
		await expectSecondStep(page, origin);
		const trust = page.getByLabel('Trust this browser for 30 days');
		await expect(trust).not.toBeChecked();
		await expectNoSeriousA11yViolations(page);
		await trust.check();
		await typeSecondStep(page, await nextCode(page, key));
		await expect(page.getByTestId('protected-user')).toContainText(DEMO.name);
		const cookie = (await context.cookies(origin)).find((c) => c.name === 'kitgate.trusted-browser');
		expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
		await signOut(page, demo.app, origin);

		// the same browser: the password is enough
		await passwordSignIn(page, origin, '/protected');
		await expect(page).toHaveURL(`${origin}/protected`);
		await expect(page.getByTestId('protected-user')).toContainText(DEMO.name);

		// another browser (without JavaScript) is asked for the code
		const other = await noScriptContext(browser);
		try {
			const otherPage = await other.newPage();
			await passwordSignIn(otherPage, origin, '/protected');
			await expectSecondStep(otherPage, origin);
			await expect(otherPage.getByLabel('Trust this browser for 30 days')).not.toBeChecked();
		} finally {
			await other.close();
		}
	});
}

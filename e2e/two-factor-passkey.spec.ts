// A passkey as the second factor in Chromium on both integrations, with its virtual authenticator
// (CDP WebAuthn.*): a user signs in with an email link, turns on two-step verification and adds a
// passkey on the account page, signs out, signs in with an email link again, and on the second step
// uses "Use a passkey" instead of a code (nobody is signed in before). Without JavaScript the same
// step shows the button disabled with a note, and the code form still signs in.

import { expect, test } from '@playwright/test';
import { apps, type DemoApp } from './apps.js';
import { enrolOnAccountPage, nextCode } from './authenticator-app.js';
import { addAuthenticator } from './passkeys.js';
import { accountPath, emailSignIn, sessionOf, signOut, uniqueAddress } from './sign-in.js';
import { expectNoSeriousA11yViolations, noScriptContext, viewport } from './ui.js';

test.use({ viewport });

const newAddress = (app: DemoApp) => uniqueAddress('2fa-passkey', app.name);

// the sign-in page's passkey autofill is off: Chromium would answer its conditional request at once
// and sign in with the passkey alone, where these tests sign in with an email link first
const withoutAutofill = { autofill: false };

for (const app of apps) {
	test.describe(app.name, () => {
		test('email link + "Use a passkey" on the second step signs in; without JavaScript the button is off and a code still works', async ({ page, browser }) => {
			test.setTimeout(120_000);
			await addAuthenticator(page, withoutAutofill);
			const address = newAddress(app);
			await emailSignIn(page, address, app.origin, accountPath(app));
			await expect(page).toHaveURL(`${app.origin}${accountPath(app)}`);
			const { key } = await enrolOnAccountPage(page, `${app.origin}${accountPath(app)}`);
			await page.getByRole('button', { name: 'Add a passkey' }).click();
			await expect(page.getByText('Passkey added.')).toBeVisible();
			await signOut(page, app);

			await emailSignIn(page, address, app.origin);
			await expect(page).toHaveURL(`${app.origin}/auth/second-factor`);
			await expect(page.getByLabel('Verification code')).toBeVisible();
			const usePasskey = page.getByRole('button', { name: 'Use a passkey' });
			await expect(usePasskey).toBeEnabled();
			await expectNoSeriousA11yViolations(page);
			expect((await sessionOf(page, app.origin))?.user).toBeUndefined();
			await usePasskey.click();
			await expect(page).toHaveURL(`${app.origin}/protected`);
			await expect(page.getByTestId('protected-user')).toContainText(address);
			await signOut(page, app);

			const context = await noScriptContext(browser);
			try {
				const noJs = await context.newPage();
				await emailSignIn(noJs, address, app.origin);
				await expect(noJs).toHaveURL(`${app.origin}/auth/second-factor`);
				await expect(noJs.getByRole('button', { name: 'Use a passkey' })).toBeDisabled();
				await expect(noJs.getByText(/Passkeys need JavaScript/)).toBeVisible();
				// a step after the enrolment's code: each step is accepted once
				await noJs.getByLabel('Verification code').fill(await nextCode(noJs, key));
				await noJs.getByRole('button', { name: 'Verify' }).click();
				await expect(noJs).toHaveURL(`${app.origin}/protected`);
				await expect(noJs.getByTestId('protected-user')).toContainText(address);
			} finally {
				await context.close();
			}
		});
	});
}

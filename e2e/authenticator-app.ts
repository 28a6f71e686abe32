// The person's authenticator app in the end-to-end tests of two-step verification: it reads the
// key off the enrolment step and makes codes with the project's own TOTP module, the way an app
// would; and the enrolment itself, on the account page or where twoFactor.required asks for it.

import { expect, type Page } from '@playwright/test';
import { totpCode, totpStep } from '../src/lib/server/core/two-factor/totp.js';

/** An enrolled key and the last time step the server accepted a code of (a code is accepted once, and only after that step). */
export interface Authenticator {
	secret: string;
	lastStep: number;
}

/**
 * A code the server accepts now: of a step after the last one used and at most one step ahead of
 * the clock (the server's window is ±1 step), waiting for the clock when it must.
 */
export async function nextCode(page: Page, key: Authenticator): Promise<string> {
	const step = Math.max(key.lastStep + 1, totpStep(Date.now()));
	while (totpStep(Date.now()) + 1 < step) await page.waitForTimeout(500);
	key.lastStep = step;
	return totpCode(key.secret, step);
}

/** A well-formed code that is none of the codes the server would accept now. */
export function wrongCode(key: Authenticator): string {
	const now = totpStep(Date.now());
	const valid = new Set([-1, 0, 1, 2].map((offset) => totpCode(key.secret, now + offset)));
	for (let offset = 40; ; offset++) if (!valid.has(totpCode(key.secret, now + offset))) return totpCode(key.secret, now + offset);
}

/** A key just enrolled, and the ten recovery codes shown once. */
export interface Enrolment {
	key: Authenticator;
	recoveryCodes: string[];
}

/**
 * On a page in the enrolment step (the account page after "Set up", or the set-up that
 * twoFactor.required asks for at sign-in): reads the key, types a code from it and sees the
 * recovery codes. With `typoFirst`, a wrong code first: refused, and the same key asked for again.
 */
export async function confirmEnrolment(page: Page, { typoFirst = false } = {}): Promise<Enrolment> {
	await expect(page.getByRole('img', { name: 'QR code of your authenticator key' })).toBeVisible();
	// the key is on the page, never in its address
	const shownKey = page.locator('.kitgate-two-factor-secret code');
	const secret = (await shownKey.getAttribute('data-secret'))!;
	expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
	expect(page.url()).not.toContain(secret);
	const key = { secret, lastStep: 0 };
	const turnOnWith = async (code: string) => {
		await page.getByLabel('6-digit code from the app').fill(code);
		await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
	};
	if (typoFirst) {
		await turnOnWith(wrongCode(key));
		await expect(page.getByRole('alert')).toContainText('That code is not right');
		await expect(shownKey).toHaveAttribute('data-secret', secret);
	}
	await turnOnWith(await nextCode(page, key));
	await expect(page.getByRole('heading', { name: 'Save your recovery codes now' })).toBeVisible();
	const shownCodes = page.locator('ol.kitgate-recovery-codes code');
	await expect(shownCodes).toHaveCount(10);
	return { key, recoveryCodes: await shownCodes.allTextContents() };
}

/** Turns on two-step verification from the account page at `accountUrl` (it is off), and is back there with ten recovery codes left. */
export async function enrolOnAccountPage(page: Page, accountUrl: string, options: { typoFirst?: boolean } = {}): Promise<Enrolment> {
	await page.goto(accountUrl);
	const section = page.locator('section.kitgate-two-factor');
	await expect(section).toContainText('Two-step verification is off.');
	await section.getByRole('button', { name: 'Set up two-step verification' }).click();
	const enrolment = await confirmEnrolment(page, options);
	await page.getByRole('link', { name: 'I have saved my recovery codes' }).click();
	await expect(section).toContainText('You have 10 recovery codes left.');
	return enrolment;
}

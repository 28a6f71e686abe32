// What the real-apps set-up built and started (reports/real-apps.json), and the browser steps the
// specs share: the local identity provider's login form and the mail sink's mailbox.

import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { REPORT, type RealApps } from './setup.js';

/** The apps of this run. */
export function realApps(): RealApps {
	return JSON.parse(readFileSync(REPORT, 'utf8')) as RealApps;
}

/** Logs in at oidc-provider's development login form and consents. */
export async function loginAtIdp(page: Page, login: string): Promise<void> {
	await page.locator('input[name="login"]').fill(login);
	await page.locator('input[name="password"]').fill('any-password');
	await page.getByRole('button', { name: /sign-in/i }).click();
	await page.getByRole('button', { name: /continue/i }).click();
}

/** The sign-in link of the newest mail to `address` in the sink's mailbox. */
export async function linkFromMailbox(mailbox: string, address: string): Promise<string> {
	let link: string | undefined;
	await expect
		.poll(async () => {
			const { messages } = (await (await fetch(mailbox)).json()) as { messages: { envelope: { to: string[] }; links: string[] }[] };
			link = messages.find((mail) => mail.envelope.to.includes(address))?.links.find((href) => href.includes('/auth/callback/'));
			return link;
		})
		.toBeTruthy();
	return link as string;
}

/** A fresh address for one test. */
export function freshAddress(name: string): string {
	return `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}

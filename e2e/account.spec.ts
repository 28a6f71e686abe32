// Account management in Chromium on both integrations and both session strategies: link a second
// provider at the local identity provider and unlink it; add (virtual authenticator), rename and
// remove a passkey; see the sessions of two browser contexts and end the other one (signed out on
// its next request); change the email address by a link from the demo mailbox; delete the account
// (every row gone, the session ended); and all of it but adding a passkey with JavaScript off.
// On the demos whose sign-ins go stale in seconds: a sensitive change sends the user to sign in
// again and back to the change.
// SvelteKit runs the demo's own /account page (AccountSettings); Express the built-in /auth/account.

import Database from 'better-sqlite3';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { staleApps, strategyApps, type StrategyApp } from './apps.js';
import { expectNoSeriousA11yViolations, noScriptContext, viewport } from './ui.js';

const MAILBOX = 'http://127.0.0.1:2526/messages';

test.use({ viewport });

/** Where each demo manages the account: its own page built from AccountSettings, or kitgate's built-in page. */
const accountPath = (app: StrategyApp) => (app.name === 'sveltekit' ? '/account' : '/auth/account');

/** A fresh address per test: the demo databases outlive a run. */
const newAddress = (app: StrategyApp, what: string) =>
	`${what}-${app.name}-${app.strategy}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;

/** The newest link in the demo mailbox sent to `address` whose URL contains `part`. */
async function mailedLink(address: string, part: string): Promise<string> {
	let link: string | undefined;
	await expect
		.poll(async () => {
			const { messages } = (await (await fetch(`${MAILBOX}?to=${encodeURIComponent(address)}`)).json()) as { messages: { links: string[] }[] };
			link = messages.flatMap((mail) => mail.links).find((url) => url.includes(part));
			return link;
		})
		.toBeTruthy();
	return link!;
}

/** Opens the account page signed out, signs in with an email link, and is back on the account page. */
async function signInByEmail(page: Page, app: StrategyApp, address: string): Promise<void> {
	await page.goto(`${app.origin}${accountPath(app)}`);
	await expect(page).toHaveURL(/signin\?callbackUrl=/);
	await signInOnThisPage(page, address);
	await expect(page).toHaveURL(`${app.origin}${accountPath(app)}`);
	await expect(page.getByRole('heading', { name: 'Connected accounts' })).toBeVisible();
}

/** On a sign-in page: asks for a link for `address` and follows the newest one. */
async function signInOnThisPage(page: Page, address: string): Promise<void> {
	const inbox = async () => ((await (await fetch(`${MAILBOX}?to=${encodeURIComponent(address)}`)).json()) as { messages: { links: string[] }[] }).messages;
	const before = (await inbox()).length;
	await page.getByLabel('Email address').fill(address);
	await page.getByRole('button', { name: /sign in with email/i }).click();
	await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
	await expect.poll(async () => (await inbox()).length).toBe(before + 1);
	// the mailbox lists the newest first
	const newest = (await inbox())[0].links.find((url) => url.includes('/auth/callback/email'));
	await page.goto(newest!);
	await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Connects the demo IdP account `login` through the explicit link flow and comes back. */
async function linkIdp(page: Page, app: StrategyApp, login: string): Promise<void> {
	await page.getByRole('button', { name: 'Connect Demo IdP' }).click();
	await expect(page).toHaveURL(/127\.0\.0\.1:9090/);
	await page.locator('input[name="login"]').fill(login);
	await page.locator('input[name="password"]').fill('any-password');
	await page.getByRole('button', { name: /sign-in/i }).click();
	await page.getByRole('button', { name: /continue/i }).click();
	await expect(page).toHaveURL(new RegExp(`^${app.origin}${accountPath(app)}\\?account=linked$`));
	await expect(page.getByRole('status').first()).toHaveText('The account was connected.');
	await expect(page.locator('li.kitgate-account[data-provider="demo-idp"]')).toHaveCount(1);
}

async function unlinkIdp(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Disconnect Demo IdP' }).click();
	await expect(page.getByRole('status').first()).toHaveText('The account was disconnected.');
	await expect(page.locator('li.kitgate-account[data-provider="demo-idp"]')).toHaveCount(0);
}

/** Renames the only passkey to `name`, then removes it (the last one: the recent sign-in lets it go). */
async function renameAndRemovePasskey(page: Page, name: string): Promise<void> {
	const item = page.locator('li.kitgate-passkey');
	await expect(item).toHaveCount(1);
	await item.locator('summary').click();
	await item.getByLabel('New name').fill(name);
	await item.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByRole('status').first()).toHaveText('Passkey renamed.');
	await expect(page.locator('.kitgate-passkey-name')).toHaveText(name);
	await page.getByRole('button', { name: `Remove: ${name}` }).click();
	await expect(page.getByRole('status').first()).toHaveText('Passkey removed. Your other devices were signed out.');
	await expect(page.locator('li.kitgate-passkey')).toHaveCount(0);
	await expect(page.getByTestId('passkey-empty')).toBeVisible();
}

/** Asks for a new address, opens the mailed link, confirms: the address is the new one. */
async function changeEmail(page: Page, app: StrategyApp, to: string): Promise<void> {
	await page.getByLabel('New email address').fill(to);
	await page.getByRole('button', { name: 'Send a confirmation link' }).click();
	await expect(page.getByRole('status').first()).toContainText('We sent a link to the new address.');
	await page.goto(await mailedLink(to, '/auth/account/confirm-email'));
	await expect(page.getByRole('heading', { name: 'Confirm your new email address' })).toBeVisible();
	await page.getByRole('button', { name: 'Change my email address' }).click();
	await expect(page).toHaveURL(`${app.origin}${accountPath(app)}?account=email-changed`);
	await expect(page.getByRole('status').first()).toHaveText('Your email address was changed. Your other devices were signed out unless you chose to keep them.');
	await expect(page.getByTestId('account-email')).toHaveText(`Your address is ${to}.`);
}

/** A platform authenticator with user verification that answers prompts by itself (as e2e/passkey.spec.ts). */
async function addAuthenticator(page: Page): Promise<void> {
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('WebAuthn.enable');
	await cdp.send('WebAuthn.addVirtualAuthenticator', {
		options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true }
	});
}

async function addPasskey(page: Page): Promise<void> {
	await addAuthenticator(page);
	await page.getByRole('button', { name: 'Add a passkey' }).click();
	await expect(page.getByRole('status').first()).toHaveText('Passkey added.');
	await expect(page.locator('li.kitgate-passkey')).toHaveCount(1);
}

/** Rows of the user in the app's database, per table (the user row itself under `users`). */
function storedRows(app: StrategyApp, userId: string): Record<string, number> {
	const db = new Database(app.database, { readonly: true, fileMustExist: true });
	try {
		const counts: Record<string, number> = {};
		const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
		for (const { name } of tables) {
			const columns = (db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map((column) => column.name);
			const column = name === 'users' ? 'id' : columns.find((c) => c === 'user_id' || c === 'userId');
			if (!column) continue;
			counts[name] = (db.prepare(`SELECT count(*) AS n FROM "${name}" WHERE "${column}" = ?`).get(userId) as { n: number }).n;
		}
		return counts;
	} finally {
		db.close();
	}
}

function userIdOf(app: StrategyApp, address: string): string {
	const db = new Database(app.database, { readonly: true, fileMustExist: true });
	try {
		return (db.prepare('SELECT id FROM users WHERE email = ?').get(address) as { id: string }).id;
	} finally {
		db.close();
	}
}

/** Deletes the account from the account page and expects to land signed out with every row gone. */
async function deleteAccount(page: Page, app: StrategyApp, address: string): Promise<void> {
	const userId = userIdOf(app, address);
	expect(storedRows(app, userId).users).toBe(1);
	await page.getByLabel('I understand that this cannot be undone').check();
	await page.getByRole('button', { name: 'Delete my account' }).click();
	if (app.name === 'sveltekit') {
		await expect(page).toHaveURL(`${app.origin}/?account=account-deleted`);
		await expect(page.getByTestId('anonymous')).toBeVisible();
	} else {
		await expect(page.getByRole('status')).toHaveText('Your account was deleted.');
	}
	const rows = storedRows(app, userId);
	expect(Object.keys(rows)).toEqual(expect.arrayContaining(['users', 'accounts', 'sessions', 'authenticators']));
	expect(Object.values(rows).every((n) => n === 0), JSON.stringify(rows)).toBe(true);
	await expectSignedOut(page, app);
}

/** The next request of this browser finds no session: the protected page sends it to sign in. */
async function expectSignedOut(page: Page, app: StrategyApp): Promise<void> {
	await page.goto(`${app.origin}/protected`);
	await expect(page).toHaveURL(/signin\?callbackUrl=/);
}

/** Signs `page` in as `address` in a second context (another device). */
async function secondDevice(browser: Browser, app: StrategyApp, address: string, javaScript = true): Promise<{ context: BrowserContext; page: Page }> {
	const context = javaScript ? await browser.newContext({ viewport }) : await noScriptContext(browser);
	const page = await context.newPage();
	await signInByEmail(page, app, address);
	return { context, page };
}

/**
 * Ends the other device's session from `page`: both strategies list both devices (JWT sessions
 * through their rows in the sessions table). `one`: the other row's own button; `all`: "Sign out
 * everywhere else".
 */
async function endOtherSession(page: Page, how: 'one' | 'all'): Promise<void> {
	const sessions = page.locator('li.kitgate-session');
	await expect(sessions).toHaveCount(2);
	await expect(page.locator('li.kitgate-session[data-current="true"]')).toContainText('This device');
	if (how === 'one') {
		await page.locator('li.kitgate-session[data-current="false"]').getByRole('button').click();
		await expect(page.getByRole('status').first()).toHaveText('That session was signed out.');
	} else {
		await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
		await expect(page.getByRole('status').first()).toHaveText('You were signed out everywhere else.');
	}
	await expect(sessions).toHaveCount(1);
	await expect(page.getByText('This device', { exact: true })).toBeVisible();
}

for (const app of strategyApps) {
	test.describe(`${app.name} on ${app.strategy} sessions`, () => {
		test('link and unlink a provider, add, rename and remove a passkey, change the email by link', async ({ page }) => {
			const address = newAddress(app, 'links');
			await signInByEmail(page, app, address);
			await expectNoSeriousA11yViolations(page);
			await linkIdp(page, app, `link-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
			await unlinkIdp(page);
			await addPasskey(page);
			await expectNoSeriousA11yViolations(page);
			await renameAndRemovePasskey(page, 'Work laptop');
			await changeEmail(page, app, newAddress(app, 'changed'));
		});

		test('two devices: see both, end the other (signed out on its next request), then delete the account', async ({ page, browser }) => {
			const address = newAddress(app, 'sessions');
			await signInByEmail(page, app, address);
			const other = await secondDevice(browser, app, address);
			try {
				await page.reload();
				await endOtherSession(page, 'one');
				await expectSignedOut(other.page, app);
				// this device goes on
				await page.goto(`${app.origin}${accountPath(app)}`);
				await expect(page.getByRole('heading', { name: 'Delete your account' })).toBeVisible();
				await deleteAccount(page, app, address);
			} finally {
				await other.context.close();
			}
		});

		test('without JavaScript: link, unlink, rename and remove a passkey, end the other session, change the email, delete', async ({ browser, page }) => {
			const address = newAddress(app, 'nojs');
			// the passkey is added where JavaScript runs (the ceremony needs it); that browser is also the other session
			await signInByEmail(page, app, address);
			await addPasskey(page);
			const { context, page: noJs } = await secondDevice(browser, app, address, false);
			try {
				await expect(noJs.getByRole('button', { name: 'Add a passkey' })).toBeDisabled();
				await expect(noJs.getByText(/Passkeys need JavaScript/)).toBeVisible();
				await linkIdp(noJs, app, `nojs-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
				await unlinkIdp(noJs);
				// removing a passkey is a credential change: the other device is signed out with it
				await renameAndRemovePasskey(noJs, 'Old phone');
				await expectSignedOut(page, app);
				await signInByEmail(page, app, address);
				await noJs.reload();
				await endOtherSession(noJs, 'all');
				await expectSignedOut(page, app);
				await noJs.goto(`${app.origin}${accountPath(app)}`);
				await changeEmail(noJs, app, newAddress(app, 'nojs-changed'));
				await deleteAccount(noJs, app, await currentEmail(noJs, app));
			} finally {
				await context.close();
			}
		});
	});
}

for (const app of staleApps) {
	test(`${app.name} on ${app.strategy} sessions: a stale sign-in is sent to sign in again and comes back to the change (unlink, then delete)`, async ({ page }) => {
		const address = newAddress(app, 'stale');
		await signInByEmail(page, app, address);
		await linkIdp(page, app, `stale-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
		const signedInAt = Date.now();
		await page.waitForTimeout(Math.max(0, signedInAt + app.staleAfterMs + 500 - Date.now()));
		await page.getByRole('button', { name: 'Disconnect Demo IdP' }).click();
		// the sign-in page says why, and will come back to the account page
		await expect(page).toHaveURL(/\/auth\/signin\?/);
		const back = new URL(page.url()).searchParams.get('callbackUrl');
		expect(new URL(back!, app.origin).pathname).toBe(accountPath(app));
		await expect(page.getByRole('alert')).toHaveText('For your security, sign in again to continue.');
		// nothing changed: still connected
		const userId = userIdOf(app, address);
		expect(storedRows(app, userId).accounts).toBe(2);
		// signing in again (an email link) lands on the account page, where the change now goes through
		await signInOnThisPage(page, address);
		await expect(page).toHaveURL(new RegExp(`^${app.origin}${accountPath(app)}`));
		await unlinkIdp(page);
		expect(storedRows(app, userId).accounts).toBe(1);

		// a stale deletion (whose page after success is the home page) also comes back to the account page
		await page.waitForTimeout(app.staleAfterMs + 500);
		await page.getByLabel('I understand that this cannot be undone').check();
		await page.getByRole('button', { name: 'Delete my account' }).click();
		await expect(page).toHaveURL(/\/auth\/signin\?/);
		expect(new URL(new URL(page.url()).searchParams.get('callbackUrl')!, app.origin).pathname).toBe(accountPath(app));
		await signInOnThisPage(page, address);
		await expect(page).toHaveURL(new RegExp(`^${app.origin}${accountPath(app)}`));
		await deleteAccount(page, app, address);
	});
}

/** The signed-in user's address as the account page shows it. */
async function currentEmail(page: Page, app: StrategyApp): Promise<string> {
	await page.goto(`${app.origin}${accountPath(app)}`);
	const text = await page.getByTestId('account-email').textContent();
	return /Your address is (.+)\.$/.exec(text ?? '')![1];
}

test('the built-in account page is the same on SvelteKit and Express, and axe-clean in both schemes', async ({ browser }) => {
	const shown: string[][] = [];
	for (const app of [strategyApps[0], strategyApps[2]]) {
		for (const colorScheme of ['light', 'dark'] as const) {
			const context = await browser.newContext({ viewport, colorScheme });
			try {
				const page = await context.newPage();
				const address = newAddress(app, `page-${colorScheme}`);
				await page.goto(`${app.origin}/auth/account`);
				await expect(page).toHaveURL(/signin\?callbackUrl=/);
				await page.getByLabel('Email address').fill(address);
				await page.getByRole('button', { name: /sign in with email/i }).click();
				await page.goto(await mailedLink(address, '/auth/callback/email'));
				await page.getByRole('button', { name: 'Sign in' }).click();
				await expect(page).toHaveURL(`${app.origin}/auth/account`);
				await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account');
				await expectNoSeriousA11yViolations(page);
				shown.push(await page.getByRole('heading').allTextContents());
			} finally {
				await context.close();
			}
		}
	}
	expect(new Set(shown.map((headings) => headings.join('|'))).size).toBe(1);
});

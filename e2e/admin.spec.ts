// Admin and support in Chromium on both integrations: the demo's admin account (role "admin")
// finds a user by search; bans them (their other browser is signed out on its next request and
// cannot sign in again: the banned failure), unbans them (they sign in); resets the second factor
// of a user who enrolled one on the account page (they sign in with the primary method alone, and
// on a demo started here with twoFactor.required they are asked to set one up); impersonates a user
// (their pages with the banner, no admin pages, no email change, stop returns to the admin); and
// reads the audit rows on the user's detail page. SvelteKit runs the demo's own /admin page
// (AdminUsers + AdminUserDetail); Express kitgate's built-in /auth/admin. Every test makes its own
// users (a unique address, signed in by an email link): the shared demo user is left alone.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { totpCode, totpStep } from '../src/lib/server/core/two-factor/totp.js';
import { apps, CREDENTIALS_BUTTON, type DemoApp } from './apps.js';
import { expectNoSeriousA11yViolations, viewport } from './ui.js';

const MAILBOX = 'http://127.0.0.1:2526/messages';

/** The demos' admin account (src/demo-users.ts, examples/express/auth-config.js). */
const ADMIN = { username: 'admin', password: 'demo-password', name: 'Demo Admin', email: 'admin@example.com' };

test.use({ viewport });

/** Where each demo's admin pages are: the demo's own page built from the components, or kitgate's built-in one. */
const adminPath = (app: DemoApp) => (app.name === 'sveltekit' ? '/admin' : '/auth/admin');
/** Where each demo manages the account: its own page built from AccountSettings, or kitgate's built-in page. */
const accountPath = (app: DemoApp) => (app.name === 'sveltekit' ? '/account' : '/auth/account');

/** A fresh address per test: the demo databases outlive a run. */
const newAddress = (app: DemoApp, what: string) => `admin-${what}-${app.name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;

interface Mail {
	subject: string;
	text: string;
	links: string[];
}

async function inbox(address: string): Promise<Mail[]> {
	return ((await (await fetch(`${MAILBOX}?to=${encodeURIComponent(address)}`)).json()) as { messages: Mail[] }).messages;
}

/** On a sign-in page: asks for a link for `address`, follows the newest one and confirms it. */
async function signInOnThisPage(page: Page, address: string): Promise<void> {
	const before = (await inbox(address)).length;
	await page.getByLabel('Email address').fill(address);
	await page.getByRole('button', { name: /sign in with email/i }).click();
	await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
	let link: string | undefined;
	await expect
		.poll(async () => {
			const mails = await inbox(address);
			// the mailbox lists the newest first
			link = mails.length > before ? mails[0].links.find((url) => url.includes('/auth/callback/email')) : undefined;
			return link;
		})
		.toBeTruthy();
	await page.goto(link!);
	await page.getByRole('button', { name: 'Sign in' }).click();
}

/** From signed out: opens `path`, is sent to sign in, signs in with an email link. Ends wherever the sign-in goes. */
async function emailSignIn(page: Page, app: DemoApp, address: string, path = '/protected', origin = app.origin): Promise<void> {
	await page.goto(`${origin}${path}`);
	await expect(page).toHaveURL(/signin\?callbackUrl=/);
	await signInOnThisPage(page, address);
}

/** Signs the user in on `/protected` and expects the page to be theirs. */
async function userSignsIn(page: Page, app: DemoApp, address: string, origin = app.origin): Promise<void> {
	await emailSignIn(page, app, address, '/protected', origin);
	await expect(page).toHaveURL(`${origin}/protected`);
	await expect(page.getByTestId('protected-user')).toContainText(address);
}

/** The credentials form with the demo admin account, from a sign-in page. */
async function typeAdminPassword(page: Page): Promise<void> {
	await page.getByLabel('Username').fill(ADMIN.username);
	await page.getByLabel('Password').fill(ADMIN.password);
	await page.getByRole('button', { name: CREDENTIALS_BUTTON }).click();
}

/** Opens the admin page signed out: sent to sign in, the admin account's password, back on the admin page. */
async function adminSignsIn(page: Page, app: DemoApp, origin = app.origin): Promise<void> {
	await page.goto(`${origin}${adminPath(app)}`);
	// the built-in admin page sends a browser without a session to sign in (with SessionRequired)
	await expect(page).toHaveURL(/signin\?(.*&)?callbackUrl=/);
	await typeAdminPassword(page);
	await expect(page).toHaveURL(`${origin}${adminPath(app)}`);
}

/** A browser of its own (another person, or the same person's other device). */
async function newBrowser(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
	const context = await browser.newContext({ viewport });
	return { context, page: await context.newPage() };
}

/** On the admin list: searches `address`, expects exactly that user, opens their detail page. */
async function openUser(page: Page, app: DemoApp, address: string, origin = app.origin): Promise<void> {
	await page.goto(`${origin}${adminPath(app)}`);
	await page.getByRole('searchbox', { name: 'Search by name, email or id' }).fill(address);
	await page.getByRole('button', { name: 'Search', exact: true }).click();
	const rows = page.locator('li.kitgate-admin-user');
	await expect(rows).toHaveCount(1);
	await expect(rows).toContainText(address);
	await rows.getByRole('link').first().click();
	await expect(page.locator('.kitgate-admin-user-detail')).toContainText(address);
}

/** Submits one of the detail page's forms (`form.kitgate-admin-<operation>`), ticking its "I understand" box when it has one. */
async function act(page: Page, operation: string, button: string | RegExp, fields: Record<string, string> = {}): Promise<void> {
	const form = page.locator(`form.kitgate-admin-${operation}`);
	for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
	const confirm = form.getByRole('checkbox');
	if (await confirm.count()) await confirm.check();
	await form.getByRole('button', { name: button }).click();
}

/** The session as the app's session route sees it in this browser. */
async function sessionOf(page: Page, origin: string): Promise<{ user?: { email?: string }; impersonation?: { admin: { email: string | null } } } | null> {
	return (await (await page.request.get(`${origin}/auth/session`)).json()) as never;
}

/** The banner of kitgate's built-in pages while an admin is signed in as a user, with its Stop button. */
function impersonationBanner(page: Page) {
	return page.getByRole('status').filter({ hasText: /^Signed in as .+ by / });
}

/** The detail page's audit rows of `action`. */
function auditRows(page: Page, action: string) {
	return page.locator(`li.kitgate-admin-audit-entry[data-action="${action}"]`);
}

/** An enrolled TOTP key and the last step the server accepted a code of (each code works once). */
interface Authenticator {
	secret: string;
	lastStep: number;
}

/** A code the server accepts now: of a step after the last one used, at most one step ahead of the clock. */
async function nextCode(page: Page, key: Authenticator): Promise<string> {
	const step = Math.max(key.lastStep + 1, totpStep(Date.now()));
	while (totpStep(Date.now()) + 1 < step) await page.waitForTimeout(500);
	key.lastStep = step;
	return totpCode(key.secret, step);
}

/** On a page showing the enrolment step (the account page after "Set up", or the required set-up at sign-in): reads the key, types a code, sees the recovery codes. */
async function confirmEnrolment(page: Page): Promise<Authenticator> {
	await expect(page.getByRole('img', { name: 'QR code of your authenticator key' })).toBeVisible();
	const key = { secret: (await page.locator('.kitgate-two-factor-secret code').getAttribute('data-secret'))!, lastStep: 0 };
	await page.getByLabel('6-digit code from the app').fill(await nextCode(page, key));
	await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
	await expect(page.getByRole('heading', { name: 'Save your recovery codes now' })).toBeVisible();
	return key;
}

/** Turns on two-step verification from the account page. */
async function enrolOnAccountPage(page: Page, accountUrl: string): Promise<Authenticator> {
	await page.goto(accountUrl);
	await page.locator('section.kitgate-two-factor').getByRole('button', { name: 'Set up two-step verification' }).click();
	const key = await confirmEnrolment(page);
	await page.getByRole('link', { name: 'I have saved my recovery codes' }).click();
	await expect(page.locator('section.kitgate-two-factor')).toContainText('You have 10 recovery codes left.');
	return key;
}

async function signOut(page: Page, app: DemoApp, origin = app.origin): Promise<void> {
	await page.goto(`${origin}/`);
	await app.signOut(page);
	await expect(page.getByTestId('anonymous')).toBeVisible();
}

for (const app of apps) {
	test.describe(app.name, () => {
		test('search a user; ban: their other browser is signed out on its next request and cannot sign in; unban: they sign in; the audit rows', async ({ browser }) => {
			test.setTimeout(120_000);
			const address = newAddress(app, 'ban');
			const user = await newBrowser(browser);
			const admin = await newBrowser(browser);
			try {
				await userSignsIn(user.page, app, address);
				// a user who is no admin gets no Admin link, and the admin pages refuse them
				await expect(user.page.getByRole('link', { name: 'Admin', exact: true })).toHaveCount(0);
				const refused = await user.page.request.get(`${app.origin}/auth/admin`, { headers: { accept: 'application/json' } });
				expect(refused.status()).toBe(403);

				await adminSignsIn(admin.page, app);
				await expectNoSeriousA11yViolations(admin.page);
				// hostile queries of the list page: an answer or a 4xx, never a 500
				for (const query of [`q=${'x'.repeat(300)}`, 'page=-1', 'page=abc', 'q=a&q=b', 'id=%00']) {
					const response = await admin.page.goto(`${app.origin}${adminPath(app)}?${query}`);
					expect(response?.status(), query).toBeLessThan(500);
				}
				const unknownUser = await admin.page.goto(`${app.origin}${adminPath(app)}/user?id=no-such-user`);
				expect(unknownUser?.status()).toBe(404);
				// the demo's nav links the admin pages for the admin
				await admin.page.goto(`${app.origin}/`);
				await admin.page.getByRole('link', { name: 'Admin', exact: true }).click();
				await expect(admin.page).toHaveURL(`${app.origin}${adminPath(app)}`);
				await openUser(admin.page, app, address);
				await expectNoSeriousA11yViolations(admin.page);

				await act(admin.page, 'ban', 'Ban this user', { Reason: 'e2e: spam' });
				await expect(admin.page).toHaveURL(/[?&]admin=banned/);
				await expect(admin.page.getByRole('status').first()).toHaveText('The user was banned and signed out everywhere.');
				await expect(admin.page.getByTestId('admin-status')).toContainText('Banned since');
				await expect(admin.page.getByTestId('admin-status')).toContainText('Reason: e2e: spam');

				// the user's browser: signed out on its next request, and signing in again fails as banned
				await user.page.goto(`${app.origin}/protected`);
				await expect(user.page).toHaveURL(/signin\?callbackUrl=/);
				expect((await sessionOf(user.page, app.origin))?.user).toBeUndefined();
				await signInOnThisPage(user.page, address);
				await expect(user.page).toHaveURL(/[?&]error=UserBanned/);
				await expect(user.page.getByRole('alert')).toHaveText('This account is suspended. Contact the site if you think this is a mistake.');
				expect((await sessionOf(user.page, app.origin))?.user).toBeUndefined();

				await act(admin.page, 'unban', 'Unban');
				await expect(admin.page).toHaveURL(/[?&]admin=unbanned/);
				await expect(admin.page.getByTestId('admin-status')).toHaveText('Active');
				await userSignsIn(user.page, app, address);

				await admin.page.reload();
				await expect(auditRows(admin.page, 'unban')).toHaveCount(1);
				await expect(auditRows(admin.page, 'ban')).toHaveCount(1);
				await expect(auditRows(admin.page, 'ban')).toContainText(ADMIN.email);
			} finally {
				await user.context.close();
				await admin.context.close();
			}
		});

		test('reset a second factor: the user signs in with the email link alone, and is told by email', async ({ browser }) => {
			test.setTimeout(120_000);
			const address = newAddress(app, 'reset');
			const user = await newBrowser(browser);
			const admin = await newBrowser(browser);
			try {
				await emailSignIn(user.page, app, address, accountPath(app));
				await enrolOnAccountPage(user.page, `${app.origin}${accountPath(app)}`);
				await signOut(user.page, app);
				// the primary sign-in alone is not enough now
				await emailSignIn(user.page, app, address);
				await expect(user.page).toHaveURL(new RegExp(`^${app.origin}/auth/second-factor`));

				await adminSignsIn(admin.page, app);
				await openUser(admin.page, app, address);
				const mailsBefore = (await inbox(address)).length;
				await act(admin.page, 'reset-two-factor', 'Reset the second factor');
				await expect(admin.page).toHaveURL(/[?&]admin=two-factor-reset/);
				await expect(admin.page.locator('section.kitgate-admin-two-factor')).toContainText('Off.');
				await expect.poll(async () => (await inbox(address)).length).toBe(mailsBefore + 1);

				// a fresh browser: the email link alone signs the user in
				await user.context.clearCookies();
				await userSignsIn(user.page, app, address);
				await admin.page.reload();
				await expect(auditRows(admin.page, 'reset-two-factor')).toHaveCount(1);
			} finally {
				await user.context.close();
				await admin.context.close();
			}
		});

		test('impersonate: the user\'s pages with the banner, no admin pages, no email change; stop returns to the admin; the audit rows', async ({ browser }) => {
			test.setTimeout(120_000);
			const address = newAddress(app, 'impersonate');
			const user = await newBrowser(browser);
			const admin = await newBrowser(browser);
			try {
				await userSignsIn(user.page, app, address);
				await adminSignsIn(admin.page, app);
				await openUser(admin.page, app, address);
				await act(admin.page, 'impersonate', 'Sign in as this user');
				await expect(admin.page).toHaveURL(`${app.origin}/?admin=impersonating`);

				// the admin browses as the user, with the banner on kitgate's pages
				const page = admin.page;
				await page.goto(`${app.origin}/protected`);
				await expect(page.getByTestId('protected-user')).toContainText(address);
				// the demo's own pages say so too (its layout / page header, from session.impersonation)
				await expect(page.getByTestId('impersonation')).toContainText(`You are signed in as ${address} by ${ADMIN.name}.`);
				const session = await sessionOf(page, app.origin);
				expect(session?.user?.email).toBe(address);
				expect(session?.impersonation?.admin.email).toBe(ADMIN.email);
				await page.goto(`${app.origin}/auth/account`);
				await expect(impersonationBanner(page)).toContainText(`Signed in as ${address} by ${ADMIN.name}`);

				// no admin pages
				const adminPage = await page.goto(`${app.origin}/auth/admin`);
				expect(adminPage?.status()).toBe(403);
				const adminJson = await page.request.get(`${app.origin}/auth/admin`, { headers: { accept: 'application/json' } });
				expect(adminJson.status()).toBe(403);
				if (app.name === 'sveltekit') expect((await page.goto(`${app.origin}/admin`))?.status()).toBe(403);

				// no email change (a password kitgate does not keep: the app's own pages would ask locals.auth() for the impersonation)
				await page.goto(`${app.origin}/auth/account`);
				await page.getByLabel('New email address').fill(newAddress(app, 'taken-over'));
				await page.getByRole('button', { name: 'Send a confirmation link' }).click();
				await expect(page).toHaveURL(/ImpersonationForbidden/);
				expect((await sessionOf(page, app.origin))?.user?.email).toBe(address);
				// nor a second factor of the admin's own
				await page.goto(`${app.origin}/auth/account`);
				await page.locator('section.kitgate-two-factor').getByRole('button', { name: 'Set up two-step verification' }).click();
				await expect(page).toHaveURL(/ImpersonationForbidden/);
				await expect(page.getByRole('img', { name: 'QR code of your authenticator key' })).toHaveCount(0);

				// stop: the admin again (SvelteKit: the demo's own banner, whose sign-out ends it; Express: the built-in pages' banner)
				if (app.name === 'sveltekit') {
					await page.goto(`${app.origin}/protected`);
					await page.getByTestId('impersonation').getByRole('button', { name: 'Stop impersonating' }).click();
					await expect(page).toHaveURL(`${app.origin}/admin`);
				} else {
					await page.goto(`${app.origin}/auth/account`);
					await impersonationBanner(page).getByRole('button', { name: 'Stop impersonating' }).click();
				}
				await expect.poll(async () => (await sessionOf(page, app.origin))?.user?.email).toBe(ADMIN.email);
				await page.goto(`${app.origin}/`);
				await expect(page.getByTestId('signed-in-as')).toHaveText(`Signed in as ${ADMIN.name}`);
				await expect(page.getByTestId('impersonation')).toHaveCount(0);
				expect((await sessionOf(page, app.origin))?.impersonation).toBeUndefined();

				// the user's own browser was never touched
				await user.page.goto(`${app.origin}/protected`);
				await expect(user.page.getByTestId('protected-user')).toContainText(address);

				await openUser(page, app, address);
				await expect(auditRows(page, 'impersonate')).toHaveCount(1);
				// the refused email change, a request that changes something, made while impersonating
				await expect(auditRows(page, 'impersonated:request').filter({ hasText: 'method: POST · path: /auth/account/change-email' })).toHaveCount(1);
			} finally {
				await user.context.close();
				await admin.context.close();
			}
		});
	});
}

/** Demos started here with twoFactor.required, each with its own database (KITGATE_TWO_FACTOR_REQUIRED). */
const requiredDemos = [
	{ app: apps[0], port: 4192, command: ['build'], env: (dir: string, origin: string) => ({ ORIGIN: origin, KITGATE_DB_FILE: join(dir, 'demo.sqlite') }) },
	{ app: apps[1], port: 3192, command: ['examples/express/server.js'], env: (dir: string) => ({ KITGATE_EXPRESS_DB_FILE: join(dir, 'demo.sqlite') }) }
];

/** Starts a demo; resolves once it says it listens (SvelteKit: "Listening on", Express: "demo on"). */
function startDemo(command: string[], port: number, env: Record<string, string>): { child: ChildProcess; ready: Promise<void> } {
	const child = spawn('node', command, {
		env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', KITGATE_TWO_FACTOR_REQUIRED: 'yes' },
		stdio: ['ignore', 'pipe', 'inherit']
	});
	const ready = new Promise<void>((resolve, reject) => {
		child.stdout!.on('data', (chunk) => /Listening on|demo on/.test(String(chunk)) && resolve());
		child.on('exit', (code) => reject(new Error(`the demo exited with ${code}`)));
		setTimeout(() => reject(new Error('the demo did not start in 30 s')), 30_000);
	});
	return { child, ready };
}

for (const demo of requiredDemos) {
	test(`${demo.app.name}, two-step verification required: after a reset the user is asked to set one up again at sign-in`, async ({ browser }) => {
		test.setTimeout(150_000);
		const origin = `http://localhost:${demo.port}`;
		const dir = mkdtempSync(join(tmpdir(), 'kitgate-admin-2fa-'));
		const server = startDemo(demo.command, demo.port, demo.env(dir, origin));
		const user = await newBrowser(browser);
		const admin = await newBrowser(browser);
		try {
			await server.ready;
			const address = newAddress(demo.app, 'required');
			// the user's first sign-in sets the second factor up
			await emailSignIn(user.page, demo.app, address, '/protected', origin);
			await expect(user.page).toHaveURL(`${origin}/auth/second-factor`);
			await confirmEnrolment(user.page);
			await user.page.getByRole('link', { name: 'I have saved my recovery codes, continue' }).click();
			await expect(user.page.getByTestId('protected-user')).toContainText(address);
			await signOut(user.page, demo.app, origin);

			// so does the admin's (required for admins too)
			await admin.page.goto(`${origin}${adminPath(demo.app)}`);
			await typeAdminPassword(admin.page);
			await expect(admin.page).toHaveURL(`${origin}/auth/second-factor`);
			await confirmEnrolment(admin.page);
			await admin.page.getByRole('link', { name: 'I have saved my recovery codes, continue' }).click();
			await expect(admin.page).toHaveURL(`${origin}${adminPath(demo.app)}`);
			await openUser(admin.page, demo.app, address, origin);
			await act(admin.page, 'reset-two-factor', 'Reset the second factor');
			await expect(admin.page).toHaveURL(/[?&]admin=two-factor-reset/);

			// the email link signs nobody in yet: the second factor is set up again first
			await emailSignIn(user.page, demo.app, address, '/protected', origin);
			await expect(user.page).toHaveURL(`${origin}/auth/second-factor`);
			await expect(user.page.getByText('This site asks everyone to use two-step verification.')).toBeVisible();
			expect((await sessionOf(user.page, origin))?.user).toBeUndefined();
			await confirmEnrolment(user.page);
			await user.page.getByRole('link', { name: 'I have saved my recovery codes, continue' }).click();
			await expect(user.page.getByTestId('protected-user')).toContainText(address);
		} finally {
			server.child.kill('SIGTERM');
			await user.context.close().catch(() => undefined);
			await admin.context.close().catch(() => undefined);
			rmSync(dir, { recursive: true, force: true });
		}
	});
}

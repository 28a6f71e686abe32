// Admin and support in Chromium on both integrations: the demo's admin account (role "admin")
// finds a user by search; bans them (their other browser is signed out on its next request and
// cannot sign in again: the banned failure), unbans them (they sign in); resets the second factor
// of a user who enrolled one on the account page (they sign in with the primary method alone, and
// on a demo started here with twoFactor.required they are asked to set one up); impersonates a user
// (their pages with the banner, no admin pages, no email change, stop returns to the admin); and
// reads the audit rows on the user's detail page. SvelteKit runs the demo's own /admin page
// (AdminUsers + AdminUserDetail); Express kitgate's built-in /auth/admin. Every test makes its own
// users (a unique address, signed in by an email link): the shared demo user is left alone.

import type { Page } from '@playwright/test';
import { apps, type DemoApp } from './apps.js';
import { confirmEnrolment, enrolOnAccountPage } from './authenticator-app.js';
import { expect, test } from './fixtures.js';
import { inbox } from './mailbox.js';
import { accountPath, emailSignIn, sessionOf, signInOnThisPage, signOut, typeCredentials, uniqueAddress, userSignsIn } from './sign-in.js';
import { expectNoSeriousA11yViolations, viewport } from './ui.js';

/** The demos' admin account (src/demo-users.ts, examples/express/auth-config.js). */
const ADMIN = { username: 'admin', password: 'demo-password', name: 'Demo Admin', email: 'admin@example.com' };

test.use({ viewport });

/** Where each demo's admin pages are: the demo's own page built from the components, or kitgate's built-in one. */
const adminPath = (app: DemoApp) => (app.name === 'sveltekit' ? '/admin' : '/auth/admin');

/** A fresh address per test: the demo databases outlive a run. */
const newAddress = (app: DemoApp, what: string) => uniqueAddress('admin', what, app.name);

/** Opens the admin page signed out: sent to sign in, the admin account's password, back on the admin page. */
async function adminSignsIn(page: Page, app: DemoApp, origin = app.origin): Promise<void> {
	await page.goto(`${origin}${adminPath(app)}`);
	// the built-in admin page sends a browser without a session to sign in (with SessionRequired)
	await expect(page).toHaveURL(/signin\?(.*&)?callbackUrl=/);
	await typeCredentials(page, ADMIN);
	await expect(page).toHaveURL(`${origin}${adminPath(app)}`);
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

/** The banner of kitgate's built-in pages while an admin is signed in as a user, with its Stop button. */
function impersonationBanner(page: Page) {
	return page.getByRole('status').filter({ hasText: /^Signed in as .+ by / });
}

/** The detail page's audit rows of `action`. */
function auditRows(page: Page, action: string) {
	return page.locator(`li.kitgate-admin-audit-entry[data-action="${action}"]`);
}

for (const app of apps) {
	test.describe(app.name, () => {
		test('search a user; ban: their other browser is signed out on its next request and cannot sign in; unban: they sign in; the audit rows', async ({ newPerson }) => {
			test.setTimeout(120_000);
			const address = newAddress(app, 'ban');
			const user = await newPerson();
			const admin = await newPerson();
			await userSignsIn(user.page, address, app.origin);
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
			await userSignsIn(user.page, address, app.origin);

			await admin.page.reload();
			await expect(auditRows(admin.page, 'unban')).toHaveCount(1);
			await expect(auditRows(admin.page, 'ban')).toHaveCount(1);
			await expect(auditRows(admin.page, 'ban')).toContainText(ADMIN.email);
		});

		test('reset a second factor: the user signs in with the email link alone, and is told by email', async ({ newPerson }) => {
			test.setTimeout(120_000);
			const address = newAddress(app, 'reset');
			const user = await newPerson();
			const admin = await newPerson();
			await emailSignIn(user.page, address, app.origin, accountPath(app));
			await enrolOnAccountPage(user.page, `${app.origin}${accountPath(app)}`);
			await signOut(user.page, app);
			// the primary sign-in alone is not enough now
			await emailSignIn(user.page, address, app.origin);
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
			await userSignsIn(user.page, address, app.origin);
			await admin.page.reload();
			await expect(auditRows(admin.page, 'reset-two-factor')).toHaveCount(1);
		});

		test('impersonate: the user\'s pages with the banner, no admin pages, no email change; stop returns to the admin; the audit rows', async ({ newPerson }) => {
			test.setTimeout(120_000);
			const address = newAddress(app, 'impersonate');
			const user = await newPerson();
			const admin = await newPerson();
			await userSignsIn(user.page, address, app.origin);
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
		});
	});
}

/** Demos started here with twoFactor.required, each with its own database (KITGATE_TWO_FACTOR_REQUIRED). */
const requiredDemos = [
	{ app: apps[0], port: 4192 },
	{ app: apps[1], port: 3192 }
];

for (const demo of requiredDemos) {
	test(`${demo.app.name}, two-step verification required: after a reset the user is asked to set one up again at sign-in`, async ({ newPerson, ownDemo }) => {
		test.setTimeout(150_000);
		const origin = await ownDemo(demo.app, demo.port, { KITGATE_TWO_FACTOR_REQUIRED: 'yes' });
		const user = await newPerson();
		const admin = await newPerson();
		const address = newAddress(demo.app, 'required');
		// the user's first sign-in sets the second factor up
		await emailSignIn(user.page, address, origin);
		await expect(user.page).toHaveURL(`${origin}/auth/second-factor`);
		await confirmEnrolment(user.page);
		await user.page.getByRole('link', { name: 'I have saved my recovery codes, continue' }).click();
		await expect(user.page.getByTestId('protected-user')).toContainText(address);
		await signOut(user.page, demo.app, origin);

		// so does the admin's (required for admins too)
		await admin.page.goto(`${origin}${adminPath(demo.app)}`);
		await typeCredentials(admin.page, ADMIN);
		await expect(admin.page).toHaveURL(`${origin}/auth/second-factor`);
		await confirmEnrolment(admin.page);
		await admin.page.getByRole('link', { name: 'I have saved my recovery codes, continue' }).click();
		await expect(admin.page).toHaveURL(`${origin}${adminPath(demo.app)}`);
		await openUser(admin.page, demo.app, address, origin);
		await act(admin.page, 'reset-two-factor', 'Reset the second factor');
		await expect(admin.page).toHaveURL(/[?&]admin=two-factor-reset/);

		// the email link signs nobody in yet: the second factor is set up again first
		await emailSignIn(user.page, address, origin);
		await expect(user.page).toHaveURL(`${origin}/auth/second-factor`);
		await expect(user.page.getByText('This site asks everyone to use two-step verification.')).toBeVisible();
		expect((await sessionOf(user.page, origin))?.user).toBeUndefined();
		await confirmEnrolment(user.page);
		await user.page.getByRole('link', { name: 'I have saved my recovery codes, continue' }).click();
		await expect(user.page.getByTestId('protected-user')).toContainText(address);
	});
}

// The session state (setSessionContext in the demo's root layout) in Chromium: seeded from the
// layout's load with no request to /auth/session; a client-side sign-in, sign-out or update shows in
// the header and UserButton without a reload; a sign-out in another tab shows on focus with one
// request; and two users' pages rendered at the same time each show their own session.

import { expect, test, type Page, type Request } from '@playwright/test';
import { CREDENTIALS_BUTTON, DEMO } from './apps.js';

const ORIGIN = 'http://localhost:4173';

/** Signs in with the demo credentials through the sign-in page (a full page load). */
async function signInOnTheSignInPage(page: Page): Promise<void> {
	await page.goto(`${ORIGIN}/signin`);
	await page.getByLabel('Username').fill(DEMO.username);
	await page.getByLabel('Password').fill(DEMO.password);
	await page.getByRole('button', { name: CREDENTIALS_BUTTON }).click();
	await expect(page.getByTestId('signed-in-as')).toContainText(DEMO.name);
}

/** Requests to kitgate's session route from now on. */
function sessionRequests(page: Page): Request[] {
	const seen: Request[] = [];
	page.on('request', (request) => {
		if (new URL(request.url()).pathname === '/auth/session') seen.push(request);
	});
	return seen;
}

/** Opens the demo page and waits until it is hydrated (its buttons answer). */
async function openSessionPage(page: Page): Promise<void> {
	await page.goto(`${ORIGIN}/session-state`);
	await page.waitForLoadState('networkidle');
	// a marker that a full reload would lose
	await page.evaluate(() => ((window as unknown as { stillThisPage: boolean }).stillThisPage = true));
}

/** The header's UserButton (its `<summary>`, named after the user). */
const userButton = (page: Page) => page.locator('header .kg-userbutton summary');

const stillThisPage = (page: Page) => page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage === true);

test.describe('session state', () => {
	test('is seeded from the root layout with no request to /auth/session, signed in or not', async ({ page }) => {
		const requests = sessionRequests(page);
		await openSessionPage(page);
		await expect(page.getByTestId('session-status')).toHaveText('unauthenticated');
		await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();

		await signInOnTheSignInPage(page);
		await openSessionPage(page);
		await expect(page.getByTestId('session-status')).toHaveText('authenticated');
		await expect(page.getByTestId('session-email')).toHaveText('demo@kitgate.dev');
		await expect(userButton(page)).toHaveAttribute('aria-label', `Account menu of ${DEMO.name}`);
		expect(requests.map((request) => request.url())).toEqual([]);
	});

	test('a sign-in on the page shows in the header and UserButton without a reload; signing out there clears them', async ({ page }) => {
		await openSessionPage(page);
		const requests = sessionRequests(page);
		await page.getByLabel('Username').fill(DEMO.username);
		await page.getByLabel('Password').fill(DEMO.password);
		await page.getByRole('button', { name: 'Sign in here' }).click();

		await expect(page.getByTestId('signed-in-as')).toContainText(DEMO.name);
		await expect(userButton(page)).toHaveAttribute('aria-label', `Account menu of ${DEMO.name}`);
		await expect(page.getByTestId('session-status')).toHaveText('authenticated');
		expect(await stillThisPage(page)).toBe(true);
		// signIn announced the change: the state asked for the new session, once
		expect(requests.map((request) => request.method())).toEqual(['GET']);

		await page.getByRole('button', { name: 'Sign out here' }).click();
		await expect(page.getByTestId('session-status')).toHaveText('unauthenticated');
		await expect(page.getByTestId('signed-in-as')).toHaveCount(0);
		await expect(userButton(page)).toHaveCount(0);
		await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
		expect(await stillThisPage(page)).toBe(true);
		// signOut knew the answer: no second request
		expect(requests).toHaveLength(1);
		expect((await page.context().cookies()).some((cookie) => cookie.name === 'kitgate.session-token')).toBe(false);
	});

	test("the header's SignOut clears a session signed in on the page (the layout's load said nobody both times)", async ({ page }) => {
		await openSessionPage(page);
		await page.getByLabel('Username').fill(DEMO.username);
		await page.getByLabel('Password').fill(DEMO.password);
		await page.getByRole('button', { name: 'Sign in here' }).click();
		await expect(page.getByTestId('signed-in-as')).toContainText(DEMO.name);

		// the layout's SignOut (use:enhance): a client-side sign-out through the form action
		await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).click();
		await expect(page.getByTestId('signed-in-as')).toHaveCount(0);
		await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
		await expect(page).toHaveURL(`${ORIGIN}/`);
		expect(await stillThisPage(page)).toBe(true);
	});

	test('refresh asks once; update posts once with a CSRF token; the page stays', async ({ page }) => {
		await signInOnTheSignInPage(page);
		await openSessionPage(page);
		const requests = sessionRequests(page);
		await page.getByRole('button', { name: 'Refresh the session' }).click();
		await expect.poll(() => requests.map((request) => request.method())).toEqual(['GET']);
		await page.getByRole('button', { name: 'Update the session' }).click();
		await expect.poll(() => requests.map((request) => request.method())).toEqual(['GET', 'POST']);
		expect(JSON.parse(requests[1].postData() ?? '{}')).toMatchObject({ csrfToken: expect.stringMatching(/\w{16,}/) });
		expect(await (await requests[1].response())?.json()).toMatchObject({ user: { email: 'demo@kitgate.dev' } });
		await expect(page.getByTestId('session-email')).toHaveText('demo@kitgate.dev');
		expect(await stillThisPage(page)).toBe(true);
	});

	test('a sign-out in another tab shows when this one gets focus again, with one request', async ({ page, context }) => {
		await signInOnTheSignInPage(page);
		await openSessionPage(page);
		const requests = sessionRequests(page);

		const other = await context.newPage();
		await other.goto(`${ORIGIN}/`);
		await other.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).click();
		await expect(other.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
		// this tab does not know yet
		await expect(page.getByTestId('session-status')).toHaveText('authenticated');

		// back to this tab: the window gets focus and the document becomes visible (headless Chromium
		// fires neither on bringToFront, so the page is told as a browser tells it)
		await page.bringToFront();
		await page.evaluate(() => {
			window.dispatchEvent(new FocusEvent('focus'));
			document.dispatchEvent(new Event('visibilitychange'));
		});
		await expect(page.getByTestId('session-status')).toHaveText('unauthenticated');
		await expect(page.getByTestId('signed-in-as')).toHaveCount(0);
		await expect(userButton(page)).toHaveCount(0);
		// focus and visibilitychange together: one request
		expect(requests.map((request) => request.method())).toEqual(['GET']);
		expect(await stillThisPage(page)).toBe(true);
	});

	test('a refresh answered after a sign-out on the page does not show the user signed in again', async ({ page }) => {
		await signInOnTheSignInPage(page);
		await openSessionPage(page);
		// the refresh's answer (the session its cookie still had) is held until after the sign-out
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		let answered!: () => void;
		const refreshAnswered = new Promise<void>((resolve) => (answered = resolve));
		let held: { user?: { email?: string } } | null = null;
		await page.route(`${ORIGIN}/auth/session`, async (route) => {
			if (route.request().method() !== 'GET') return route.continue();
			const response = await route.fetch();
			held = await response.json();
			await released;
			await route.fulfill({ response, json: held });
			answered();
		});
		await page.getByRole('button', { name: 'Refresh the session' }).click();
		await page.getByRole('button', { name: 'Sign out here' }).click();
		await expect(page.getByTestId('session-status')).toHaveText('unauthenticated');
		release();
		await refreshAnswered;
		// the late answer was a signed-in session
		expect(held).toMatchObject({ user: { email: 'demo@kitgate.dev' } });
		await page.waitForTimeout(200);
		await expect(page.getByTestId('session-status')).toHaveText('unauthenticated');
		await expect(userButton(page)).toHaveCount(0);
	});

	test('focus events fired in a loop (a page framing this one can focus it) ask the server at most once per interval', async ({ page }) => {
		await signInOnTheSignInPage(page);
		await openSessionPage(page);
		const requests = sessionRequests(page);
		// sixty focus and visibility events over about a second and a half, each after the last answer came
		await page.evaluate(async () => {
			for (let i = 0; i < 60; i++) {
				window.dispatchEvent(new FocusEvent('focus'));
				document.dispatchEvent(new Event('visibilitychange'));
				await new Promise((resolve) => setTimeout(resolve, 25));
			}
		});
		await page.waitForLoadState('networkidle');
		expect(requests.map((request) => request.method())).toEqual(['GET']);
		await expect(page.getByTestId('session-status')).toHaveText('authenticated');
	});

	test("two users' pages rendered at the same time each show their own session (nothing shared between requests)", async ({ browser }) => {
		const signedIn = await browser.newContext();
		const anonymous = await browser.newContext();
		await signInOnTheSignInPage(await signedIn.newPage());
		// the server's HTML itself (no JavaScript runs): ten requests of each, all at once
		const pages = await Promise.all(
			Array.from({ length: 20 }, async (_, i) => {
				const who = i % 2 === 0 ? signedIn : anonymous;
				const response = await who.request.get(`${ORIGIN}/session-state`);
				return { signedIn: who === signedIn, html: await response.text() };
			})
		);
		for (const { signedIn: isSignedIn, html } of pages) {
			expect(html.includes('<p data-testid="session-status">authenticated</p>'), html.slice(0, 200)).toBe(isSignedIn);
			expect(html.includes(`Signed in as ${DEMO.name}`)).toBe(isSignedIn);
			expect(html.includes('demo@kitgate.dev')).toBe(isSignedIn);
		}
		await signedIn.close();
		await anonymous.close();
	});
});

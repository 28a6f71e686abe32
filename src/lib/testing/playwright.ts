// Playwright fixtures for apps that use kitgate (`kitgate/testing/playwright`): `test` with a
// `signIn` fixture that signs in through the app's real pages. Needs `@playwright/test` (an optional peer).

import { test as base, type Page } from '@playwright/test';
import type { MailboxReader } from './mailbox.js';
import type { TestSession } from './test-session.js';

export { expect } from '@playwright/test';
export { createTestSession, type TestCookie, type TestSession, type TestSessionConfig, type TestSessionOptions } from './test-session.js';
export {
	connectTestMailbox,
	startTestMailbox,
	type MailboxReader,
	type TestMail,
	type TestMailbox,
	type TestMailboxOptions,
	type WaitForLinkOptions,
	type WaitForMailOptions
} from './mailbox.js';
export type { ParsedMail } from './mail-parser.js';
export { startTestIdp, type TestIdp, type TestIdpAccount, type TestIdpClient, type TestIdpOptions } from './idp.js';

/**
 * What every sign-in of {@link SignInFixture} takes.
 *
 * @example
 * const options: SignInOptions = { callbackUrl: '/dashboard' };
 */
export interface SignInOptions {
	/** Where the app sends the browser after signing in (default: where the sign-in page sends it). */
	callbackUrl?: string;
	/** The provider's id, when it is not the default of the method (`credentials`, `email`, `oidc`). */
	provider?: string;
	/** Another page than the test's own (a second browser context, say). */
	page?: Page;
	/** Milliseconds to wait for the session (default 15 000). */
	timeout?: number;
}

/**
 * The session the app reports after a sign-in (`GET {basePath}/session`).
 *
 * @example
 * const { user } = await signIn.credentials({ username: 'ada', password: 'secret' });
 */
export interface SignedIn {
	/** The signed-in user as the app's `session` callback shows it. */
	user: { id?: string; name?: string | null; email?: string | null; image?: string | null };
	/** When the session ends (ISO 8601). */
	expires: string;
	/** Fields the app's `session` callback adds. */
	[field: string]: unknown;
}

/**
 * The `signIn` fixture: each method opens the app's sign-in page, goes through the provider's
 * real flow and resolves with the session once the app reports one (it rejects, saying where the
 * browser is, when none starts).
 *
 * @example
 * test('the dashboard greets Ada', async ({ page, signIn }) => {
 * 	await signIn.credentials({ username: 'ada', password: 'correct horse battery staple' }, { callbackUrl: '/dashboard' });
 * 	await expect(page.getByText('ada@example.com')).toBeVisible();
 * });
 */
export interface SignInFixture {
	/** Fills the credentials form's fields (by their names, e.g. `{ username, password }`) and submits it. */
	credentials(fields: Record<string, string>, options?: SignInOptions): Promise<SignedIn>;
	/**
	 * Asks for a sign-in link for `address`, opens the newest mail's link from `mailbox` (a test
	 * mailbox, or `connectTestMailbox(url)` of one another process started) and confirms it.
	 */
	email(address: string, options: SignInOptions & { mailbox: MailboxReader }): Promise<SignedIn>;
	/**
	 * Signs in at an OpenID provider started by `startTestIdp` (its development login form, then its
	 * consent page) as the user `login`. For another provider, `atProvider` does the provider's part.
	 */
	oidc(options: SignInOptions & { login?: string; atProvider?: (page: Page) => Promise<void> }): Promise<SignedIn>;
	/** Puts a session from `createTestSession` into the page's browser context: signed in without any page. */
	withSession(session: TestSession, options?: Pick<SignInOptions, 'page'>): Promise<void>;
}

/**
 * Options of the fixtures, set with `test.use({ kitgate: { … } })` or in the config's `use`.
 *
 * @example
 * test.use({ kitgate: { basePath: '/auth', signInPage: '/signin' } });
 */
export interface KitgateTestOptions {
	/** kitgate's routes (the config's `basePath`, default `/auth`). */
	basePath?: string;
	/** The sign-in page to open (default `{basePath}/signin`, which sends to a custom page when the app has one). */
	signInPage?: string;
}

/**
 * Playwright's `test` with the `signIn` fixture and the `kitgate` option. The app's origin is
 * the project's `baseURL`.
 *
 * @example
 * // tests/sign-in.spec.ts
 * import { expect, test } from 'kitgate/testing/playwright';
 *
 * test('a password signs in', async ({ page, signIn }) => {
 * 	const session = await signIn.credentials({ username: 'ada', password: 'correct horse battery staple' });
 * 	expect(session.user.email).toBe('ada@example.com');
 * });
 */
export const test = base.extend<{ signIn: SignInFixture; kitgate: KitgateTestOptions }>({
	kitgate: [{ basePath: '/auth' }, { option: true }],
	signIn: async ({ page, baseURL, kitgate }, use) => {
		await use(signInFixture(page, baseURL, kitgate));
	}
});

/** The fixture for one test's page. */
function signInFixture(testPage: Page, baseURL: string | undefined, options: KitgateTestOptions): SignInFixture {
	if (!baseURL) throw new Error('kitgate/testing/playwright needs `use: { baseURL }` in the Playwright config: the app\'s origin.');
	const origin = new URL(baseURL).origin;
	const basePath = (options.basePath ?? '/auth').replace(/\/+$/, '');
	const flow = (settings: SignInOptions = {}) => ({
		page: settings.page ?? testPage,
		timeout: settings.timeout ?? 15_000,
		open: async (page: Page) => {
			const path = options.signInPage ?? `${basePath}/signin`;
			const query = settings.callbackUrl ? `?callbackUrl=${encodeURIComponent(settings.callbackUrl)}` : '';
			await page.goto(new URL(`${path}${query}`, origin).href);
		}
	});
	const finished = (page: Page, timeout: number, provider: string) => signedInSession(page, { origin, basePath, timeout, provider });

	return {
		async credentials(fields, settings = {}) {
			const { page, timeout, open } = flow(settings);
			const provider = settings.provider ?? 'credentials';
			await open(page);
			const form = providerForm(page, provider);
			for (const [name, value] of Object.entries(fields)) await form.locator(`[name="${cssString(name)}"]`).fill(value);
			await submitButton(form).click();
			return finished(page, timeout, provider);
		},
		async email(address, settings) {
			const { page, timeout, open } = flow(settings);
			const provider = settings.provider ?? 'email';
			// the mailbox's clock is this machine's: a mail from an earlier sign-in is older
			const since = new Date(Date.now() - 1);
			await open(page);
			const form = providerForm(page, provider);
			await form.locator('[name="email"]').fill(address);
			await submitButton(form).click();
			await page.goto(await settings.mailbox.waitForLink(address, { since, timeout }));
			// the link opens a page that asks to confirm (a mail scanner's fetch spends nothing)
			await submitButton(page.locator('form:has(input[name="token"])')).click();
			return finished(page, timeout, provider);
		},
		async oidc(settings) {
			const { page, timeout, open } = flow(settings);
			const provider = settings.provider ?? 'oidc';
			await open(page);
			const before = page.url();
			await submitButton(providerForm(page, provider)).click();
			await page.waitForURL((url) => url.href !== before, { timeout });
			if (settings.atProvider) await settings.atProvider(page);
			else await atTestIdp(page, origin, settings.login, timeout);
			return finished(page, timeout, provider);
		},
		async withSession(session, settings = {}) {
			await (settings.page ?? testPage).context().addCookies(session.cookies);
		}
	};
}

/** The sign-in form of provider `id`: on kitgate's built-in page (its action) or its components (`providerId`). */
function providerForm(page: Page, id: string) {
	const value = cssString(id);
	return page.locator(`form[action$="/${value}"], form:has(input[name="providerId"][value="${value}"])`).first();
}

function submitButton(form: ReturnType<Page['locator']>) {
	return form.locator('button[type="submit"], button:not([type]), input[type="submit"]').first();
}

/** `value` escaped for a double-quoted CSS attribute value. */
function cssString(value: string): string {
	return value.replace(/["\\]/g, '\\$&');
}

/**
 * The part at `startTestIdp`'s provider: its development login form (any password) and consent
 * page, each only when shown (a second sign-in in one browser skips them).
 */
async function atTestIdp(page: Page, origin: string, login: string | undefined, timeout: number): Promise<void> {
	for (let step = 0; step < 4 && new URL(page.url()).origin !== origin; step++) {
		const current = page.url();
		const loginField = page.locator('input[name="login"]');
		if (await loginField.count()) {
			if (!login) throw new Error('signIn.oidc: the identity provider asks who signs in; pass `login`.');
			await loginField.fill(login);
			await page.locator('input[name="password"]').fill('any-password');
			await page.getByRole('button', { name: /sign-in/i }).click();
		} else {
			await page.getByRole('button', { name: /continue/i }).click({ timeout });
		}
		await page.waitForURL((url) => url.href !== current, { timeout });
	}
}

/** Waits until the app reports a session to the page's browser context, and the page is back in the app. */
async function signedInSession(page: Page, { origin, basePath, timeout, provider }: { origin: string; basePath: string; timeout: number; provider: string }): Promise<SignedIn> {
	const deadline = Date.now() + timeout;
	for (;;) {
		const response = await page.request.get(`${origin}${basePath}/session`, { failOnStatusCode: false });
		const session = response.ok() ? ((await response.json().catch(() => null)) as SignedIn | null) : null;
		if (session?.user) {
			await page.waitForURL((url) => url.origin === origin && !url.pathname.startsWith(`${basePath}/`), { timeout: Math.max(1, deadline - Date.now()) });
			return session;
		}
		if (Date.now() >= deadline) {
			const alert = await page.getByRole('alert').first().textContent({ timeout: 100 }).catch(() => null);
			throw new Error(`Signing in with "${provider}" started no session within ${timeout} ms; the page is at ${page.url()}${alert ? ` and says: ${alert.trim()}` : ''}.`);
		}
		await new Promise((wait) => setTimeout(wait, 100));
	}
}

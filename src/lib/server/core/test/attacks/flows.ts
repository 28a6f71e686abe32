// Whole flows as a browser does them, over HTTP against either integration: email links (with the
// real SMTP sink), credentials, and reading who is signed in. Shared by the attack tests.

import { afterAll, beforeAll, expect } from 'vitest';
import { startDemoIdp } from '../../../../../../scripts/demo-idp.js';
import Credentials from '../../../providers/credentials.js';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import type { Adapter, AuthConfig, OAuthConfig, Session } from '../../types.js';
import { TEST_SECRET } from '../client.js';
import { confirmationForm, startSink, type MailSink } from '../email-fixtures.js';
import { loginAtIdp } from '../idp-browser.js';
import { quietLogger } from '../oauth-fixtures.js';
import { startApps, type AppServer, type Browser } from '../integrations.js';

/** The session strategies every storage-dependent attack runs under. */
export const STRATEGIES = ['jwt', 'database'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** A session as the app sees it, with the user id our test config adds. */
export type SessionWithId = Session & { user?: Session['user'] & { id?: string } };

/**
 * A config for attack tests: the test secret, trusted host, a rate-limit store of its own, a quiet
 * logger, and a `session` callback that shows the user id (so tests can tell users apart).
 */
export function attackConfig(adapter: Adapter | undefined, strategy: Strategy, overrides: Partial<AuthConfig> = {}): AuthConfig {
	return {
		providers: [],
		secret: TEST_SECRET,
		trustHost: true,
		adapter,
		session: { strategy },
		rateLimit: { store: MemoryRateLimitStore() },
		logger: quietLogger().logger,
		callbacks: {
			session: ({ session, token, user }) => ({
				...session,
				user: { ...session.user, id: strategy === 'jwt' ? (token?.sub as string | undefined) : user?.id }
			})
		},
		...overrides
	};
}

/**
 * A Credentials provider (no failure floor) whose password is "right": for any username, or, with
 * `known`, for that username only. The user's id is `u-<username>`, its address `<username>@example.com`.
 *
 * @example
 * attackConfig(MemoryAdapter(), 'jwt', { providers: [rightPasswordCredentials('known-user-4711')] });
 */
export function rightPasswordCredentials(known?: string) {
	return Credentials({
		minFailureMs: 0,
		credentials: { username: {}, password: { type: 'password' } },
		authorize: ({ username, password }) =>
			password === 'right' && (known === undefined || username === known) ? { id: `u-${String(username)}`, name: String(username), email: `${String(username)}@example.com` } : null
	});
}

/** A unique address for one test: `name+<random>@domain`. */
export function address(name: string, domain = 'example.com'): string {
	return `${name}-${crypto.randomUUID().slice(0, 8)}@${domain}`;
}

/** Asks for a sign-in link for `email` (engine route, CSRF token from the browser's own cookie). */
export async function requestLink(browser: Browser, app: AppServer, email: string, providerId = 'email'): Promise<Response> {
	const csrfToken = await browser.csrfToken(app.origin);
	return browser.request(`${app.origin}/auth/signin/${providerId}`, { form: { csrfToken, email, callbackUrl: '/' } });
}

/** The sign-in link of the newest mail to `email`. */
export function linkFor(sink: MailSink, email: string): URL {
	const mail = sink.messages().find((message) => message.envelope.to.includes(email));
	expect(mail, `a mail to ${email}`).toBeDefined();
	const links = (mail?.links ?? []).filter((link) => link.includes('/auth/callback/'));
	expect(links.length, `a sign-in link in the mail to ${email}`).toBeGreaterThan(0);
	return new URL(links[0]);
}

/** Opens a link (GET: the confirmation page) and presses its button (the POST that spends the token). */
export async function confirmLink(browser: Browser, link: URL | string): Promise<Response> {
	const page = await browser.request(link);
	expect(page.status).toBe(200);
	const { action, fields } = confirmationForm(await page.text());
	return browser.request(action, { form: fields });
}

/** A whole email sign-in of `email` in `browser`: request, read the mail, open and confirm. */
export async function signInByEmail(browser: Browser, app: AppServer, sink: MailSink, email: string): Promise<Response> {
	const requested = await requestLink(browser, app, email);
	expect(requested.status).toBe(302);
	return confirmLink(browser, linkFor(sink, email));
}

/** The session the app's own page sees in `browser`, with the user id. */
export async function sessionOf(browser: Browser, app: AppServer): Promise<SessionWithId | null> {
	return (await browser.session(app.origin)) as SessionWithId | null;
}

/** A user of the test IdP: what it logs in as and the claims it reports. */
export interface IdpAccount {
	id: string;
	email: string;
	name: string;
	email_verified?: boolean | string;
	[claim: string]: unknown;
}

/** The test IdP with one client that accepts callbacks of `providerIds` on every app origin; accounts can be added while it runs. */
export async function startIdpFor(origins: string[], providerIds: string[]) {
	const accounts: IdpAccount[] = [];
	const client = {
		client_id: 'attack-client',
		client_secret: 'attack-client-secret-attack-client-secret',
		redirect_uris: origins.flatMap((origin) => providerIds.map((id) => `${origin}/auth/callback/${id}`))
	};
	const idp = await startDemoIdp({ clients: [client], accounts: accounts as never });
	return {
		...idp,
		/** Registers an IdP user; log in as `account.id`. */
		addAccount(account: IdpAccount): IdpAccount {
			accounts.push(account);
			return account;
		},
		/** An OIDC provider on this IdP with id `id` and `overrides`. */
		provider(id: string, overrides: Partial<OAuthConfig> = {}): OAuthConfig {
			return { id, name: id, type: 'oidc', issuer: idp.issuer, clientId: client.client_id, clientSecret: client.client_secret, ...overrides };
		}
	};
}

/**
 * The world of the attack tests over HTTP, started before the calling file's tests and closed after
 * them: the apps of both integrations; with `sink`, the SMTP mail sink; with `idp`, the demo OpenID
 * provider with a client whose redirect URIs are those providers' callbacks on both apps. Read the
 * parts inside tests and hooks (they are there once the file's first `beforeAll` has run).
 *
 * @example
 * const world = attackWorld({ sink: true, idp: ['idp'] });
 * test('…', async () => {
 * 	const app = world.apps.express;
 * 	app.use(attackConfig(adapter, 'jwt', { providers: [sinkProvider(world.sink), world.idp.provider('idp')] }));
 * });
 */
export function attackWorld(options: { sink?: boolean; idp?: string[] } = {}) {
	const world = {} as { apps: Awaited<ReturnType<typeof startApps>>; sink: MailSink; idp: Awaited<ReturnType<typeof startIdpFor>> };
	beforeAll(async () => {
		const [apps, sink] = await Promise.all([startApps(), options.sink ? startSink() : undefined]);
		world.apps = apps;
		if (sink) world.sink = sink;
		if (options.idp) world.idp = await startIdpFor([apps.express.origin, apps.sveltekit.origin], options.idp);
	});
	afterAll(async () => {
		await Promise.all([world.apps?.closeAll(), world.sink?.close(), world.idp?.close()]);
	});
	return world;
}

/** Starts an OAuth sign-in in `browser` (CSRF token from its own cookie); returns the redirect to the IdP. */
export async function startOAuth(browser: Browser, app: AppServer, providerId: string): Promise<URL> {
	const csrfToken = await browser.csrfToken(app.origin);
	const started = await browser.request(`${app.origin}/auth/signin/${providerId}`, { form: { csrfToken, callbackUrl: '/' } });
	expect(started.status).toBe(302);
	return new URL(started.headers.get('location') as string);
}

/** A whole OAuth sign-in in `browser` as IdP user `login`; returns the callback's answer. */
export async function signInWithIdp(browser: Browser, app: AppServer, providerId: string, login: string): Promise<Response> {
	const back = await loginAtIdp((await startOAuth(browser, app, providerId)).href, { login });
	return browser.request(back);
}

/**
 * The explicit link of another provider in `browser` (signed in): `POST /auth/account/link` with
 * its CSRF token, IdP login as `login`, callback. Returns the callback's answer.
 */
export async function linkWithIdp(browser: Browser, app: AppServer, providerId: string, login: string): Promise<Response> {
	const csrfToken = await browser.csrfToken(app.origin);
	const started = await browser.request(`${app.origin}/auth/account/link`, { form: { csrfToken, provider: providerId, callbackUrl: '/' } });
	expect(started.status).toBe(302);
	return browser.request(await loginAtIdp(started.headers.get('location') as string, { login }));
}

/** The `error` a redirect to kitgate's sign-in or error page carries (undefined for any other answer). */
export function errorOf(response: Response): string | undefined {
	const location = response.headers.get('location');
	if (!location) return undefined;
	return new URL(location, 'http://x').searchParams.get('error') ?? undefined;
}

// Shared set-up of the account route tests: a config with an email provider (links and account
// mails captured, no SMTP), a passkey provider and an OIDC provider that is never contacted, on a
// real adapter; an injectable clock; recorded events; and helpers that sign in by email link, add
// passkeys and call the account routes through `Auth()`.

import { expect } from 'vitest';
import Credentials from '../../providers/credentials.js';
import Passkey from '../../providers/passkey.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import type { AccountEmailParams, AccountOverview } from '../../../index.js';
import type { Adapter, AuthConfig, EmailConfig, EventCallbacks, OAuthConfig } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { confirmationForm } from './email-fixtures.js';
import { softwareAuthenticator } from './software-authenticator.js';

export const ORIGIN = 'http://localhost:3000';
export const START = Date.UTC(2026, 5, 1, 12);
export const UA_FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
export const UA_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
/** The session cookie's name over plain HTTP. */
export const SESSION_COOKIE = 'kitgate.session-token';

export type EventName = keyof EventCallbacks;

/** An OIDC provider the tests never start a flow with (its accounts are linked through the adapter). */
export const IDP: OAuthConfig = { id: 'idp', name: 'Test IdP', type: 'oidc', issuer: 'https://idp.invalid', clientId: 'c', clientSecret: 's' };

/**
 * One account test world on `adapter` with `strategy` sessions.
 *
 * @example
 * const world = accountWorld(MemoryAdapter(), 'database');
 * const ada = world.browser(UA_FIREFOX);
 * await ada.signInByEmail('ada@example.com');
 */
export function accountWorld(adapter: Adapter, strategy: 'jwt' | 'database', overrides: Partial<AuthConfig> = {}) {
	const clock = { now: START };
	const links: { to: string; url: string }[] = [];
	const mails: AccountEmailParams[] = [];
	const events: [EventName, Record<string, unknown>][] = [];
	const errors: Error[] = [];
	const record = (name: EventName) => (message: unknown) => void events.push([name, message as Record<string, unknown>]);
	const email: EmailConfig = {
		id: 'email',
		name: 'Email',
		type: 'email',
		sendVerificationRequest: ({ identifier, url }) => void links.push({ to: identifier, url }),
		sendAccountEmail: (params) => void mails.push(params)
	};
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		adapter,
		session: { strategy },
		now: () => clock.now,
		experimental: { enableWebAuthn: true },
		rateLimit: { store: MemoryRateLimitStore() },
		providers: [email, Passkey(), IDP],
		logger: { warn: () => undefined, error: (error) => void errors.push(error), debug: () => undefined },
		events: {
			signIn: record('signIn'),
			signOut: record('signOut'),
			createUser: record('createUser'),
			updateUser: record('updateUser'),
			linkAccount: record('linkAccount'),
			unlinkAccount: record('unlinkAccount'),
			updateAuthenticator: record('updateAuthenticator'),
			deleteUser: record('deleteUser')
		},
		...overrides
	};
	const store = adapter as Required<Adapter>;

	function browser(userAgent = UA_FIREFOX) {
		const client = testClient(config, ORIGIN);
		const device = softwareAuthenticator(ORIGIN);
		const request = (path: string, init: Parameters<typeof client.request>[1] = {}) =>
			client.request(path, { ...init, headers: { 'user-agent': userAgent, ...init.headers } });

		async function signInByEmail(address: string): Promise<void> {
			const csrfToken = await client.csrfToken();
			const started = await request('/auth/signin/email', { form: { csrfToken, email: address, callbackUrl: '/' } });
			expect(started.status).toBe(302);
			const link = links.filter((l) => l.to === address).at(-1);
			expect(link, `a link to ${address}`).toBeDefined();
			const page = await request(link!.url);
			const { action, fields } = confirmationForm(await page.text());
			const done = await request(action, { form: fields });
			expect(done.status, 'the email sign-in').toBe(302);
			expect(new URL(done.headers.get('location')!).searchParams.get('error')).toBeNull();
		}

		/** Registers a passkey for the signed-in user (or signs up a new user with one). */
		async function addPasskey(signUpEmail?: string): Promise<string> {
			const query = signUpEmail ? `?action=register&email=${encodeURIComponent(signUpEmail)}` : '?action=register';
			const options = (await (await request(`/auth/webauthn-options/passkey${query}`)).json()) as { options: never };
			const response = device.register((options as { options: Parameters<typeof device.register>[0] }).options);
			const csrfToken = await client.csrfToken();
			const done = await request('/auth/callback/passkey', { json: { csrfToken, action: 'register', data: response } });
			expect(done.status, 'the passkey registration').toBe(200);
			return response.id;
		}

		/** Signs in with this browser's passkey. */
		async function signInWithPasskey(): Promise<void> {
			const options = (await (await request('/auth/webauthn-options/passkey?action=authenticate')).json()) as { options: never };
			const response = device.authenticate((options as { options: Parameters<typeof device.authenticate>[0] }).options);
			const csrfToken = await client.csrfToken();
			const done = await request('/auth/callback/passkey', { json: { csrfToken, action: 'authenticate', data: response } });
			expect(done.status, 'the passkey sign-in').toBe(200);
		}

		async function overview(): Promise<AccountOverview> {
			const response = await request('/auth/account');
			expect(response.status, 'GET /auth/account').toBe(200);
			return (await response.json()) as AccountOverview;
		}

		/** Posts a change as a form from the app's page `/settings`, with this browser's CSRF token unless `csrfToken` is given. */
		async function change(operation: string, fields: Record<string, string> = {}): Promise<Response> {
			const csrfToken = fields.csrfToken ?? (await client.csrfToken());
			return request(`/auth/account/${operation}`, { form: { callbackUrl: '/settings', ...fields, csrfToken } });
		}

		/** Posts a change as JSON (a script caller). */
		async function changeJson(operation: string, fields: Record<string, unknown> = {}): Promise<Response> {
			const csrfToken = await client.csrfToken();
			return request(`/auth/account/${operation}`, { json: { csrfToken, ...fields } });
		}

		async function session() {
			return (await (await request('/auth/session')).json()) as { user?: { email?: string | null; name?: string | null } } | null;
		}

		/** Posts the sign-out form with this browser's CSRF token; answers the redirect. */
		async function signOut(): Promise<Response> {
			return request('/auth/signout', { form: { csrfToken: await client.csrfToken() } });
		}

		/** The listed id of a session of this user other than this browser's (the first one listed). */
		async function otherSessionId(): Promise<string> {
			return (await overview()).sessions.find((s) => !s.current)!.id;
		}

		return { client, device, request, signInByEmail, addPasskey, signInWithPasskey, overview, change, changeJson, session, signOut, otherSessionId };
	}

	/** A browser holding only this session cookie (a thief replaying a copy it took). */
	function browserWithCookie(value: string, userAgent?: string) {
		const b = browser(userAgent);
		b.client.jar.set(SESSION_COOKIE, value);
		return b;
	}

	/** The stored user with this address. */
	async function userOf(address: string) {
		return (await store.getUserByEmail(address))!;
	}

	/** The stored session rows of the user with this address (JWT sessions' `jwt:` rows included). */
	async function sessionRowsOf(address: string) {
		return store.listSessionsByUserId((await userOf(address)).id);
	}

	return {
		config,
		adapter: store,
		clock,
		links,
		mails,
		events,
		errors,
		browser,
		browserWithCookie,
		userOf,
		sessionRowsOf,
		...signInShortcuts(browser),
		eventNames: () => events.map(([name]) => name)
	};
}

/**
 * The sign-ins most tests start with, for a world whose browsers are made by `browser`: one
 * browser signed in by an email link, or the same user on a laptop (Firefox) and then a phone
 * (Safari) — hers, or a thief's.
 *
 * @example
 * const { laptop, phone } = await world.laptopAndPhone();
 * const eve = await world.signedIn('eve@example.com', UA_SAFARI);
 */
export function signInShortcuts<B extends { signInByEmail(address: string): Promise<void> }>(browser: (userAgent?: string) => B) {
	async function signedIn(address = 'ada@example.com', userAgent = UA_FIREFOX): Promise<B> {
		const b = browser(userAgent);
		await b.signInByEmail(address);
		return b;
	}
	async function laptopAndPhone(address = 'ada@example.com'): Promise<{ laptop: B; phone: B }> {
		const laptop = await signedIn(address, UA_FIREFOX);
		const phone = await signedIn(address, UA_SAFARI);
		return { laptop, phone };
	}
	return { signedIn, laptopAndPhone };
}

/** A Credentials provider whose authorize() says member `member-<local part>` for password "pw" (the app's own member ids, not the adapter's). */
export function memberCredentials() {
	return Credentials({
		minFailureMs: 0,
		credentials: { email: {}, password: { type: 'password' } },
		authorize: async (fields) => (fields.password === 'pw' ? { id: `member-${String(fields.email).split('@')[0]}`, email: String(fields.email) } : null)
	});
}

/** Signs `browser` in through memberCredentials() with password "pw"; answers the redirect. */
export async function signInAsMember(browser: { client: { csrfToken(): Promise<string> }; request(path: string, init: { form: Record<string, string> }): Promise<Response> }, email: string): Promise<Response> {
	const csrfToken = await browser.client.csrfToken();
	return browser.request('/auth/callback/credentials', { form: { csrfToken, email, password: 'pw', callbackUrl: '/' } });
}

/** Where a form's answer sends the browser: the `account` and `accountError` of the redirect, and its path. */
export function outcomeOf(response: Response): { path: string; account: string | null; accountError: string | null; error: string | null; callbackUrl: string | null } {
	const location = response.headers.get('location');
	expect(location, `a redirect (status ${response.status})`).toBeTruthy();
	const url = new URL(location!);
	return {
		path: url.pathname,
		account: url.searchParams.get('account'),
		accountError: url.searchParams.get('accountError'),
		error: url.searchParams.get('error'),
		callbackUrl: url.searchParams.get('callbackUrl')
	};
}

/**
 * Eve, any user, writes deliberate revocations in a loop: her own sessions, signed in with her
 * passkey in other browsers and ended from her first, `count` times or until the store refuses
 * (503). Answers how many were ended; any other answer fails the test.
 *
 * @example
 * expect(await endOwnSessionsInALoop(world, 8)).toBe(8);
 */
export async function endOwnSessionsInALoop(w: ReturnType<typeof accountWorld>, count: number): Promise<number> {
	const eve = w.browser();
	await eve.addPasskey('eve@example.com');
	for (let i = 0; i < count; i++) {
		w.clock.now += 1000;
		const other = w.browser(UA_SAFARI);
		const options = (await (await other.request('/auth/webauthn-options/passkey?action=authenticate')).json()) as { options: Parameters<typeof eve.device.authenticate>[0] };
		const data = eve.device.authenticate(options.options);
		expect((await other.request('/auth/callback/passkey', { json: { csrfToken: await other.client.csrfToken(), action: 'authenticate', data } })).status).toBe(200);
		const id = (await eve.overview()).sessions.find((s) => !s.current)!.id;
		const ended = await eve.changeJson('end-session', { sessionId: id });
		if (ended.status === 503) return i;
		expect(ended.status).toBe(200);
	}
	return count;
}

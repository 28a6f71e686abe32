// The browser helpers against the real engine: `fetch` is a small cookie-keeping browser stand-in
// that hands each request to `Auth()`, and `location` records where the helper navigates.

import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import Email from '../server/providers/email.js';
import { signIn, signOut } from './index.js';
import { adaApp } from './test/ada-app.js';
import { engineBrowser, ORIGIN, PAGE } from './test/engine-browser.js';

const config = adaApp({
	providers: [
		Email({ sendVerificationRequest: async () => {} }),
		{
			id: 'acme',
			name: 'Acme',
			type: 'oauth',
			clientId: 'kitgate-client',
			clientSecret: 'secret',
			authorization: 'https://idp.example.com/authorize',
			token: 'https://idp.example.com/token',
			userinfo: 'https://idp.example.com/userinfo'
		}
	]
});

let jar: Map<string, string>;
let navigations: string[];

beforeEach(() => {
	({ jar, navigations } = engineBrowser(config));
});

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('signIn', () => {
	test('credentials with redirect: false resolve with the callback URL and leave a session cookie', async () => {
		const result = await signIn('credentials', { username: 'ada', password: 'lovelace' }, { redirect: false, redirectTo: '/after' });
		expect(result).toEqual({ ok: true, url: `${ORIGIN}/after`, error: undefined, code: undefined, status: 200 });
		expect(jar.has('kitgate.session-token')).toBe(true);
		expect(navigations).toEqual([]);
	});

	test("Auth.js's form: redirectTo among the fields is the callback URL; the third argument's wins", async () => {
		const posted: string[] = [];
		const result = await signIn('credentials', { username: 'ada', password: 'lovelace', redirectTo: '/from-fields' }, { redirect: false });
		expect(result.url).toBe(`${ORIGIN}/from-fields`);
		await signIn('credentials', { username: 'ada', password: 'lovelace', redirectTo: '/from-fields' }, { redirect: false, redirectTo: '/from-options' }).then((r) => posted.push(r.url));
		// the third argument wins when both say
		expect(posted).toEqual([`${ORIGIN}/from-options`]);
	});

	test('credentials: success navigates; a wrong password stays on the page with the error type and code', async () => {
		const failed = await signIn('credentials', { username: 'ada', password: 'nope' });
		expect(failed).toMatchObject({ ok: false, error: 'CredentialsSignin', code: 'credentials', status: 401 });
		expect(navigations).toEqual([]);
		await signIn('credentials', { username: 'ada', password: 'lovelace' });
		expect(navigations).toEqual([PAGE]);
	});

	test('OAuth: authorizationParams go to the authorization request; its protections cannot be replaced', async () => {
		const result = await signIn('acme', {}, { redirect: false, authorizationParams: { prompt: 'login', client_id: 'evil', state: 'x' } });
		expect(result.ok).toBe(true);
		const url = new URL(result.url);
		expect(url.origin + url.pathname).toBe('https://idp.example.com/authorize');
		expect(url.searchParams.get('prompt')).toBe('login');
		expect(url.searchParams.get('client_id')).toBe('kitgate-client');
		expect(url.searchParams.get('state')).not.toBe('x');
		expect(url.searchParams.get('code_challenge_method')).toBe('S256');
	});

	test('OAuth with the default redirect goes to the provider', async () => {
		await signIn('acme');
		expect(navigations).toHaveLength(1);
		expect(navigations[0]).toMatch(/^https:\/\/idp\.example\.com\/authorize\?/);
	});

	test('email: the outcome is the "check your email" page', async () => {
		const result = await signIn('email', { email: 'ada@example.com' }, { redirect: false });
		expect(result.ok).toBe(true);
		expect(new URL(result.url).pathname).toBe('/auth/verify-request');
	});

	test('an unknown provider is an error outcome; without a provider it goes to the sign-in page', async () => {
		const unknown = await signIn('nope', {}, { redirect: false });
		expect(unknown.ok).toBe(false);
		expect(unknown.error).toBe('InvalidProvider');
		const page = await signIn(undefined, {}, { redirect: false });
		expect(page).toEqual({ ok: true, url: `/auth/signin?callbackUrl=${encodeURIComponent(PAGE)}`, status: 0 });
		await signIn();
		expect(navigations).toEqual([`/auth/signin?callbackUrl=${encodeURIComponent(PAGE)}`]);
	});
});

describe('signOut', () => {
	test('ends the session and resolves with (or goes to) the callback URL', async () => {
		await signIn('credentials', { username: 'ada', password: 'lovelace' }, { redirect: false });
		expect(jar.has('kitgate.session-token')).toBe(true);
		const result = await signOut({ redirect: false, redirectTo: '/bye' });
		expect(result).toMatchObject({ ok: true, url: `${ORIGIN}/bye`, status: 200 });
		expect(jar.has('kitgate.session-token')).toBe(false);
		await signOut({ redirectTo: '/again' });
		expect(navigations).toEqual([`${ORIGIN}/again`]);
	});
});

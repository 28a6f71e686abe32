// Attacks: CSRF on every state-changing POST, login CSRF, and open redirects, on both
// integrations. HOLDS today (regression tests): each request here is what a cross-site page can make
// a victim's browser send (the victim's cookies, no CSRF token the attacker could know, a foreign
// Origin), or a callback URL meant to leave the site.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Credentials from '../../../providers/credentials.js';
import Email from '../../../providers/email.js';
import Passkey from '../../../providers/passkey.js';
import type { AuthConfig } from '../../types.js';
import { TEST_SECRET } from '../client.js';
import { Browser, INTEGRATIONS } from '../integrations.js';
import { attackWorld } from './flows.js';

const world = attackWorld();

const EVIL = 'https://evil.example';
const links: string[] = [];

function config(strategy: 'jwt' | 'database'): AuthConfig {
	return {
		secret: TEST_SECRET,
		trustHost: true,
		adapter: MemoryAdapter(),
		session: { strategy },
		rateLimit: false,
		experimental: { enableWebAuthn: true },
		logger: { error: () => {}, warn: () => {}, debug: () => {} },
		callbacks: { jwt: ({ token, trigger, session }) => (trigger === 'update' ? { ...token, name: String((session as { name?: string })?.name) } : token) },
		providers: [
			Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: `u-${String(username)}`, name: String(username), email: `${String(username)}@example.com` }) }),
			Email({ sendVerificationRequest: ({ url }) => void links.push(url) }),
			Passkey()
		]
	};
}

async function signedIn(origin: string): Promise<Browser> {
	const browser = new Browser();
	const csrfToken = await browser.csrfToken(origin);
	await browser.request(`${origin}/auth/callback/credentials`, { form: { csrfToken, username: 'ada' } });
	expect((await browser.session(origin))?.user?.name).toBe('ada');
	return browser;
}

/** A CSRF token that is valid, but for the attacker's own browser. */
async function attackersToken(origin: string): Promise<string> {
	return new Browser().csrfToken(origin);
}

describe.each(INTEGRATIONS)('%s: CSRF', (integration) => {
	describe.each(['jwt', 'database'] as const)('%s sessions', (strategy) => {
		test('session update, sign-out and passkey removal need the victim\'s own token', async () => {
			const app = world.apps[integration];
			app.use(config(strategy));
			const victim = await signedIn(app.origin);
			for (const csrfToken of [undefined, await attackersToken(app.origin)]) {
				const token: Record<string, string> = csrfToken ? { csrfToken } : {};
				const update = await victim.request(`${app.origin}/auth/session`, { json: { ...token, data: { name: 'pwned' } } });
				expect(update.status).toBe(403);
				const asForm = await victim.request(`${app.origin}/auth/session`, { form: { ...token, data: 'x' }, origin: EVIL });
				expect(asForm.status).toBeGreaterThanOrEqual(400);
				const signOut = await victim.request(`${app.origin}/auth/signout`, { form: { ...token, callbackUrl: '/' } });
				expect(signOut.status).toBe(302);
				expect(new URL(signOut.headers.get('location')!).searchParams.get('error')).toBe('MissingCSRF');
				const passkey = await victim.request(`${app.origin}/auth/webauthn-authenticators/passkey`, { json: { ...token, credentialID: 'x' } });
				expect(passkey.status).toBe(403);
				expect((await victim.session(app.origin))?.user?.name).toBe('ada');
			}
		});

		test('login CSRF: credentials, email-link requests, email-link confirmations and passkey callbacks without the browser\'s token do nothing', async () => {
			const app = world.apps[integration];
			app.use(config(strategy));
			const victim = new Browser();
			await victim.csrfToken(app.origin); // the victim has a CSRF cookie of their own
			const token = await attackersToken(app.origin);
			const credentials = await victim.request(`${app.origin}/auth/callback/credentials`, { form: { csrfToken: token, username: 'mallory' }, origin: EVIL });
			// SvelteKit's own origin check answers 403 first; Express gets kitgate's MissingCSRF redirect
			const refused = (response: Response) => response.status === 403 || (response.headers.get('location') ?? '').includes('error=');
			expect(refused(credentials)).toBe(true);
			links.length = 0;
			await victim.request(`${app.origin}/auth/signin/email`, { form: { csrfToken: token, email: 'mallory@example.com' }, origin: EVIL });
			expect(links).toHaveLength(0);
			const confirm = await victim.request(`${app.origin}/auth/callback/email`, { form: { csrfToken: token, token: 'x'.repeat(64), email: 'mallory@example.com' }, origin: EVIL });
			expect(refused(confirm)).toBe(true);
			expect(await victim.session(app.origin)).toBeNull();
		});
	});
});

describe('sveltekit form actions with a foreign Origin', () => {
	test('signIn and signOut actions refuse a cross-site form post', async () => {
		const app = world.apps.sveltekit;
		app.use(config('jwt'));
		const victim = await signedIn(app.origin);
		for (const origin of [EVIL, 'null', `${app.origin}.evil.example`]) {
			const out = await victim.request(`${app.origin}/signout`, { form: { callbackUrl: '/' }, origin, headers: { accept: 'text/html' } });
			expect(out.status).toBe(403);
			const stranger = new Browser();
			const into = await stranger.request(`${app.origin}/signin`, { form: { providerId: 'credentials', username: 'mallory' }, origin, headers: { accept: 'text/html' } });
			expect(into.status).toBe(403);
			expect(await stranger.session(app.origin)).toBeNull();
		}
		// text/plain is a form type too (a cross-site page can send it without a preflight)
		const plain = await fetch(`${app.origin}/signout`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'text/plain', origin: EVIL }, body: 'x' });
		expect(plain.status).toBe(403);
		expect((await victim.session(app.origin))?.user?.name).toBe('ada');
	});
});

const OFF_SITE = [
	'//evil.example/x',
	'/\\evil.example/x',
	'\\\\evil.example/x',
	'/%5Cevil.example',
	'https://evil.example/x',
	'http:/\\evil.example',
	'\t//evil.example',
	'/\t/evil.example',
	'javascript:alert(1)',
	'data:text/html,x',
	'https://127.0.0.1@evil.example/',
	'//evil.example%2F@127.0.0.1/',
	'///evil.example',
	'https:evil.example'
];

describe.each(INTEGRATIONS)('%s: open redirects', (integration) => {
	test.each(OFF_SITE)('callbackUrl %j never leaves the site (sign-in, sign-out, sign-in page)', async (callbackUrl) => {
		const app = world.apps[integration];
		app.use(config('jwt'));
		const host = new URL(app.origin).host;
		const browser = new Browser();
		let csrfToken = await browser.csrfToken(app.origin);
		const signIn = await browser.request(`${app.origin}/auth/callback/credentials`, { form: { csrfToken, username: 'ada', callbackUrl } });
		expect(new URL(signIn.headers.get('location')!, app.origin).host).toBe(host);
		csrfToken = await browser.csrfToken(app.origin);
		const signOut = await browser.request(`${app.origin}/auth/signout?callbackUrl=${encodeURIComponent(callbackUrl)}`, { form: { csrfToken } });
		expect(new URL(signOut.headers.get('location')!, app.origin).host).toBe(host);
		const page = await (await browser.request(`${app.origin}/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`)).text();
		expect(page).not.toMatch(/(\/\/|\\|@)evil\.example|javascript:|data:text/);
		if (integration === 'sveltekit') {
			const action = await browser.request(`${app.origin}/signin`, { form: { providerId: 'credentials', username: 'ada', redirectTo: callbackUrl }, headers: { accept: 'text/html' } });
			expect(action.status).toBe(303);
			expect(new URL(action.headers.get('location')!, app.origin).host).toBe(host);
			const out = await browser.request(`${app.origin}/signout`, { form: { redirectTo: callbackUrl }, headers: { accept: 'text/html' } });
			expect(new URL(out.headers.get('location')!, app.origin).host).toBe(host);
		}
	});
});

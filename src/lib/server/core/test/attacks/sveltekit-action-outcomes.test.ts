// Attacks: what SvelteKit's `signIn` / `signOut` actions answer when the sign-in fails,
// is rate-limited, or cannot run at all (real app over HTTP, same-origin posts).
//
// HOLDS: a refused password is SvelteKit's 401 error with no cookie of any kind and nothing typed
// in it, the same for an unknown user and a wrong password; the browser's existing session is not
// touched; per-address limits count the socket's address (no header moves it) and are shared with
// POST /auth/callback/credentials.
// BROKE (fixed since): with a per-request config that cannot work (a missing secret), every page that uses auth
// and every auth route answers 503, but the two actions throw the configuration error out of the
// action: SvelteKit's bare 500.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import type { AuthConfig, RateLimitOptions } from '../../types.js';
import { Browser, startApp, type AppServer } from '../integrations.js';
import { attackConfig, rightPasswordCredentials } from './flows.js';

let app: AppServer;
beforeAll(async () => {
	app = await startApp('sveltekit');
});
afterAll(() => app?.close());

/** The one user with a password (a name no page contains by chance). */
const KNOWN = 'known-user-4711';

function config(rateLimit: RateLimitOptions = { store: MemoryRateLimitStore() }): AuthConfig {
	return attackConfig(MemoryAdapter(), 'jwt', {
		rateLimit,
		providers: [
			rightPasswordCredentials(KNOWN)
		]
	});
}

const page = { accept: 'text/html' };
const enhance = { accept: 'application/json', 'x-sveltekit-action': 'true' };

async function signedInAs(username: string): Promise<Browser> {
	const browser = new Browser();
	const answer = await browser.request(`${app.origin}/signin`, { form: { providerId: 'credentials', username, password: 'right' }, headers: page });
	expect(answer.status).toBe(303);
	expect((await browser.session(app.origin))?.user?.email).toBe(`${username}@example.com`);
	return browser;
}

describe('a refused password through the signIn action', () => {
	test('is SvelteKit\'s 401: no cookie of any kind, nothing typed in the answer, the same for an unknown user', async () => {
		app.use(config());
		const answers: Record<string, { status: number; body: string; cookies: string[] }> = {};
		for (const [label, username] of [['known', KNOWN], ['unknown', 'unknown-user-0815']]) {
			for (const [kind, headers] of [['page', page], ['enhance', enhance], ['script', { ...page, 'x-auth-return-redirect': '1' }]] as const) {
				const answer = await new Browser().request(`${app.origin}/signin`, {
					form: { providerId: 'credentials', username, password: 'Tr0ub4dor&3-wrong', callbackUrl: '/account' },
					headers
				});
				const body = await answer.text();
				expect(answer.status, `${label} ${kind}`).toBe(401);
				expect(answer.headers.getSetCookie(), `${label} ${kind}`).toEqual([]);
				expect(body).not.toContain('Tr0ub4dor');
				expect(body).not.toContain(username);
				answers[`${label} ${kind}`] = { status: answer.status, body, cookies: answer.headers.getSetCookie() };
			}
		}
		for (const kind of ['page', 'enhance', 'script']) expect(answers[`unknown ${kind}`], kind).toEqual(answers[`known ${kind}`]);
	});

	test('leaves the browser\'s existing session as it was (no sign-out, no other user)', async () => {
		app.use(config());
		const browser = await signedInAs(KNOWN);
		const before = browser.cookie(app.origin, 'kitgate.session-token');
		const answer = await browser.request(`${app.origin}/signin`, { form: { providerId: 'credentials', username: 'mallory', password: 'x' }, headers: page });
		expect(answer.status).toBe(401);
		expect(browser.cookie(app.origin, 'kitgate.session-token')).toBe(before);
		expect((await browser.session(app.origin))?.user?.email).toBe(`${KNOWN}@example.com`);
	});
});

describe('rate limits through the action', () => {
	test('count the socket\'s address: forwarding headers do not move it, and the route shares the counter', async () => {
		app.use(config({ store: MemoryRateLimitStore(), credentials: { perIdentifier: 0, perAddress: 3, windowSeconds: 600 } }));
		const browser = new Browser();
		const csrfToken = await browser.csrfToken(app.origin);
		const outcomes: string[] = [];
		for (let attempt = 0; attempt < 6; attempt++) {
			const spoofed = `198.51.100.${attempt + 1}`;
			const headers = { ...page, 'x-forwarded-for': spoofed, 'x-real-ip': spoofed, forwarded: `for=${spoofed}`, 'cf-connecting-ip': spoofed };
			// a fresh user name each time: only the address can count these
			const form = { providerId: 'credentials', username: `guess-${attempt}`, password: 'x', csrfToken };
			const viaAction = attempt % 2 === 0;
			const answer = await browser.request(viaAction ? `${app.origin}/signin` : `${app.origin}/auth/callback/credentials`, { form, headers });
			const location = answer.headers.get('location');
			outcomes.push(answer.status === 401 ? 'refused' : new URL(location ?? '/', app.origin).searchParams.get('error') ?? String(answer.status));
		}
		// action, route, action: three failures counted; then every path is limited whatever the headers say
		expect(outcomes).toEqual(['refused', 'CredentialsSignin', 'refused', 'RateLimited', 'RateLimited', 'RateLimited']);
	});
});

describe('a per-request config that cannot work (no secret)', () => {
	test('the actions answer 503 as the auth routes and pages do, never a bare 500', async () => {
		app.use({ ...config(), secret: undefined });
		// the routes and a page reading the session: 503 (attacks/broken-config.test.ts)
		expect((await new Browser().request(`${app.origin}/auth/session`)).status).toBe(503);
		for (const path of ['/signin', '/signout']) {
			for (const headers of [page, enhance]) {
				const answer = await new Browser().request(`${app.origin}${path}`, { form: { providerId: 'credentials', username: KNOWN, password: 'right' }, headers });
				expect(answer.status, `${path} (${headers.accept})`).toBe(503);
			}
		}
	});
});

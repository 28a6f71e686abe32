// What a page can put in its session through `updateSession(data)`: only what the app's `jwt`
// callback takes from `data`. Against the real engine: the default callback takes nothing, and even a
// callback that merges all of `data` cannot move the session to another user or id, date it, or
// make it outlive its expiry.

import { afterEach, describe, expect, test, vi } from 'vitest';
import { decodeJwt } from '../server/core/crypto/jwt.js';
import { TEST_SECRET } from '../server/core/test/client.js';
import type { AuthConfig, JWT } from '../server/core/types.js';
import Credentials from '../server/providers/credentials.js';
import { signIn, updateSession } from './index.js';
import { engineBrowser, type EngineBrowser } from './test/engine-browser.js';

const COOKIE = 'kitgate.session-token';
const forged = { sub: 'admin-user', 'kitgate.sid': 'other-session', 'kitgate.user': 'admin-user', iat: 1, exp: 4102444800, auth_time: 4102444800, role: 'admin' };

const configWith = (jwt?: AuthConfig['callbacks']): AuthConfig => ({
	secret: TEST_SECRET,
	trustHost: true,
	session: { strategy: 'jwt', maxAge: 3600 },
	providers: [Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === 'ada' ? { id: 'u1', name: 'Ada', email: 'ada@example.com' } : null) })],
	callbacks: jwt
});

const token = (browser: EngineBrowser) => decodeJwt({ token: browser.jar.get(COOKIE)!, secret: TEST_SECRET, salt: COOKIE }) as Promise<JWT>;

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('updateSession(data) and the claims of the session', () => {
	test('with the default jwt callback, nothing the page sends reaches the token', async () => {
		const browser = engineBrowser(configWith());
		await signIn('credentials', { username: 'ada' }, { redirect: false });
		const before = await token(browser);
		await updateSession(forged);
		const after = await token(browser);
		expect(after.role).toBeUndefined();
		expect([after.sub, after['kitgate.sid'], after.auth_time]).toEqual([before.sub, before['kitgate.sid'], before.auth_time]);
	});

	test("a callback merging all of data: the app's claims change, the session's identity and lifetime do not", async () => {
		const browser = engineBrowser(
			configWith({ jwt: ({ token, trigger, session }) => (trigger === 'update' && session && typeof session === 'object' ? { ...token, ...(session as JWT) } : token) })
		);
		await signIn('credentials', { username: 'ada' }, { redirect: false });
		const before = await token(browser);
		expect(before).toMatchObject({ sub: 'u1', auth_time: expect.any(Number) });
		await updateSession(forged);
		const after = await token(browser);
		// the app chose to trust `role` from the browser: that is its callback's decision (docs: validate data there)
		expect(after.role).toBe('admin');
		expect(after.sub).toBe(before.sub);
		expect(after['kitgate.sid']).toBe(before['kitgate.sid']);
		expect(after['kitgate.user']).toBe(before['kitgate.user']);
		expect(after.auth_time).toBe(before.auth_time);
		expect(after.iat).toBeGreaterThanOrEqual(before.iat as number);
		expect(after.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600 + 1);
	});
});

describe('an update another site posts', () => {
	const renaming = configWith({ jwt: ({ token, trigger, session }) => (trigger === 'update' ? { ...token, name: String((session as { name?: unknown })?.name) } : token) });
	const post = (body: string, contentType: string) => fetch('/auth/session', { method: 'POST', headers: { 'content-type': contentType }, body });

	test.each(['text/plain', 'application/json', 'application/x-www-form-urlencoded'])('without a token (%s): refused, the session unchanged', async (contentType) => {
		const browser = engineBrowser(renaming);
		await signIn('credentials', { username: 'ada' }, { redirect: false });
		const body = contentType.includes('urlencoded') ? 'data=Mallory' : JSON.stringify({ data: { name: 'Mallory' } });
		const response = await post(body, contentType);
		expect(response.status).toBe(403);
		expect((await token(browser)).name).toBe('Ada');
	});

	test("with a token the attacker got for their own cookie: refused", async () => {
		engineBrowser(renaming);
		const { csrfToken } = (await (await fetch('/auth/csrf')).json()) as { csrfToken: string };
		const victim = engineBrowser(renaming);
		await signIn('credentials', { username: 'ada' }, { redirect: false });
		const response = await post(JSON.stringify({ csrfToken, data: { name: 'Mallory' } }), 'text/plain');
		expect(response.status).toBe(403);
		expect((await token(victim)).name).toBe('Ada');
	});
});

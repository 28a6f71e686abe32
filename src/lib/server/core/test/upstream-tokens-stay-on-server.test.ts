// The provider's access, refresh and ID tokens go only where they are needed (ASVS 10.1.1): the
// server keeps them (on the account row with an adapter; sealed in the httpOnly session cookie for a
// JWT session whose provider refreshes them), the access token is sent only to the provider's
// userinfo endpoint, and the browser never gets one it can read: not in a redirect, a page, the
// session answer or a cookie. Against a crafted provider on 127.0.0.1 (hostile-openid-provider.ts).

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { decodeJwt } from '../crypto/jwt.js';
import type { AuthConfig, OAuthConfig } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { hostileProviderWorld, startAt } from './hostile-openid-provider.js';
import { quietLogger, setsSession } from './oauth-fixtures.js';

const ALICE = { sub: 'alice', email: 'alice@example.test', name: 'Alice' };

const world = hostileProviderWorld();

/** Everything the browser received during a sign-in and a session read: headers, bodies, cookies as it holds them. */
async function browserView(config: AuthConfig) {
	const client = testClient(config);
	const seen: string[] = [];
	const keep = async (response: Response) => {
		seen.push(JSON.stringify([...response.headers]), await response.clone().text());
		return response;
	};
	const csrfToken = await client.csrfToken();
	const started = await keep(await client.request('/auth/signin/op', { form: { csrfToken, callbackUrl: '/dashboard' } }));
	const done = await keep(await client.request(world.op.authorize(started.headers.get('location') as string, ALICE)));
	expect(setsSession(done)).toBe(true);
	const session = await keep(await client.request('/auth/session'));
	expect(((await session.json()) as { user?: { name?: string } }).user?.name).toBe('Alice');
	seen.push(...client.jar.values());
	return { client, text: seen.join('\n'), setCookies: [done, session].flatMap((response) => response.headers.getSetCookie()) };
}

function config(provider: OAuthConfig, overrides: Partial<AuthConfig> = {}): AuthConfig {
	return { secret: TEST_SECRET, trustHost: true, logger: quietLogger().logger, providers: [provider], ...overrides };
}

describe('upstream tokens stay on the server', () => {
	test('database sessions: the tokens are on the account row; the browser never receives the access, refresh or ID token', async () => {
		const adapter = MemoryAdapter();
		const { text } = await browserView(config(world.op.provider(), { adapter }));
		const [accessToken, refreshToken, idToken] = world.op.issued;
		for (const token of [accessToken, refreshToken, idToken]) expect(text).not.toContain(token);
		const user = await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'alice' });
		expect(user).not.toBeNull();
		// the server has them, for the app's own calls to the provider's APIs
		const stored = JSON.stringify(await adapter.getAccount?.('alice', 'op'));
		for (const token of [accessToken, refreshToken, idToken]) expect(stored).toContain(token);
	});

	test.each([
		['without refresh: the cookie holds none of them', () => world.op.provider(), false],
		['with refresh: the cookie holds them sealed (encrypted, httpOnly)', () => world.op.provider({ refresh: true }), true]
	])('JWT sessions, no adapter, %s; the browser can read no token', async (_name, provider, sealed) => {
		const { client, text, setCookies } = await browserView(config(provider()));
		const [accessToken, refreshToken, idToken] = world.op.issued;
		for (const token of [accessToken, refreshToken, idToken]) expect(text).not.toContain(token);
		const session = setCookies.filter((line) => line.startsWith('kitgate.session-token'));
		expect(session.length).toBeGreaterThan(0);
		for (const line of session) expect(line).toMatch(/; HttpOnly/i);
		// what the server reads from the cookie: the access and refresh tokens only when it must refresh them
		const claims = JSON.stringify(await decodeJwt({ token: client.jar.get('kitgate.session-token'), secret: TEST_SECRET, salt: 'kitgate.session-token' }));
		for (const token of [accessToken, refreshToken]) expect(claims.includes(token)).toBe(sealed);
		expect(claims).not.toContain(idToken);
	});

	test('the access token is sent to the provider’s userinfo endpoint only, and only as a bearer header', async () => {
		// every request kitgate sent: all the endpoints it knows of are on the provider's server
		const sent = world.op.requests;
		const client = testClient(config(world.op.provider({ idToken: false }), { adapter: MemoryAdapter() }));
		const back = world.op.authorize((await startAt(client)).href, ALICE);
		expect(setsSession(await client.request(back))).toBe(true);
		const [accessToken] = world.op.issued;
		const carrying = sent.filter(({ url, authorization, body }) => url.includes(accessToken) || authorization?.includes(accessToken) || body.includes(accessToken));
		expect(carrying.map(({ url, authorization }) => [url, authorization])).toEqual([[`${world.op.issuer}/userinfo`, `Bearer ${accessToken}`]]);
	});
});

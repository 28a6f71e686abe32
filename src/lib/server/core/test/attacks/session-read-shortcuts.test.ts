// Attacks on the session read's hot-path shortcuts (1215da2): the memo of verified session
// cookies hands out copies of the payload it keeps, and must read every token the app issued as a
// fresh decrypt would; two sessions read in turn show each its own expiry; and an Express app route
// that reads the session of an impersonated change (getSession, twice) audits it once, a read never.
// Each test is named after the attack and what the attacker gains. Two broke and were fixed: nested
// arrays made the memo's copy overflow the stack (503 on every read), and a jwt callback merging an
// update in place (Object.assign) moved the session to the `sub` the client sent (kept claims are
// now taken from a copy of the token as read).

import type { Server } from 'node:http';
import express from 'express';
import { afterAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import { ExpressAuth, getSession } from '../../../express/index.js';
import Credentials from '../../../providers/credentials.js';
import { checkSession } from '../../session-check.js';
import type { AuthConfig } from '../../types.js';
import { Browser, INTEGRATIONS } from '../integrations.js';
import { attackConfig, attackWorld, rightPasswordCredentials, sessionOf } from './flows.js';
import { testClient } from '../client.js';
import { anyUserWorld } from '../credentials-fixture.js';

/** `depth` arrays, each the only item of the one around it: JSON that JSON.stringify still writes. */
function nestedArrays(depth: number): unknown {
	let value: unknown = [];
	for (let at = 1; at < depth; at++) value = [value];
	return value;
}

describe('the memo of verified session cookies', () => {
	// attacker gains: a session that every read answers with a 500 (RangeError), from data the app keeps in its token
	test('a token with deeply nested arrays (written by JSON.stringify) is read, fresh and from the memo', async () => {
		const { signedIn, sessionOf } = anyUserWorld({
			callbacks: { jwt: ({ token }) => ({ ...token, prefs: nestedArrays(3500) }) }
		});
		const laptop = await signedIn('ada');
		for (const read of ['fresh decrypt', 'memo hit']) {
			const { response, session } = await sessionOf(laptop);
			expect(response.status, read).toBe(200);
			expect(session?.user?.name, read).toBe('ada');
		}
	});
});

describe('the memo hands each read its own copy', () => {
	// attacker gains: a callback's change on one read (a counter, a nested flag) carried into the next reads of the same cookie, or another user's
	test('a jwt callback that changes nested claims on every read changes no later read, of the same cookie or another', async () => {
		const { signedIn, sessionOf } = anyUserWorld({
			callbacks: {
				jwt: ({ token, user }) => {
					if (user) return { ...token, prefs: { reads: 0, roles: ['reader'] } };
					const prefs = token.prefs as { reads: number; roles: string[] };
					prefs.reads++;
					prefs.roles.push('admin');
					return token;
				},
				session: ({ session, token }) => {
					const prefs = token?.prefs as { reads: number; roles: string[] };
					(session.user as Record<string, unknown>).prefs = prefs;
					// a change to what the session callback was handed, too
					prefs.roles.push('owner');
					return session;
				}
			}
		});
		const ada = await signedIn('ada');
		const bob = await signedIn('bob');
		const reads = await Promise.all([ada, bob, ada, ada, bob].map((browser) => sessionOf(browser)));
		for (const { session } of reads) {
			expect((session?.user as { prefs?: unknown } | undefined)?.prefs).toEqual({ reads: 1, roles: ['reader', 'admin', 'owner'] });
		}
		expect(reads.map(({ session }) => session?.user?.name)).toEqual(['ada', 'bob', 'ada', 'ada', 'bob']);
	});

	// attacker gains: a claim named `__proto__` (JSON the app wrote from client data) that a memo hit turns into the token's prototype: inherited claims such as `role`
	test('a claim named __proto__ stays an own claim on a memo hit: nothing is inherited from it', async () => {
		const { signedIn, sessionOf } = anyUserWorld({
			callbacks: {
				jwt: ({ token, user }) => {
					if (!user) return token;
					const hostile = JSON.parse('{"__proto__": {"role": "admin"}, "constructor": {"prototype": {"role": "admin"}}}') as Record<string, unknown>;
					return { ...token, ...hostile };
				},
				session: ({ session, token }) => ({ ...session, role: (token as { role?: unknown } | undefined)?.role ?? 'none', own: Object.hasOwn(token ?? {}, '__proto__') })
			}
		});
		const ada = await signedIn('ada');
		for (const read of ['fresh decrypt', 'memo hit', 'memo hit again']) {
			const { session } = await sessionOf(ada);
			expect(session, read).toMatchObject({ role: 'none', own: true });
		}
		expect(({} as { role?: unknown }).role).toBeUndefined();
	});
});

describe("kitgate's claims against a jwt callback that changes the token it is handed", () => {
	// attacker gains: another user's session (or a fresh iat, a dropped id), by sending `sub` in a session update to an app whose
	// jwt callback merges the update into the token in place (Object.assign(token, session), a common pattern)
	test('an update merged in place cannot move the session to another user, nor re-date or re-id it', async () => {
		const { signedIn } = anyUserWorld({
			callbacks: {
				jwt: ({ token, trigger, session }) => {
					if (trigger === 'update' && session && typeof session === 'object') Object.assign(token, session);
					return token;
				},
				session: ({ session, token }) => ({ ...session, sub: token?.sub, iat: token?.iat })
			}
		});
		const mallory = await signedIn('mallory');
		const before = (await (await mallory.request('/auth/session')).json()) as { sub?: string; iat?: number };
		expect(before.sub).toBe('mallory');
		const csrfToken = await mallory.csrfToken();
		const updated = await mallory.request('/auth/session', { json: { csrfToken, data: { sub: 'ada', name: 'ada', iat: 1, sid: 'forged' } } });
		expect(updated.status).toBe(200);
		expect(((await updated.json()) as { sub?: string }).sub).toBe('mallory');
		for (const read of ['fresh decrypt', 'memo hit']) {
			const after = (await (await mallory.request('/auth/session')).json()) as { sub?: string; iat?: number };
			expect(after.sub, read).toBe('mallory');
			expect(after.iat, read).toBe(before.iat);
		}
	});
});

/** Both integrations' test apps (one per file: the SvelteKit app serves one origin). */
const world = attackWorld();

describe.each(INTEGRATIONS)('%s: an update merged in place by the jwt callback, over HTTP', (integration) => {
	// attacker gains: Ada's session in the app's own pages, by a session update naming her `sub`
	test('the app still sees the user who signed in', async () => {
		const app = world.apps[integration];
		app.use(
			attackConfig(undefined, 'jwt', {
				providers: [rightPasswordCredentials()],
				callbacks: {
					...attackConfig(undefined, 'jwt').callbacks,
					jwt: ({ token, trigger, session }) => (trigger === 'update' && session && typeof session === 'object' ? Object.assign(token, session) : token)
				}
			})
		);
		const browser = new Browser();
		const signIn = await browser.request(`${app.origin}/auth/callback/credentials`, { form: { csrfToken: await browser.csrfToken(app.origin), username: 'mallory', password: 'right' } });
		expect(signIn.status).toBe(302);
		expect((await sessionOf(browser, app))?.user?.id).toBe('u-mallory');
		const updated = await browser.request(`${app.origin}/auth/session`, { json: { csrfToken: await browser.csrfToken(app.origin), data: { sub: 'u-ada', name: 'ada' } } });
		expect(updated.status).toBe(200);
		for (const read of ['first read', 'second read']) expect((await sessionOf(browser, app))?.user?.id, read).toBe('u-mallory');
	});
});

describe('expiry shown on reads', () => {
	// attacker gains: a stolen cookie that outlives its `exp` because this process verified it before (a memo hit skips the decrypt)
	test('a cookie read from the memo after its exp (and the 15 s clock tolerance) is no session', async () => {
		const world = anyUserWorld({ session: { maxAge: 60, updateAge: 3600 } });
		const ada = await world.signedIn('ada');
		world.clock.now += 59_000;
		for (const read of ['fresh decrypt', 'memo hit']) expect((await world.sessionOf(ada)).session?.user?.name, read).toBe('ada');
		// the exp, plus the clock tolerance decodeJwt allows, plus a second
		world.clock.now += 17_000;
		expect((await world.sessionOf(ada)).session).toBeNull();
	});

	// attacker gains: a session shown with another session's expiry (a cache of the last formatted time), e.g. a short admin session shown as long
	test('two sessions with different expiries read in turn each show their own', async () => {
		const world = anyUserWorld({ session: { maxAge: 3600, updateAge: 3600 } });
		const ada = await world.signedIn('ada');
		world.clock.now += 7 * 60_000;
		const bob = await world.signedIn('bob');
		const expected = { ada: new Date(Date.UTC(2030, 0, 1, 13)).toISOString(), bob: new Date(Date.UTC(2030, 0, 1, 13, 7)).toISOString() };
		for (const [name, browser] of [['ada', ada], ['bob', bob], ['ada', ada], ['bob', bob], ['bob', bob], ['ada', ada]] as const) {
			const { session } = await world.sessionOf(browser);
			expect(session?.expires, name).toBe(expected[name]);
		}
	});
});

describe('Express: an impersonated change read by an app route', () => {
	const servers: Server[] = [];
	afterAll(() => Promise.all(servers.map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))))));

	// attacker gains: an impersonating admin's change through the app's own routes (which call getSession) with no audit row, or rows that drown it
	test('getSession called twice in one request audits every method but GET and HEAD exactly once', async () => {
		const adapter = MemoryAdapter();
		const admin = await adapter.createUser({ id: 'admin-1', email: 'admin@example.com', emailVerified: new Date(), name: 'Admin' });
		const user = await adapter.createUser({ id: 'user-1', email: 'user@example.com', emailVerified: new Date(), name: 'User' });
		const config: AuthConfig = attackConfig(adapter, 'jwt', {
			admin: { admins: [admin.id] },
			providers: [Credentials({ credentials: { email: {} }, authorize: async ({ email }) => (await adapter.getUserByEmail(String(email))) ?? null })]
		});
		const app = express();
		app.use('/auth', ExpressAuth(config));
		app.all('/change', async (req, res) => {
			const first = await getSession(req, config, res);
			const second = await getSession(req, config, res);
			res.json({ ids: [first, second].map((session) => (session?.user as { id?: string } | undefined)?.id) });
		});
		const server = await new Promise<Server>((resolve) => {
			const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
		});
		servers.push(server);
		const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

		const browser = new Browser();
		const signIn = await browser.request(`${origin}/auth/callback/credentials`, { form: { csrfToken: await browser.csrfToken(origin), email: admin.email } });
		expect(signIn.status).toBe(302);
		const started = await browser.request(`${origin}/auth/admin/impersonate`, { json: { csrfToken: await browser.csrfToken(origin), userId: user.id } });
		expect(started.status).toBe(200);
		const rows = async () => (await adapter.listAuditEntries(user.id, { limit: 100 })).filter((row) => row.action === 'impersonated:request');
		expect(await rows()).toEqual([]);

		for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
			const answer = await browser.request(`${origin}/change`, { method, ...(method === 'POST' ? { json: {} } : {}) });
			expect(answer.status, method).toBe(200);
			if (method !== 'HEAD' && method !== 'OPTIONS') expect(((await answer.json()) as { ids: unknown[] }).ids, method).toEqual([user.id, user.id]);
		}
		const methods = (await rows()).map((row) => (JSON.parse(row.detail!) as { method: string; path: string }).method);
		expect(methods.sort()).toEqual(['DELETE', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
	});
});

describe('X-Forwarded-Proto with trustHost: the session read (checkSession) behind a proxy', () => {
	// attacker gains (a proxy's odd spelling): the session read looks for, and re-issues, cookies without __Secure- and Secure behind an HTTPS proxy, or with them on plain HTTP
	test.each([
		['https', true],
		['http', false],
		['HTTPS', true],
		['Https', true],
		['https, http', true],
		['http,https', false],
		['HTTP, https', false],
		['ftp', false]
	])('X-Forwarded-Proto %j: the read finds the session and re-issues it __Secure- and Secure: %s', async (forwarded, secure) => {
		const { config } = anyUserWorld({ session: { updateAge: 0 } });
		const client = testClient(config, 'http://app.example');
		const headers = { 'x-forwarded-proto': forwarded };
		const { csrfToken } = (await (await client.request('/auth/csrf', { headers })).json()) as { csrfToken: string };
		await client.request('/auth/callback/credentials', { headers, form: { csrfToken, username: 'ada' } });
		const cookie = [...client.jar].map(([name, value]) => `${name}=${value}`).join('; ');
		const { session, setCookies } = await checkSession(new Request('http://app.example/', { headers: { ...headers, cookie } }), config);
		expect(session?.user?.name).toBe('ada');
		const reissued = setCookies.find((line) => /^(__Secure-)?kitgate\.session-token=/.test(line));
		expect(reissued?.startsWith('__Secure-'), reissued).toBe(secure);
		expect(/;\s*Secure/i.test(reissued ?? ''), reissued).toBe(secure);
	});
});

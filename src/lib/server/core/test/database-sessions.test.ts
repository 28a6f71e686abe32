// Database sessions through `Auth()`: the cookie holds only the session token, reads use
// getSessionAndUser once, extension follows updateAge (injectable clock), expiry and sign-out
// delete the row. Runs on the memory adapter and on a real SQLite file.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import Credentials from '../../providers/credentials.js';
import type { Adapter, AdapterSession, AdapterUser, AuthConfig, Session } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { memoryAndSqliteAdapters } from './stored-adapters.js';

const DAY = 24 * 3600 * 1000;

/** A real adapter whose calls are counted by method name. */
function counted(adapter: Required<Adapter>) {
	const calls: string[] = [];
	const wrapped = Object.fromEntries(
		Object.entries(adapter).map(([name, fn]) => [
			name,
			typeof fn === 'function'
				? (...args: unknown[]) => (calls.push(name), (fn as (...a: unknown[]) => unknown).apply(adapter, args))
				: fn
		])
	) as unknown as Required<Adapter>;
	return { adapter: wrapped, calls };
}

const adapters = memoryAndSqliteAdapters('dbsessions');

describe.each(adapters)('database sessions (%s)', (_name, makeAdapter) => {
	function setup(overrides: Partial<AuthConfig> = {}) {
		const clock = { now: Date.UTC(2026, 5, 1) };
		const { adapter, calls } = counted(makeAdapter());
		const sessionArgs: { user?: AdapterUser; token?: unknown }[] = [];
		const signOuts: unknown[] = [];
		const config: AuthConfig = {
			secret: TEST_SECRET,
			trustHost: true,
			adapter,
			now: () => clock.now,
			session: { maxAge: 30 * 24 * 3600, updateAge: 24 * 3600 },
			providers: [
				Credentials({
					authorize: ({ username }) => (username === 'ada' ? { id: 'user-ada', name: 'Ada', email: 'ada@example.com' } : null)
				})
			],
			callbacks: {
				session: ({ session, user, token }) => {
					sessionArgs.push({ user, token });
					return { ...session, userId: user?.id };
				}
			},
			events: { signOut: (message) => void signOuts.push(message) },
			...overrides
		};
		const client = testClient(config);
		const signIn = async () => {
			const csrfToken = await client.csrfToken();
			return client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada', password: 'x' } });
		};
		const session = async () => (await client.request('/auth/session')).json() as Promise<Session | null>;
		return { clock, adapter, calls, client, signIn, session, sessionArgs, signOuts };
	}

	test('credentials sign-in creates the user and a session row; the cookie holds only the token', async () => {
		const { adapter, client, signIn } = setup();
		const response = await signIn();
		expect(response.status).toBe(302);
		const token = client.jar.get('kitgate.session-token')!;
		// 32 random bytes: 256 bits (ASVS 7.2.3 asks at least 128)
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		const stored = await adapter.getSessionAndUser(token);
		expect(stored?.user).toMatchObject({ id: 'user-ada', email: 'ada@example.com' });
		expect(stored?.session.expires.getTime()).toBe(Date.UTC(2026, 5, 1) + 30 * DAY);
		await signIn();
		expect(client.jar.get('kitgate.session-token')).not.toBe(token);
	});

	test('a custom session.generateSessionToken makes the token of every new session row', async () => {
		let made = 0;
		const { adapter, client, signIn } = setup({ session: { generateSessionToken: () => `app-token-${++made}` } });
		await signIn();
		expect(client.jar.get('kitgate.session-token')).toBe('app-token-1');
		expect((await adapter.getSessionAndUser('app-token-1'))?.user.id).toBe('user-ada');
		await signIn();
		expect(client.jar.get('kitgate.session-token')).toBe('app-token-2');
	});

	test('a read makes one getSessionAndUser call and passes the user to the session callback', async () => {
		const { calls, signIn, session, sessionArgs } = setup();
		await signIn();
		calls.length = 0;
		const result = await session();
		expect(result).toMatchObject({ user: { name: 'Ada', email: 'ada@example.com' }, userId: 'user-ada' });
		expect(calls).toEqual(['getSessionAndUser']);
		expect(sessionArgs.at(-1)?.user?.id).toBe('user-ada');
		expect(sessionArgs.at(-1)?.token).toBeUndefined();
	});

	test("the session callback's `session` holds the whole stored user (as Auth.js hands it), never the row's token; the default callback answers name, email and image", async () => {
		const { client, signIn, session } = setup({ callbacks: { session: ({ session }) => session } });
		await signIn();
		const returned = (await session()) as Session & Record<string, unknown>;
		expect(returned.user).toMatchObject({ id: 'user-ada', name: 'Ada', email: 'ada@example.com' });
		expect(JSON.stringify(returned)).not.toContain(client.jar.get('kitgate.session-token')!);
		expect(Object.keys(returned).sort()).toEqual(['expires', 'user']);

		const plain = setup({ callbacks: {} });
		await plain.signIn();
		expect(await plain.session()).toEqual({ user: { name: 'Ada', email: 'ada@example.com', image: null }, expires: expect.any(String) });
	});

	test('expiry is extended at most once per updateAge', async () => {
		const { clock, calls, client, signIn, session } = setup();
		await signIn();
		const start = clock.now;
		clock.now = start + DAY - 1000;
		calls.length = 0;
		const early = await client.request('/auth/session');
		expect(early.headers.getSetCookie()).toEqual([]);
		expect(calls).not.toContain('updateSession');
		expect(new Date(((await early.json()) as Session).expires).getTime()).toBe(start + 30 * DAY);

		clock.now = start + DAY;
		const due = await client.request('/auth/session');
		expect(calls).toContain('updateSession');
		expect(due.headers.getSetCookie().some((c) => c.startsWith('kitgate.session-token='))).toBe(true);
		expect(new Date(((await due.json()) as Session).expires).getTime()).toBe(start + 31 * DAY);

		calls.length = 0;
		clock.now = start + DAY + 60_000;
		await session();
		expect(calls).not.toContain('updateSession');
	});

	test('updateAge 0 extends on every read', async () => {
		const { clock, calls, signIn, session } = setup({ session: { updateAge: 0 } });
		await signIn();
		calls.length = 0;
		await session();
		clock.now += 1000;
		const second = await session();
		expect(calls.filter((c) => c === 'updateSession')).toHaveLength(2);
		expect(new Date(second!.expires).getTime()).toBe(clock.now + 30 * DAY);
	});

	test('an expired session is deleted when read and the cookie is cleared', async () => {
		const { clock, adapter, client, signIn } = setup();
		await signIn();
		const token = client.jar.get('kitgate.session-token')!;
		clock.now += 31 * DAY;
		const response = await client.request('/auth/session');
		expect(await response.json()).toBeNull();
		expect(await adapter.getSessionAndUser(token)).toBeNull();
		expect(client.jar.has('kitgate.session-token')).toBe(false);
	});

	test('sign-out deletes the row and fires signOut with the session', async () => {
		const { adapter, client, signIn, session, signOuts } = setup();
		await signIn();
		const token = client.jar.get('kitgate.session-token')!;
		const csrfToken = await client.csrfToken();
		await client.request('/auth/signout', { form: { csrfToken } });
		expect(await adapter.getSessionAndUser(token)).toBeNull();
		expect(await session()).toBeNull();
		expect((signOuts[0] as { session: AdapterSession }).session.sessionToken).toBe(token);
	});

	test('signing in again replaces the old session row (no fixation)', async () => {
		const { adapter, client, signIn } = setup();
		await signIn();
		const first = client.jar.get('kitgate.session-token')!;
		await signIn();
		const second = client.jar.get('kitgate.session-token')!;
		expect(second).not.toBe(first);
		expect(await adapter.getSessionAndUser(first)).toBeNull();
		expect(await adapter.getSessionAndUser(second)).not.toBeNull();
	});

	test('an unknown session token is no session and is cleared', async () => {
		const { client } = setup();
		const response = await client.request('/auth/session', { headers: { cookie: 'kitgate.session-token=not-a-session' } });
		expect(await response.json()).toBeNull();
		expect(response.headers.getSetCookie().some((c) => c.startsWith('kitgate.session-token=;'))).toBe(true);
	});

	test('strategy "jwt" with an adapter keeps sessions in the cookie', async () => {
		const { calls, client, signIn, session } = setup({ session: { strategy: 'jwt' } });
		await signIn();
		expect(client.jar.get('kitgate.session-token')).toMatch(/^eyJ/);
		calls.length = 0;
		expect((await session())?.user?.name).toBe('Ada');
		expect(calls).toEqual([]);
	});
});

describe('missing adapter methods', () => {
	test('a missing createSession gives an error page, a logged MissingAdapterMethod, and no session', async () => {
		const full = MemoryAdapter();
		const { createSession: _createSession, ...partial } = full;
		const errors: Error[] = [];
		const client = testClient({
			secret: TEST_SECRET,
			trustHost: true,
			adapter: partial,
			logger: { error: (e) => errors.push(e) },
			providers: [Credentials({ authorize: () => ({ id: 'u1', name: 'Ada', email: 'ada@example.com' }) })]
		});
		const csrfToken = await client.csrfToken();
		const response = await client.request('/auth/callback/credentials', { form: { csrfToken } });
		expect(response.status).toBe(302);
		expect(response.headers.get('location')).toBe('http://localhost:3000/auth/error?error=MissingAdapterMethod');
		expect(errors[0]).toMatchObject({ type: 'MissingAdapterMethod' });
		expect(errors[0].message).toContain('createSession');
		expect(client.jar.has('kitgate.session-token')).toBe(false);
		expect(await full.getUser('u1')).toBeNull();
		const page = await client.request('/auth/error?error=MissingAdapterMethod');
		expect(page.status).toBeLessThan(500);
	});

	test('a missing getSessionAndUser makes the session route answer 503 MissingAdapterMethod, not a bare 500', async () => {
		const { getSessionAndUser: _get, ...partial } = MemoryAdapter();
		const client = testClient({
			secret: TEST_SECRET,
			trustHost: true,
			adapter: partial,
			logger: { error: () => {} },
			providers: []
		});
		const response = await client.request('/auth/session', { headers: { cookie: 'kitgate.session-token=abc' } });
		// the failure table: the server's set-up is at fault, with a stable code
		expect(response.status).toBe(503);
		expect(await response.json()).toEqual({ error: 'MissingAdapterMethod' });
	});
});

// createTestSession: the cookie it returns is one the app's real engine accepts, for JWT and
// database sessions, and one an engine with another secret refuses.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Auth } from '../server/core/auth.js';
import type { AuthConfig, Session } from '../server/core/types.js';
import { MemoryAdapter } from '../server/adapters/memory.js';
import { SQLiteAdapter } from '../server/adapters/sqlite.js';
import Credentials from '../server/providers/credentials.js';
import { createTestSession } from './test-session.js';

const SECRET = 'test-session-secret-test-session-secret-0123';
const ORIGIN = 'http://localhost:4173';
const providers = [Credentials({ credentials: { username: {} }, authorize: () => null })];
const quiet = { error: () => {}, warn: () => {}, debug: () => {} };

/** The session the engine of `config` reads from `cookie` (null when it refuses it). */
async function sessionFor(config: AuthConfig, cookie: string, origin = ORIGIN): Promise<Session | null> {
	const response = await Auth(new Request(`${origin}/auth/session`, { headers: { cookie } }), config);
	expect(response.status).toBe(200);
	return (await response.json()) as Session | null;
}

describe('JWT sessions', () => {
	const config: AuthConfig = { secret: SECRET, providers, trustHost: true, logger: quiet };

	test('the engine reads the user from the cookie header, and the cookie is named as the engine names it over http', async () => {
		const session = await createTestSession({ config, user: { id: 'ada', email: 'ada@example.com', name: 'Ada' }, origin: ORIGIN });
		expect(session.cookies.map(({ name }) => name)).toEqual(['kitgate.session-token']);
		expect(session.cookies[0]).toMatchObject({ domain: 'localhost', path: '/', httpOnly: true, secure: false, sameSite: 'Lax' });
		expect(session.cookies[0].expires * 1000).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);
		expect(await sessionFor(config, session.cookieHeader)).toMatchObject({ user: { email: 'ada@example.com', name: 'Ada' } });
	});

	test('over https the cookie carries the __Secure- prefix and the Secure flag, and the engine reads it there', async () => {
		const session = await createTestSession({ config, user: { id: 'ada', email: 'ada@example.com' }, origin: 'https://app.example.com' });
		expect(session.cookies.map(({ name, secure, domain }) => [name, secure, domain])).toEqual([['__Secure-kitgate.session-token', true, 'app.example.com']]);
		expect(await sessionFor(config, session.cookieHeader, 'https://app.example.com')).toMatchObject({ user: { email: 'ada@example.com' } });
		// the plain name is not the session over https
		expect(await sessionFor(config, session.cookieHeader.replace('__Secure-', ''), 'https://app.example.com')).toBeNull();
	});

	test('an engine with another secret refuses the cookie', async () => {
		const session = await createTestSession({ config, user: { id: 'ada', email: 'ada@example.com' }, origin: ORIGIN });
		expect(await sessionFor({ ...config, secret: `${SECRET}-other` }, session.cookieHeader)).toBeNull();
	});

	test("the app's jwt callback shapes the token, as at a sign-in", async () => {
		const withRole: AuthConfig = {
			...config,
			callbacks: {
				jwt: ({ token, user }) => (user ? { ...token, role: 'admin' } : token),
				session: ({ session, token }) => ({ ...session, role: token?.role })
			}
		};
		const session = await createTestSession({ config: withRole, user: { id: 'ada', email: 'ada@example.com' }, origin: ORIGIN });
		expect(await sessionFor(withRole, session.cookieHeader)).toMatchObject({ role: 'admin' });
	});

	test('a missing secret fails as the app would, naming AUTH_SECRET', async () => {
		await expect(createTestSession({ config: { providers }, user: { id: 'ada' }, origin: ORIGIN })).rejects.toThrow(/AUTH_SECRET/);
	});
});

describe('database sessions', () => {
	const folder = mkdtempSync(join(tmpdir(), 'kitgate-test-session-'));
	afterAll(() => rmSync(folder, { recursive: true, force: true }));

	test('with the SQLite adapter: a session row for a new user, read by the engine from another adapter instance on the same file', async () => {
		const filename = join(folder, 'auth.sqlite');
		const session = await createTestSession({ config: { secret: SECRET, adapter: SQLiteAdapter({ filename }) }, user: { email: 'grace@example.com', name: 'Grace' }, origin: ORIGIN });
		expect(session.user).toMatchObject({ email: 'grace@example.com', name: 'Grace' });
		const app: AuthConfig = { secret: SECRET, providers, trustHost: true, logger: quiet, adapter: SQLiteAdapter({ filename }) };
		expect(await sessionFor(app, session.cookieHeader)).toMatchObject({ user: { email: 'grace@example.com', name: 'Grace' } });
		// the same user again: found by email, not created twice
		const again = await createTestSession({ config: { secret: SECRET, adapter: SQLiteAdapter({ filename }) }, user: { email: 'grace@example.com' }, origin: ORIGIN });
		expect(again.user.id).toBe(session.user.id);
		expect(again.cookieHeader).not.toBe(session.cookieHeader);
	});

	test('a stored user is found by id; the cookie is the row token, which the engine refuses once the row is gone', async () => {
		const adapter = MemoryAdapter();
		const stored = await adapter.createUser({ id: 'u-1', email: 'lin@example.com', emailVerified: null, name: 'Lin' });
		const config: AuthConfig = { secret: SECRET, providers, trustHost: true, logger: quiet, adapter };
		const session = await createTestSession({ config, user: { id: stored.id }, origin: ORIGIN, userAgent: 'test-agent' });
		expect(session.user).toMatchObject({ id: 'u-1', email: 'lin@example.com' });
		const token = session.cookies[0].value;
		expect(await adapter.getSessionAndUser(token)).toMatchObject({ user: { id: 'u-1' } });
		expect(await sessionFor(config, session.cookieHeader)).toMatchObject({ user: { email: 'lin@example.com', name: 'Lin' } });
		await adapter.deleteSession(token);
		expect(await sessionFor(config, session.cookieHeader)).toBeNull();
	});

	test('an unknown id without an email cannot make a user', async () => {
		await expect(createTestSession({ config: { secret: SECRET, adapter: MemoryAdapter() }, user: { id: 'nobody' }, origin: ORIGIN })).rejects.toThrow(/user\.email/);
	});
});

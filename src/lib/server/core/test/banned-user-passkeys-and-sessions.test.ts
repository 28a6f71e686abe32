// Bans beyond the password, link and OpenID sign-ins (attacks/banned-users.test.ts): a passkey
// sign-in is refused; an Auth.js session of a banned user is not adopted; with `admin` on, a
// banned user's JWT session ends on its next request even under `revocationCheck: "refresh"`, and
// at its next re-issue when the revocation store forgot the ban. And the bookkeeping of sign-ups
// and sign-ins in the admin record, which never blocks a sign-in. On memory and SQLite.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import Credentials from '../../providers/credentials.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import { revokeSessions } from '../session/revocation.js';
import type { Adapter, AuthConfig } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { loadAuthjs } from './authjs-reference.js';
import { memoryAndSqliteAdapters } from './stored-adapters.js';
import { ORIGIN, optionsUserId, passkeyWorld } from './webauthn-fixture.js';

const adapters = memoryAndSqliteAdapters('banned-user-sessions');
const DAY = 86_400;

/** A JWT-session world: password sign-in for stored users, `admin` on, an injectable clock. */
function jwtWorld(adapter: Required<Adapter>, overrides: Partial<AuthConfig> = {}) {
	const clock = { now: Date.UTC(2030, 0, 1, 12) };
	const logged: string[] = [];
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		adapter,
		now: () => clock.now,
		admin: { admins: [] },
		rateLimit: { store: MemoryRateLimitStore() },
		logger: { error: (_code, error) => void logged.push((error as Error).message), warn: () => undefined, debug: () => undefined },
		providers: [
			Credentials({
				credentials: { email: {} },
				authorize: async ({ email }) => {
					const user = await adapter.getUserByEmail(String(email));
					return user && { id: user.id, email: user.email };
				}
			})
		],
		...overrides,
		session: { strategy: 'jwt', ...overrides.session }
	};
	async function signedIn(email: string) {
		const client = testClient(config);
		const csrfToken = await client.csrfToken();
		await client.request('/auth/callback/credentials', { form: { csrfToken, email } });
		return client;
	}
	const session = async (client: ReturnType<typeof testClient>) => (await (await client.request('/auth/session')).json()) as { user?: { email?: string } } | null;
	return { config, clock, logged, signedIn, session };
}

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	test('a passkey sign-in of a banned user is refused with UserBanned (403), no session cookie written', async () => {
		const world = passkeyWorld({ adapter: makeAdapter(), config: { admin: { admins: [] } } });
		const registration = await world.options({ email: 'lin@example.com' });
		expect((await world.callback({ action: 'register', data: world.device.register(registration.body.options) })).status).toBe(200);
		const userId = optionsUserId(registration.body.options);
		await world.adapter.setUserAdmin({ userId, bannedAt: new Date(world.clock.now), banExpires: null });

		const later = world.browser();
		const login = await later.options({ action: 'authenticate' });
		const refused = await later.callback({ action: 'authenticate', data: world.device.authenticate(login.body.options) });
		expect(refused).toMatchObject({ status: 403, body: { error: 'UserBanned' } });
		expect(refused.response.headers.getSetCookie().some((c) => c.startsWith('kitgate.session-token=') && !/Max-Age=0/i.test(c))).toBe(false);
		expect(await later.session()).toBeNull();
	});

	test('with admin on, a banned user’s JWT session ends on its next request even under revocationCheck "refresh"', async () => {
		const adapter = makeAdapter();
		const user = await adapter.createUser({ id: crypto.randomUUID(), email: 'mallory@example.com', emailVerified: null });
		const world = jwtWorld(adapter, { session: { strategy: 'jwt', revocationCheck: 'refresh' } });
		const client = await world.signedIn(user.email);
		expect((await world.session(client))?.user?.email).toBe(user.email);
		world.clock.now += 1000;
		await adapter.setUserAdmin({ userId: user.id, bannedAt: new Date(world.clock.now), banExpires: null });
		await revokeSessions(user.id, world.config);
		// well before updateAge (a day): no re-issue is due
		world.clock.now += 2000;
		expect(await world.session(client)).toBeNull();
	});

	test('a ban the revocation store forgot (a restart of its process) still ends the JWT session at its next re-issue', async () => {
		const adapter = makeAdapter();
		const user = await adapter.createUser({ id: crypto.randomUUID(), email: 'trudy@example.com', emailVerified: null });
		const world = jwtWorld(adapter);
		const client = await world.signedIn(user.email);
		// the record only: no revocation reached the store
		await adapter.setUserAdmin({ userId: user.id, bannedAt: new Date(world.clock.now), banExpires: null });
		world.clock.now += (DAY + 60) * 1000;
		expect(await world.session(client)).toBeNull();
		expect([...client.jar.keys()].some((name) => name.startsWith('kitgate.session-token'))).toBe(false);
	});

	test('an Auth.js session cookie of a banned user is not adopted (migrateSessionsFrom), its cookie cleared', async () => {
		const adapter = makeAdapter();
		const user = await adapter.createUser({ id: crypto.randomUUID(), email: 'sybil@example.com', emailVerified: null });
		const world = jwtWorld(adapter, { migrateSessionsFrom: 'authjs' });
		const authjs = await loadAuthjs();
		const salt = 'authjs.session-token';
		const jwe = await authjs.encode({ token: { sub: user.id, email: user.email, name: null }, secret: TEST_SECRET, salt });
		const client = testClient(world.config, ORIGIN, new Map([[salt, jwe]]));
		world.clock.now = Date.now();
		// not banned: adopted
		expect((await world.session(client))?.user?.email).toBe(user.email);

		await adapter.setUserAdmin({ userId: user.id, bannedAt: new Date(world.clock.now), banExpires: null });
		const banned = testClient(world.config, ORIGIN, new Map([[salt, jwe]]));
		expect(await world.session(banned)).toBeNull();
		expect(banned.jar.has(salt)).toBe(false);
	});

	test('bookkeeping: a sign-up records createdAt, every completed sign-in lastSignInAt; a failing write is logged and the sign-in goes on', async () => {
		const base = makeAdapter();
		const world = passkeyWorld({ adapter: base });
		const registration = await world.options({ email: 'new@example.com' });
		await world.callback({ action: 'register', data: world.device.register(registration.body.options) });
		const userId = optionsUserId(registration.body.options);
		const created = await base.getUserAdmin(userId);
		expect(created?.createdAt?.getTime()).toBe(world.clock.now);
		expect(created?.lastSignInAt?.getTime()).toBe(world.clock.now);

		world.clock.now += 60_000;
		const later = world.browser();
		const login = await later.options({ action: 'authenticate' });
		expect((await later.callback({ action: 'authenticate', data: world.device.authenticate(login.body.options) })).status).toBe(200);
		const after = await base.getUserAdmin(userId);
		expect(after?.createdAt?.getTime()).toBe(created?.createdAt?.getTime());
		expect(after?.lastSignInAt?.getTime()).toBe(world.clock.now);

		// an adapter whose admin writes fail: the password sign-in still completes
		const failing: Required<Adapter> = { ...MemoryAdapter(), setUserAdmin: () => Promise.reject(new Error('disk full')) } as Required<Adapter>;
		const user = await failing.createUser({ id: crypto.randomUUID(), email: 'ada@example.com', emailVerified: null });
		const broken = jwtWorld(failing);
		const client = await broken.signedIn(user.email);
		expect((await broken.session(client))?.user?.email).toBe(user.email);
		expect(broken.logged.some((message) => message.includes('lastSignInAt'))).toBe(true);
	});
});

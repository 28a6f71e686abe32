// Session hardening through `Auth()`: cookie size warnings, a new session on every sign-in (no
// fixation), sign-out, and `revokeSessions(userId)` for database sessions and for JWT sessions
// (checked when the token is re-issued, or on every read), across two servers sharing a store.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { SqlRateLimitStore } from '../../adapters/rate-limit-store.js';
import { SQLiteAdapter } from '../../adapters/sqlite.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import { revokeSessions } from '../session/revocation.js';
import type { Adapter } from '../types.js';
import { testClient } from './client.js';
import { anyUserWorld } from './credentials-fixture.js';
import { setsSession } from './oauth-fixtures.js';

const HOUR = 3600_000;
const directory = mkdtempSync(join(tmpdir(), 'kitgate-hardening-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('session cookie size', () => {
	const bigClaims = (bytes: number) => ({ jwt: ({ token }: { token: Record<string, unknown> }) => ({ ...token, blob: 'x'.repeat(bytes) }) });

	test('a session in two chunks or fewer logs nothing; one in three chunks logs a warning naming the fix', async () => {
		const small = anyUserWorld({ callbacks: bigClaims(4000) });
		const client = await small.signedIn('ada');
		expect([...client.jar.keys()].filter((k) => k.startsWith('kitgate.session-token'))).toEqual(['kitgate.session-token.0', 'kitgate.session-token.1']);
		expect(small.log.warnings).toEqual([]);

		const large = anyUserWorld({ callbacks: bigClaims(7000) });
		const bigClient = await large.signedIn('ada');
		expect([...bigClient.jar.keys()].filter((k) => k.startsWith('kitgate.session-token'))).toHaveLength(3);
		expect(large.log.warnings).toEqual([expect.stringMatching(/^session-cookie-size The session cookie needs 3 chunks \(\d+ bytes\); slim the jwt callback\.$/)]);
		expect((await large.sessionOf(bigClient)).session?.user?.name).toBe('ada');
	});

	test('a session over ten chunks is refused: logged, no session, no 5xx', async () => {
		const { config, log } = anyUserWorld({ callbacks: bigClaims(60_000) });
		const client = testClient(config);
		const csrfToken = await client.csrfToken();
		const response = await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada' } });
		expect(response.status).toBe(302);
		expect(setsSession(response)).toBe(false);
		expect(log.text()).toMatch(/JWTSessionError: The session needs \d+ cookies/);
	});
});

describe('a new session on every sign-in (no fixation)', () => {
	test('JWT: signing in again gives a new token value', async () => {
		const { signedIn } = anyUserWorld();
		const client = await signedIn('ada');
		const first = client.jar.get('kitgate.session-token');
		const csrfToken = await client.csrfToken();
		const again = await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada' } });
		expect(setsSession(again)).toBe(true);
		const second = client.jar.get('kitgate.session-token');
		expect(first).toBeDefined();
		expect(second).not.toBe(first);
	});

	test('database: a session token planted before sign-in is never the one issued, and does not become a session', async () => {
		const adapter = MemoryAdapter();
		const { config } = anyUserWorld({ adapter });
		const client = testClient(config);
		client.jar.set('kitgate.session-token', 'attacker-chosen-token');
		const csrfToken = await client.csrfToken();
		await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada' } });
		const issued = client.jar.get('kitgate.session-token');
		expect(issued).toMatch(/^[0-9a-f]{64}$/);
		expect(issued).not.toBe('attacker-chosen-token');
		expect(await adapter.getSessionAndUser('attacker-chosen-token')).toBeNull();
	});
});

describe('concurrent first sign-ins of one credentials user (database sessions)', () => {
	test('on two servers sharing a database: one user row, and both get a session', async () => {
		const filename = join(directory, 'concurrent.sqlite');
		const [first, second] = [SQLiteAdapter({ filename }), SQLiteAdapter({ filename })];
		try {
			await first.migrate();
			await second.migrate();
			const [serverA, serverB] = [anyUserWorld({ adapter: first }), anyUserWorld({ adapter: second })];
			const [a, b] = await Promise.all([serverA.signedIn('ada'), serverB.signedIn('ada')]);
			expect((await serverB.sessionOf(a)).session?.user?.name).toBe('ada');
			expect((await serverA.sessionOf(b)).session?.user?.name).toBe('ada');
			expect(first.database.prepare('select count(*) as n from users').get()).toEqual({ n: 1 });
			expect(first.database.prepare('select count(*) as n from sessions').get()).toEqual({ n: 2 });
		} finally {
			await first.close();
			await second.close();
		}
	});
});

describe('revokeSessions: database sessions', () => {
	test('every session of the user ends on every device; other users keep theirs', async () => {
		const adapter = MemoryAdapter();
		const { config, signedIn, sessionOf } = anyUserWorld({ adapter });
		const [laptop, phone, other] = [await signedIn('ada'), await signedIn('ada'), await signedIn('grace')];
		await revokeSessions('ada', config);
		expect((await sessionOf(laptop)).session).toBeNull();
		expect((await sessionOf(phone)).session).toBeNull();
		expect((await sessionOf(other)).session?.user?.name).toBe('grace');
	});

	test('sign-out ends this device\'s session only', async () => {
		const adapter = MemoryAdapter();
		const { config, signedIn, sessionOf } = anyUserWorld({ adapter });
		const [laptop, phone] = [await signedIn('ada'), await signedIn('ada')];
		const token = laptop.jar.get('kitgate.session-token')!;
		const csrfToken = await laptop.csrfToken();
		await laptop.request('/auth/signout', { form: { csrfToken } });
		expect(await adapter.getSessionAndUser(token)).toBeNull();
		expect((await sessionOf(phone)).session?.user?.name).toBe('ada');
		expect(config.adapter).toBe(adapter);
	});

	test('an adapter without deleteSessionsByUserId: MissingAdapterMethod naming it', async () => {
		const { deleteSessionsByUserId: _dropped, ...partial } = MemoryAdapter();
		const { config } = anyUserWorld({ adapter: partial as Adapter });
		await expect(revokeSessions('ada', config)).rejects.toMatchObject({ type: 'MissingAdapterMethod', message: expect.stringContaining('deleteSessionsByUserId') });
	});

	test('a missing user id is a programming error, said at once', async () => {
		const { config } = anyUserWorld();
		await expect(revokeSessions('', config)).rejects.toThrow(/needs the id of the user/);
	});
});

describe('revokeSessions: JWT sessions', () => {
	test('revocationCheck "refresh": checked when the token is re-issued, at most updateAge late; the cookie is cleared then', async () => {
		const { config, clock, signedIn, sessionOf } = anyUserWorld({ session: { updateAge: 3600, revocationCheck: 'refresh' } });
		const client = await signedIn('ada');
		clock.now += 10_000;
		await revokeSessions('ada', config);
		clock.now += 10_000;
		// not due for re-issue: still served, without I/O
		expect((await sessionOf(client)).session?.user?.name).toBe('ada');
		clock.now += HOUR;
		const { response, session } = await sessionOf(client);
		expect(session).toBeNull();
		expect(response.headers.getSetCookie().some((c) => /^kitgate\.session-token=;/.test(c))).toBe(true);
		expect(client.jar.has('kitgate.session-token')).toBe(false);
	});

	test('a sign-in after the revocation is not affected, also when it is re-issued later', async () => {
		const { config, clock, signedIn, sessionOf } = anyUserWorld();
		await revokeSessions('ada', config);
		clock.now += 1000;
		const client = await signedIn('ada');
		clock.now += 2 * HOUR;
		const { response, session } = await sessionOf(client);
		expect(session?.user?.name).toBe('ada');
		expect(setsSession(response)).toBe(true);
	});

	test('other users are not affected', async () => {
		const { config, clock, signedIn, sessionOf } = anyUserWorld();
		const client = await signedIn('grace');
		clock.now += 1000;
		await revokeSessions('ada', config);
		clock.now += 2 * HOUR;
		expect((await sessionOf(client)).session?.user?.name).toBe('grace');
	});

	test('revocationCheck "always" (the default): the next read ends it', async () => {
		const { config, clock, signedIn, sessionOf } = anyUserWorld();
		const client = await signedIn('ada');
		clock.now += 1000;
		expect((await sessionOf(client)).session?.user?.name).toBe('ada');
		await revokeSessions('ada', config);
		expect((await sessionOf(client)).session).toBeNull();
	});

	test('an update of the session (POST session) is a re-issue, so it is checked', async () => {
		const { config, clock, signedIn } = anyUserWorld();
		const client = await signedIn('ada');
		clock.now += 1000;
		await revokeSessions('ada', config);
		const csrfToken = await client.csrfToken();
		const updated = await client.request('/auth/session', { json: { csrfToken, data: { name: 'x' } } });
		expect(await updated.json()).toBeNull();
	});

	test('a config object built per request (SvelteKit lazy config) sees a revocation made with another object', async () => {
		// no store configured: both objects use this process's store
		const base = anyUserWorld({ rateLimit: undefined });
		const client = await base.signedIn('ada-lazy');
		base.clock.now += 1000;
		await revokeSessions('ada-lazy', { ...base.config });
		base.clock.now += 2 * HOUR;
		expect((await base.sessionOf(client)).session).toBeNull();
	});

	test('two servers sharing a SQL store: a revocation on one ends the session on the other', async () => {
		const filename = join(directory, 'revocations.sqlite');
		const [first, second] = [SQLiteAdapter({ filename }), SQLiteAdapter({ filename })];
		try {
			const serverA = anyUserWorld({ rateLimit: { store: SqlRateLimitStore(first) } });
			const serverB = anyUserWorld({ rateLimit: { store: SqlRateLimitStore(second) } });
			await first.migrate();
			const client = await serverA.signedIn('ada');
			// the same browser talks to server B from now on
			const onB = testClient(serverB.config);
			for (const [name, value] of client.jar) onB.jar.set(name, value);
			serverA.clock.now += 1000;
			await revokeSessions('ada', serverA.config);
			serverB.clock.now = serverA.clock.now + 2 * HOUR;
			expect((await serverB.sessionOf(onB)).session).toBeNull();
		} finally {
			await first.close();
			await second.close();
		}
	});

	test('a revocation store that fails keeps the session without extending it, and logs why', async () => {
		const store = MemoryRateLimitStore();
		store.revokedAt = () => {
			throw new Error('revocations offline');
		};
		const { clock, signedIn, sessionOf, log } = anyUserWorld({ session: { updateAge: 3600, revocationStore: store } });
		const client = await signedIn('ada');
		clock.now += 2 * HOUR;
		const { response, session } = await sessionOf(client);
		expect(session?.user?.name).toBe('ada');
		expect(response.headers.getSetCookie()).toEqual([]);
		expect(log.text()).toMatch(/AdapterError: The revocation store failed; the session was kept without being extended\. <- Error: revocations offline/);
	});

	test('an invalid revocation setting fails at start-up', async () => {
		const { config } = anyUserWorld({ session: { revocationCheck: 'sometimes' as 'always' } });
		const response = await testClient(config).request('/auth/session');
		expect(response.status).toBe(503);
		const badStore = anyUserWorld({ session: { revocationStore: {} as never } });
		expect((await testClient(badStore.config).request('/auth/session')).status).toBe(503);
	});
});

// JWT sessions listed and ended one by one (session/jwt-session-list.ts), through Auth(): each
// sign-in records a `jwt:<id>` row, sign-out and replacement remove it, re-issues move its "last
// seen", ending one revokes its id. The rows are never database sessions, the jwt callback cannot
// move a session onto another's id, and another user's id is refused. On the memory adapter and a
// SQLite file. The ids and row tokens alone: session/jwt-session-list.test.ts.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { resolveConfig } from '../config/resolve-config.js';
import { isJwtSessionRow, rowToken, SESSION_ID_CLAIM } from '../session/jwt-session-list.js';
import { revokeSessions } from '../session/revocation.js';
import type { Adapter } from '../types.js';
import { accountWorld, outcomeOf, START, UA_FIREFOX, UA_SAFARI } from './account-fixture.js';
import { TEST_SECRET } from './client.js';
import { memoryAndSqliteAdapters } from './stored-adapters.js';

const adapters = memoryAndSqliteAdapters('jwt-sessions');

describe.each(adapters)('%s adapter, JWT sessions', (_name, makeAdapter) => {
	const world = (overrides = {}) => accountWorld(makeAdapter(), 'jwt', overrides);

	async function rowsOf(adapter: Required<Adapter>, email: string) {
		const user = (await adapter.getUserByEmail(email))!;
		return adapter.listSessionsByUserId(user.id);
	}

	test('a sign-in records one row; signing out removes it; a sign-in over a session replaces its row', async () => {
		const w = world();
		const laptop = await w.signedIn();
		const [row] = await rowsOf(w.adapter, 'ada@example.com');
		expect(row?.sessionToken).toMatch(/^jwt:[A-Za-z0-9_-]{22}$/);
		expect(row?.userAgent).toBe(UA_FIREFOX);
		expect(new Date(row!.expires).getTime()).toBe(START + 30 * 86400 * 1000);

		await laptop.signInByEmail('ada@example.com');
		const replaced = await rowsOf(w.adapter, 'ada@example.com');
		expect(replaced).toHaveLength(1);
		expect(replaced[0]!.sessionToken).not.toBe(row!.sessionToken);

		const csrfToken = await laptop.client.csrfToken();
		expect((await laptop.request('/auth/signout', { form: { csrfToken } })).status).toBe(302);
		expect(await rowsOf(w.adapter, 'ada@example.com')).toEqual([]);
	});

	test('signing out revokes the session: a copy of its cookie taken before is refused', async () => {
		const w = world();
		const ada = await w.signedIn();
		const cookie = ada.client.jar.get('kitgate.session-token')!;
		const csrfToken = await ada.client.csrfToken();
		expect((await ada.request('/auth/signout', { form: { csrfToken } })).status).toBe(302);
		const copy = w.browserWithCookie(cookie);
		expect(await copy.session()).toBeNull();
	});

	test('a re-issued session moves its row: the list shows when it was last seen', async () => {
		const w = world();
		const { laptop, phone } = await w.laptopAndPhone();
		w.clock.now += 2 * 86400 * 1000; // past updateAge (one day): the next read re-issues
		expect((await phone.session())?.user?.email).toBe('ada@example.com');
		const other = (await laptop.overview()).sessions.find((s) => !s.current)!;
		expect(other).toMatchObject({ browser: 'Safari', createdAt: new Date(START).toISOString(), lastSeenAt: new Date(w.clock.now).toISOString() });
	});

	test('the jwt callback cannot move a session onto another id (the claim is kitgate\'s)', async () => {
		const w = world({
			callbacks: {
				jwt: ({ token }: { token: Record<string, unknown> }) => ({ ...token, [SESSION_ID_CLAIM]: 'chosen-by-the-app-callback' })
			}
		});
		const ada = await w.signedIn();
		const [row] = await rowsOf(w.adapter, 'ada@example.com');
		expect(row!.sessionToken).not.toBe(rowToken('chosen-by-the-app-callback'));
		w.clock.now += 2 * 86400 * 1000;
		expect(await ada.session()).not.toBeNull();
		const listed = (await ada.overview()).sessions;
		expect(listed).toHaveLength(1);
		expect(listed[0]!.current).toBe(true);
	});

	test('another user\'s session id is refused like a missing one, and that session goes on', async () => {
		const w = world();
		const ada = await w.signedIn();
		const eve = await w.signedIn('eve@example.com', UA_SAFARI);
		const adaId = (await ada.overview()).sessions[0]!.id;
		const refused = await eve.changeJson('end-session', { sessionId: adaId });
		expect(refused.status).toBe(400);
		expect(await ada.session()).not.toBeNull();
	});

	test('ending this browser\'s session by its listed id signs it out and revokes copies of its cookie', async () => {
		const w = world();
		const ada = await w.signedIn();
		const cookie = ada.client.jar.get('kitgate.session-token')!;
		const { id } = (await ada.overview()).sessions[0]!;
		expect(outcomeOf(await ada.change('end-session', { sessionId: id })).account).toBe('session-ended');
		expect(await ada.session()).toBeNull();
		const copy = w.browserWithCookie(cookie);
		expect(await copy.session()).toBeNull();
	});

	test('end-other-sessions removes the other rows; revokeSessions removes every row', async () => {
		const w = world();
		const { laptop } = await w.laptopAndPhone();
		expect(await rowsOf(w.adapter, 'ada@example.com')).toHaveLength(2);
		expect(outcomeOf(await laptop.change('end-other-sessions')).account).toBe('other-sessions-ended');
		expect((await rowsOf(w.adapter, 'ada@example.com')).map((row) => row.userAgent)).toEqual([UA_FIREFOX]);
		const user = await w.userOf('ada@example.com');
		w.clock.now += 2000; // the laptop's session was re-issued at the next whole second
		await revokeSessions(user.id, w.config);
		expect(await rowsOf(w.adapter, 'ada@example.com')).toEqual([]);
		expect(await laptop.session()).toBeNull();
	});

	test('listJwtSessions: false writes no rows and lists only this browser, as "current"', async () => {
		const w = world({ account: { listJwtSessions: false } });
		const { laptop } = await w.laptopAndPhone();
		expect(await rowsOf(w.adapter, 'ada@example.com')).toEqual([]);
		expect((await laptop.overview()).sessions.map((s) => [s.id, s.current])).toEqual([['current', true]]);
	});
});

describe.each(adapters)('%s adapter, database sessions', (_name, makeAdapter) => {
	test('a JWT session\'s row is never a database session, even with its exact token as the cookie', async () => {
		const adapter = makeAdapter();
		const jwtWorld = accountWorld(adapter, 'jwt');
		await jwtWorld.signedIn();
		const user = await jwtWorld.userOf('ada@example.com');
		const [row] = await jwtWorld.adapter.listSessionsByUserId(user.id);
		expect(isJwtSessionRow(row!.sessionToken)).toBe(true);
		// the same database, the app switched to database sessions
		const databaseWorld = accountWorld(adapter, 'database');
		const forger = databaseWorld.browserWithCookie(row!.sessionToken);
		expect(await forger.session()).toBeNull();
		expect((await forger.request('/auth/account')).status).toBe(401);
	});
});

describe('start-up', () => {
	test('listJwtSessions: true with an adapter that cannot delete a session row names the missing method', () => {
		const { deleteSession: _gone, ...adapter } = MemoryAdapter();
		expect(() => resolveConfig({ secret: TEST_SECRET, adapter, providers: [], session: { strategy: 'jwt' }, account: { listJwtSessions: true } })).toThrow(
			/deleteSession.*account\.listJwtSessions/
		);
	});

	test('listJwtSessions must be a boolean', () => {
		expect(() => resolveConfig({ secret: TEST_SECRET, adapter: MemoryAdapter(), providers: [], account: { listJwtSessions: 'yes' as never } })).toThrow(/listJwtSessions/);
	});
});

// Attacks on JWT sessions listed and ended one by one (jwt-session-list.ts): defences
// that held, as real requests through Auth() on the memory adapter, a SQLite file and PostgreSQL.
// Row tokens (`jwt:<id>`) as cookies under database sessions and Auth.js migration, other users'
// ids, ids in answers, callbacks that set or drop `kitgate.sid`, sid-less tokens, a failing
// revocation store or adapter, revocationCheck "refresh", a race of end-session and a re-issue.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { PostgresAdapter } from '../../../adapters/postgres.js';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import { SESSION_ID_CLAIM } from '../../session/jwt-session-list.js';
import type { Adapter, AdapterUser, JWT, RevocationStore } from '../../types.js';
import { accountWorld, outcomeOf, UA_FIREFOX, UA_SAFARI } from '../account-fixture.js';
import { TEST_SECRET } from '../client.js';
import { memoryAndSqliteAdapters } from '../stored-adapters.js';

const COOKIE = 'kitgate.session-token';

// PostgreSQL: a schema of its own for every world, dropped after the file
const connectionString = inject('databaseUrl');
const schemas: string[] = [];
const opened: PostgresAdapter[] = [];
afterAll(async () => {
	await Promise.all(opened.map((adapter) => adapter.close()));
	const admin = new pg.Pool({ connectionString, max: 1 });
	for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
	await admin.end();
});
function postgresAdapter(): Adapter {
	const schema = `r5_${randomBytes(6).toString('hex')}`;
	schemas.push(schema);
	const adapter = PostgresAdapter({ connectionString, schema });
	opened.push(adapter);
	return adapter;
}

const adapters: [string, () => Adapter][] = [...memoryAndSqliteAdapters('jwt-session-list'), ['postgres', postgresAdapter]];

type World = ReturnType<typeof accountWorld>;

async function userOf(w: World, email: string): Promise<AdapterUser> {
	return (await w.adapter.getUserByEmail(email))!;
}

async function jwtRows(w: World, email: string) {
	return (await w.adapter.listSessionsByUserId((await userOf(w, email)).id)).filter((row) => row.sessionToken.startsWith('jwt:'));
}

describe.each(adapters)('%s adapter, JWT sessions', (_name, makeAdapter) => {
	const jwtWorld = (overrides = {}) => accountWorld(makeAdapter(), 'jwt', overrides);

	test('end-session with a revocation store that fails answers a 4xx/503, never a 500, and the session is not taken as ended', async () => {
		const working = MemoryRateLimitStore();
		let failRevoke = false;
		const store: RevocationStore = {
			revokedAt: (key, now) => working.revokedAt(key, now),
			revoke: (key, at, keep) => {
				if (failRevoke) throw new Error('store down');
				return working.revoke(key, at, keep);
			}
		};
		const w = jwtWorld({ session: { strategy: 'jwt', revocationStore: store } });
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const phone = w.browser(UA_SAFARI);
		await phone.signInByEmail('ada@example.com');
		const phoneId = (await laptop.overview()).sessions.find((s) => !s.current)!.id;
		failRevoke = true;
		const answer = await laptop.changeJson('end-session', { sessionId: phoneId });
		expect(answer.status).not.toBe(500);
		expect(answer.status).toBeGreaterThanOrEqual(400);
		const other = await laptop.changeJson('end-other-sessions');
		expect(other.status).not.toBe(500);
		expect(other.status).toBeGreaterThanOrEqual(400);
		// nothing was ended: the phone is still listed (the page does not hide a live session)
		expect((await laptop.overview()).sessions).toHaveLength(2);
		expect((await phone.session())?.user?.email).toBe('ada@example.com');
	});

	test('the overview and end-session with an adapter whose session listing fails answer no 500', async () => {
		const adapter = makeAdapter() as Required<Adapter>;
		const w = accountWorld(adapter, 'jwt');
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const realList = adapter.listSessionsByUserId.bind(adapter);
		adapter.listSessionsByUserId = async () => {
			throw new Error('db down');
		};
		expect((await laptop.request('/auth/account', { headers: { accept: 'application/json' } })).status).not.toBe(500);
		expect((await laptop.changeJson('end-session', { sessionId: 'AAAAAAAAAAAAAAAAAAAAAA' })).status).not.toBe(500);
		expect((await laptop.changeJson('end-other-sessions')).status).not.toBe(500);
		adapter.listSessionsByUserId = realList;
	});

	test('a revocation store whose reads fail grants no account page and no extension', async () => {
		const store: RevocationStore = { revokedAt: () => Promise.reject(new Error('down')), revoke: () => Promise.reject(new Error('down')) };
		const w = jwtWorld({ session: { strategy: 'jwt', revocationStore: store } });
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const account = await laptop.request('/auth/account', { headers: { accept: 'application/json' } });
		expect(account.status).toBe(401);
		const before = laptop.client.jar.get(COOKIE);
		w.clock.now += 2 * 86400_000;
		const answer = await laptop.request('/auth/session');
		expect(answer.status).toBe(200);
		expect(laptop.client.jar.get(COOKIE)).toBe(before);
	});

	test('revocationCheck "refresh": a session ended from the account page stops at the latest on its next re-issue', async () => {
		const w = jwtWorld({ session: { strategy: 'jwt', revocationCheck: 'refresh' } });
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const phone = w.browser(UA_SAFARI);
		await phone.signInByEmail('ada@example.com');
		const phoneId = (await laptop.overview()).sessions.find((s) => !s.current)!.id;
		expect((await laptop.changeJson('end-session', { sessionId: phoneId })).status).toBe(200);
		// the account routes always check
		expect((await phone.request('/auth/account', { headers: { accept: 'application/json' } })).status).toBe(401);
		w.clock.now += 86400_000 + 1000;
		expect(await phone.session()).toBeNull();
	});

	test('end-session racing a re-issue of that session: the session ends and its row does not come back', async () => {
		const w = jwtWorld();
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const phone = w.browser(UA_SAFARI);
		await phone.signInByEmail('ada@example.com');
		const phoneId = (await laptop.overview()).sessions.find((s) => !s.current)!.id;
		w.clock.now += 2 * 86400_000;
		// ending another session needs a recent sign-in: the laptop signs in again (the phone's is due for re-issue)
		await laptop.signInByEmail('ada@example.com');
		const csrfToken = await laptop.client.csrfToken();
		await Promise.all([phone.request('/auth/session'), laptop.request('/auth/account/end-session', { json: { csrfToken, sessionId: phoneId } }), phone.request('/auth/session')]);
		expect(await phone.session()).toBeNull();
		expect((await jwtRows(w, 'ada@example.com')).map((row) => row.userAgent)).toEqual([UA_FIREFOX]);
	});

	test('a session update (trigger "update") whose jwt callback merges client data cannot set kitgate.sid to another session\'s or drop it', async () => {
		const w = jwtWorld({
			callbacks: { jwt: ({ token, trigger, session }: { token: JWT; trigger?: string; session?: unknown }) => (trigger === 'update' && session && typeof session === 'object' ? { ...token, ...(session as JWT) } : token) }
		});
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const phone = w.browser(UA_SAFARI);
		await phone.signInByEmail('ada@example.com');
		const phoneId = (await laptop.overview()).sessions.find((s) => !s.current)!.id;
		// the phone's session, ended, tries to take another id or none through update
		expect((await laptop.changeJson('end-session', { sessionId: phoneId })).status).toBe(200);
		for (const data of [{ [SESSION_ID_CLAIM]: 'AAAAAAAAAAAAAAAAAAAAAA' }, { [SESSION_ID_CLAIM]: null }]) {
			const answer = await phone.request('/auth/session', { json: { csrfToken: await phone.client.csrfToken(), data } });
			expect(await answer.json()).toBeNull();
		}
		// the laptop's own session cannot be moved onto the phone's ended id (or lose its own) either
		for (const data of [{ [SESSION_ID_CLAIM]: null }, { [SESSION_ID_CLAIM]: 'BBBBBBBBBBBBBBBBBBBBBB' }]) {
			await laptop.request('/auth/session', { json: { csrfToken: await laptop.client.csrfToken(), data } });
		}
		const [current] = (await laptop.overview()).sessions;
		expect(current!.id).not.toBe('current');
		expect(outcomeOf(await laptop.change('end-session', { sessionId: current!.id })).account).toBe('session-ended');
	});

	test('a JWT without kitgate.sid (an older kitgate\'s) is ended by end-other-sessions', async () => {
		const w = jwtWorld();
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const ada = await userOf(w, 'ada@example.com');
		const { encodeJwt } = await import('../../crypto/jwt.js');
		const old = w.browser(UA_SAFARI);
		old.client.jar.set(COOKIE, await encodeJwt({ token: { sub: ada.id, email: 'ada@example.com', 'kitgate.subject': 'user' }, secret: TEST_SECRET, salt: COOKIE, maxAge: 3600, now: w.clock.now }));
		expect((await old.overview()).sessions[0]!.id).toBe('current');
		w.clock.now += 1000;
		expect(outcomeOf(await laptop.change('end-other-sessions')).account).toBe('other-sessions-ended');
		w.clock.now += 1000;
		expect(await old.session()).toBeNull();
		expect((await laptop.session())?.user?.email).toBe('ada@example.com');
	});

	test('neither the overview nor the session answer carries a session id or a row token', async () => {
		const w = jwtWorld();
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const phone = w.browser(UA_SAFARI);
		await phone.signInByEmail('ada@example.com');
		const rows = await jwtRows(w, 'ada@example.com');
		const page = await (await laptop.request('/auth/account')).text();
		const html = await (await laptop.request('/auth/account', { headers: { accept: 'text/html' } })).text();
		const session = await (await laptop.request('/auth/session')).text();
		for (const row of rows) {
			const id = row.sessionToken.slice(4);
			for (const body of [page, html, session]) expect(body).not.toContain(id);
		}
	});

	test('end-session with another user\'s listed id, the literal row token or the raw id is refused; the session goes on', async () => {
		const w = jwtWorld();
		const ada = w.browser(UA_FIREFOX);
		await ada.signInByEmail('ada@example.com');
		const eve = w.browser(UA_SAFARI);
		await eve.signInByEmail('eve@example.com');
		const [row] = await jwtRows(w, 'ada@example.com');
		for (const sessionId of [row!.sessionToken, row!.sessionToken.slice(4), (await ada.overview()).sessions[0]!.id]) {
			expect((await eve.changeJson('end-session', { sessionId })).status).toBe(400);
		}
		expect((await ada.session())?.user?.email).toBe('ada@example.com');
		expect(await jwtRows(w, 'ada@example.com')).toHaveLength(1);
	});

	test('deleting the account leaves no JWT session rows, and the deleted user\'s other session ends', async () => {
		const w = jwtWorld();
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const phone = w.browser(UA_SAFARI);
		await phone.signInByEmail('ada@example.com');
		const id = (await userOf(w, 'ada@example.com')).id;
		expect(outcomeOf(await laptop.change('delete')).account).toBe('account-deleted');
		expect(await w.adapter.listSessionsByUserId(id)).toEqual([]);
		expect(await phone.session()).toBeNull();
	});

	test('many sign-ins from one browser keep one row', async () => {
		const w = jwtWorld();
		const laptop = w.browser(UA_FIREFOX);
		for (let i = 0; i < 5; i++) {
			w.clock.now += 4 * 60_000;
			await laptop.signInByEmail('ada@example.com');
		}
		expect(await jwtRows(w, 'ada@example.com')).toHaveLength(1);
	});
});

describe.each(adapters)('%s adapter, database sessions over JWT rows', (_name, makeAdapter) => {
	test('a jwt: row token as an Auth.js database cookie (migrateSessionsFrom) is no session, and signing out with it deletes nothing', async () => {
		const adapter = makeAdapter();
		const jwt = accountWorld(adapter, 'jwt');
		await jwt.browser().signInByEmail('ada@example.com');
		const [row] = await jwtRows(jwt, 'ada@example.com');
		const db = accountWorld(adapter, 'database', { migrateSessionsFrom: 'authjs' });
		const forger = db.browser();
		forger.client.jar.set('authjs.session-token', row!.sessionToken);
		expect(await forger.session()).toBeNull();
		expect((await forger.request('/auth/account', { headers: { accept: 'application/json' } })).status).toBe(401);
		const forger2 = db.browser();
		forger2.client.jar.set('authjs.session-token', row!.sessionToken);
		await forger2.request('/auth/signout', { form: { csrfToken: await forger2.client.csrfToken() } });
		const forger3 = db.browser();
		forger3.client.jar.set(COOKIE, row!.sessionToken);
		await forger3.request('/auth/signout', { form: { csrfToken: await forger3.client.csrfToken() } });
		expect(await jwtRows(jwt, 'ada@example.com')).toHaveLength(1);
	});

	test('a jwt: row token as a database cookie during a sign-in is neither read nor deleted', async () => {
		const adapter = makeAdapter();
		const jwt = accountWorld(adapter, 'jwt');
		await jwt.browser().signInByEmail('ada@example.com');
		const [row] = await jwtRows(jwt, 'ada@example.com');
		const db = accountWorld(adapter, 'database');
		const forger = db.browser();
		forger.client.jar.set(COOKIE, row!.sessionToken);
		await forger.signInByEmail('eve@example.com');
		expect(await jwtRows(jwt, 'ada@example.com')).toHaveLength(1);
		expect((await forger.session())?.user?.email).toBe('eve@example.com');
	});
});

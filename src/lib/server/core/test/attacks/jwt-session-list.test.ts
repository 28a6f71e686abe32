// Attacks on JWT sessions listed and ended one by one (jwt-session-list.ts), as real requests
// through Auth() on the memory adapter and a SQLite file, and PostgreSQL for the defences that held.
//
// The attacks that worked, each failing before its fix: a credentials session whose `sub` is
// authorize()'s id escaped its stored user's revocations (now the kitgate.user claim); an ended
// session still used the passkey routes (signedInSession checks revocations now); a flood of
// self-ended sessions pushed a victim's revocation out of the memory store (sign-outs are
// best-effort records in their own pool); copies of a signed-out or replaced cookie lived on
// unlisted (the id is revoked now); sign-ins through the second step were not listed, or left the
// replaced session's row.
//
// The defences that held: row tokens (`jwt:<id>`) as cookies under database sessions and Auth.js
// migration, other users' ids, ids in answers, callbacks that set or drop `kitgate.sid`, sid-less
// tokens, a failing revocation store or adapter, revocationCheck "refresh", a race of end-session
// and a re-issue.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { PostgresAdapter } from '../../../adapters/postgres.js';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import { SESSION_ID_CLAIM } from '../../session/jwt-session-list.js';
import { revokeSessions } from '../../session/revocation.js';
import type { Adapter, JWT, RevocationStore } from '../../types.js';
import { accountWorld, memberCredentials, outcomeOf, SESSION_COOKIE, signInAsMember, UA_FIREFOX, UA_SAFARI } from '../account-fixture.js';
import { TEST_SECRET } from '../client.js';
import { memoryAndSqliteAdapters } from '../stored-adapters.js';
import { twoFactorWorld } from '../two-factor-fixture.js';


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

const storedAdapters = memoryAndSqliteAdapters('jwt-session-list');
const adapters: [string, () => Adapter][] = [...storedAdapters, ['postgres', postgresAdapter]];

type World = ReturnType<typeof accountWorld>;

async function jwtRows(w: World, email: string) {
	return (await w.sessionRowsOf(email)).filter((row) => row.sessionToken.startsWith('jwt:'));
}

describe('attacks that worked, each failing before its fix', () => {
	describe.each(storedAdapters)('%s adapter', (_name, makeAdapter) => {
		const jwtWorld = (overrides = {}) => accountWorld(makeAdapter(), 'jwt', overrides);

		test('a credentials session (authorize() id linked to a stored user) is ended by end-other-sessions, not only unlisted', async () => {
			const w = jwtWorld();
			w.config.providers = [...w.config.providers, memberCredentials()];
			const laptop = await w.signedIn();
			const ada = await w.userOf('ada@example.com');
			await w.adapter.linkAccount({ userId: ada.id, provider: 'credentials', type: 'credentials', providerAccountId: 'member-ada' });
			const thief = w.browser(UA_SAFARI);
			w.clock.now += 1000;
			expect((await signInAsMember(thief, 'ada@example.com')).status).toBe(302);
			expect((await thief.overview()).user.id).toBe(ada.id);
			// the thief's session is listed on ada's page
			expect((await laptop.overview()).sessions).toHaveLength(2);
			w.clock.now += 1000;
			expect(outcomeOf(await laptop.change('end-other-sessions')).account).toBe('other-sessions-ended');
			w.clock.now += 1000;
			expect((await laptop.overview()).sessions, 'no longer listed').toHaveLength(1);
			expect(await thief.session(), 'the credentials session survived end-other-sessions').toBeNull();
		});

		test('a credentials session (authorize() id linked to a stored user) is ended by revokeSessions(stored id)', async () => {
			const w = jwtWorld();
			w.config.providers = [...w.config.providers, memberCredentials()];
			await w.browser().signInByEmail('ada@example.com');
			const ada = await w.userOf('ada@example.com');
			await w.adapter.linkAccount({ userId: ada.id, provider: 'credentials', type: 'credentials', providerAccountId: 'member-ada' });
			const thief = w.browser(UA_SAFARI);
			expect((await signInAsMember(thief, 'ada@example.com')).status).toBe(302);
			w.clock.now += 2000;
			await revokeSessions(ada.id, w.config);
			w.clock.now += 1000;
			expect(await thief.session(), 'the credentials session survived revokeSessions').toBeNull();
		});

		test('a credentials sign-in finished with a second factor is listed on the account page', async () => {
			const w = twoFactorWorld(makeAdapter(), 'jwt');
			const laptop = await w.signedIn();
			const { secret } = await laptop.enrol();
			w.clock.now += 30_000;
			const phone = w.browser(UA_SAFARI);
			await phone.signInWithPassword();
			const done = await phone.secondStepJson(w.code(secret));
			expect(done.status).toBe(200);
			expect((await phone.session())?.user?.email).toBe('ada@example.com');
			expect((await laptop.overview()).sessions.map((s) => s.browser), 'the phone\'s session is missing from the list').toHaveLength(2);
		});

		test.each(['a sign-out', 'a new sign-in over it'] as const)('a copy of a JWT session\'s cookie taken before %s is refused, or at least still listed so it can be ended', async (how) => {
			const w = jwtWorld();
			const laptop = await w.signedIn();
			const copied = laptop.client.jar.get(SESSION_COOKIE)!;
			if (how === 'a sign-out') {
				expect((await laptop.signOut()).status).toBe(302);
			} else {
				w.clock.now += 60_000;
				await laptop.signInByEmail('ada@example.com');
			}
			const thief = w.browserWithCookie(copied, UA_SAFARI);
			const phone = await w.signedIn('ada@example.com', UA_SAFARI);
			const alive = (await thief.session()) !== null;
			const listed = (await phone.overview()).sessions.length;
			// the phone, and the laptop's new session after a new sign-in
			const others = how === 'a sign-out' ? 1 : 2;
			expect(!alive || listed > others, `the copied cookie still works (${alive}) and is not listed (${listed} sessions)`).toBe(true);
		});

	});

	describe.each(storedAdapters)('%s adapter, flooding the revocation store', (_name, makeAdapter) => {
		test('an attacker signing in and ending their own session over and over cannot push a victim\'s ended session out of the revocation store', async () => {
			const store = MemoryRateLimitStore({ maxRevocations: 10 });
			const w = accountWorld(makeAdapter(), 'jwt', { session: { strategy: 'jwt', revocationStore: store } });
			const { laptop, phone } = await w.laptopAndPhone();
			const stolen = phone.client.jar.get(SESSION_COOKIE)!;
			const phoneId = await laptop.otherSessionId();
			expect((await laptop.changeJson('end-session', { sessionId: phoneId })).status).toBe(200);
			const thief = w.browserWithCookie(stolen, UA_SAFARI);
			expect(await thief.session()).toBeNull();

			// eve, any user, with a passkey: sign in, end "this session", again
			const eve = w.browser();
			await eve.addPasskey('eve@example.com');
			for (let i = 0; i < 12; i++) {
				w.clock.now += 1000;
				await eve.signInWithPasskey();
				expect((await eve.changeJson('end-session', { sessionId: 'current' })).status).toBe(200);
			}
			const again = w.browserWithCookie(stolen, UA_SAFARI);
			expect(await again.session(), 'the ended session came back').toBeNull();
		});

		test('a sign-in that goes through the second step over an existing session replaces its row', async () => {
			const w = twoFactorWorld(makeAdapter(), 'jwt');
			const laptop = await w.signedIn();
			const { secret } = await laptop.enrol();
			w.clock.now += 30_000;
			await laptop.signInByEmail('ada@example.com');
			const done = await laptop.secondStepJson(w.code(secret));
			expect(done.status).toBe(200);
			expect((await laptop.session())?.user?.email).toBe('ada@example.com');
			expect(await jwtRows(w, 'ada@example.com'), 'the replaced session\'s row is still listed').toHaveLength(1);
		});
	});

	describe.each(storedAdapters)('%s adapter, an ended session on the passkey routes', (_name, makeAdapter) => {
		test.each(['end-session', 'end-other-sessions'] as const)('a thief\'s session ended by %s can neither list nor remove the victim\'s passkeys', async (how) => {
			const w = accountWorld(makeAdapter(), 'jwt');
			const laptop = await w.signedIn();
			await laptop.addPasskey();
			const thief = await w.signedIn('ada@example.com', UA_SAFARI);
			w.clock.now += 1000;
			if (how === 'end-session') {
				const thiefId = await laptop.otherSessionId();
				expect((await laptop.changeJson('end-session', { sessionId: thiefId })).status).toBe(200);
			} else {
				expect(outcomeOf(await laptop.change('end-other-sessions')).account).toBe('other-sessions-ended');
			}
			w.clock.now += 1000;
			const listed = await thief.request('/auth/webauthn-authenticators/passkey');
			expect.soft(listed.status, 'the ended session lists ada\'s passkeys').toBe(401);
			const id = (await w.adapter.listAuthenticatorsByUserId((await w.userOf('ada@example.com')).id))[0]!.credentialID;
			await thief.request('/auth/webauthn-authenticators/passkey', { json: { csrfToken: await thief.client.csrfToken(), credentialID: id } });
			expect(await w.adapter.listAuthenticatorsByUserId((await w.userOf('ada@example.com')).id), 'the ended session removed ada\'s passkey').toHaveLength(1);
		});
	});
});

describe('defences that held', () => {
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
			const { laptop, phone } = await w.laptopAndPhone();
			const phoneId = await laptop.otherSessionId();
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
			const laptop = await w.signedIn();
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
			const laptop = await w.signedIn();
			const account = await laptop.request('/auth/account', { headers: { accept: 'application/json' } });
			expect(account.status).toBe(401);
			const before = laptop.client.jar.get(SESSION_COOKIE);
			w.clock.now += 2 * 86400_000;
			const answer = await laptop.request('/auth/session');
			expect(answer.status).toBe(200);
			expect(laptop.client.jar.get(SESSION_COOKIE)).toBe(before);
		});

		test('revocationCheck "refresh": a session ended from the account page stops at the latest on its next re-issue', async () => {
			const w = jwtWorld({ session: { strategy: 'jwt', revocationCheck: 'refresh' } });
			const { laptop, phone } = await w.laptopAndPhone();
			const phoneId = await laptop.otherSessionId();
			expect((await laptop.changeJson('end-session', { sessionId: phoneId })).status).toBe(200);
			// the account routes always check
			expect((await phone.request('/auth/account', { headers: { accept: 'application/json' } })).status).toBe(401);
			w.clock.now += 86400_000 + 1000;
			expect(await phone.session()).toBeNull();
		});

		test('end-session racing a re-issue of that session: the session ends and its row does not come back', async () => {
			const w = jwtWorld();
			const { laptop, phone } = await w.laptopAndPhone();
			const phoneId = await laptop.otherSessionId();
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
			const { laptop, phone } = await w.laptopAndPhone();
			const phoneId = await laptop.otherSessionId();
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
			const laptop = await w.signedIn();
			const ada = await w.userOf('ada@example.com');
			const { encodeJwt } = await import('../../crypto/jwt.js');
			const old = w.browserWithCookie(await encodeJwt({ token: { sub: ada.id, email: 'ada@example.com', 'kitgate.subject': 'user' }, secret: TEST_SECRET, salt: SESSION_COOKIE, maxAge: 3600, now: w.clock.now }), UA_SAFARI);
			expect((await old.overview()).sessions[0]!.id).toBe('current');
			w.clock.now += 1000;
			expect(outcomeOf(await laptop.change('end-other-sessions')).account).toBe('other-sessions-ended');
			w.clock.now += 1000;
			expect(await old.session()).toBeNull();
			expect((await laptop.session())?.user?.email).toBe('ada@example.com');
		});

		test('neither the overview nor the session answer carries a session id or a row token', async () => {
			const w = jwtWorld();
			const { laptop } = await w.laptopAndPhone();
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
			const ada = await w.signedIn();
			const eve = await w.signedIn('eve@example.com', UA_SAFARI);
			const [row] = await jwtRows(w, 'ada@example.com');
			for (const sessionId of [row!.sessionToken, row!.sessionToken.slice(4), (await ada.overview()).sessions[0]!.id]) {
				expect((await eve.changeJson('end-session', { sessionId })).status).toBe(400);
			}
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
			expect(await jwtRows(w, 'ada@example.com')).toHaveLength(1);
		});

		test('deleting the account leaves no JWT session rows, and the deleted user\'s other session ends', async () => {
			const w = jwtWorld();
			const { laptop, phone } = await w.laptopAndPhone();
			const id = (await w.userOf('ada@example.com')).id;
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
			await forger2.signOut();
			const forger3 = db.browserWithCookie(row!.sessionToken);
			await forger3.signOut();
			expect(await jwtRows(jwt, 'ada@example.com')).toHaveLength(1);
		});

		test('a jwt: row token as a database cookie during a sign-in is neither read nor deleted', async () => {
			const adapter = makeAdapter();
			const jwt = accountWorld(adapter, 'jwt');
			await jwt.browser().signInByEmail('ada@example.com');
			const [row] = await jwtRows(jwt, 'ada@example.com');
			const db = accountWorld(adapter, 'database');
			const forger = db.browserWithCookie(row!.sessionToken);
			await forger.signInByEmail('eve@example.com');
			expect(await jwtRows(jwt, 'ada@example.com')).toHaveLength(1);
			expect((await forger.session())?.user?.email).toBe('eve@example.com');
		});
	});
});

// Attack: a banned user keeps a copy of a session somewhere kitgate reads. Over HTTP through both
// integrations, on memory and SQLite, under both session strategies: the copy of a database
// session in the session cache, a session refreshed by `POST /auth/session`, an Auth.js session
// cookie (`migrateSessionsFrom`), and a ban lifted then set again. After the ban, none of them is
// a session on the next request.

import { expect, test } from 'vitest';
import { Browser } from '../integrations.js';
import { attackWorld, errorOf, sessionOf } from './flows.js';
import { describeEachStoredUserWorld, storedUserConfig, type StoredUserWorld } from './stored-user-world.js';

const world = attackWorld();

const configOf = (w: StoredUserWorld) =>
	storedUserConfig(w, {
		migrateSessionsFrom: 'authjs',
		// copies of database sessions in an encrypted cookie, used for a minute
		session: { strategy: w.strategy, ...(w.strategy === 'database' ? { cache: { maxAge: 60 } } : {}) }
	});

describeEachStoredUserWorld(world, 'banned-user-copies', configOf, (w) => {
	const { app, clock, strategy, storedUser, ban, signInWithPassword: signIn } = w;
	test('a session read from its copy (session cache) or refreshed by POST /auth/session ends at the ban', async () => {
		const user = await storedUser('carol');
		const browser = new Browser();
		expect(errorOf(await signIn(browser, user.email))).toBeUndefined();
		// read twice: the second read may come from the copy
		expect((await sessionOf(browser, app()))?.user?.id).toBe(user.id);
		expect((await sessionOf(browser, app()))?.user?.id).toBe(user.id);
		const copy = new Browser();
		copy.jar.set(new URL(app().origin).host, new Map(browser.jar.get(new URL(app().origin).host)));

		await ban(user.id);
		expect(await sessionOf(browser, app())).toBeNull();
		const csrfToken = await copy.csrfToken(app().origin);
		const refreshed = await copy.request(`${app().origin}/auth/session`, { json: { csrfToken, data: { name: 'still here' } } });
		expect(await refreshed.json()).toBeNull();
		expect(await sessionOf(copy, app())).toBeNull();
	});

	// (an Auth.js JWT cookie of a banned user: banned-user-passkeys-and-sessions.test.ts)
	if (strategy === 'database') test('an Auth.js database session cookie of a banned user is no session', async () => {
		const user = await storedUser('dave');
		const sessionToken = crypto.randomUUID();
		await w.adapter.createSession({ sessionToken, userId: user.id, expires: new Date(clock.now + 86_400_000) });
		const browser = new Browser();
		browser.jar.set(new URL(app().origin).host, new Map([['authjs.session-token', sessionToken]]));
		const copy = new Browser();
		copy.jar.set(new URL(app().origin).host, new Map([['authjs.session-token', sessionToken]]));
		expect((await sessionOf(browser, app()))?.user?.id).toBe(user.id);
		await ban(user.id);
		expect(await sessionOf(copy, app())).toBeNull();
		expect(await sessionOf(browser, app())).toBeNull();
	});

	test('unbanned, the user signs in again; banned again, that session ends and sign-in is refused', async () => {
		const user = await storedUser('erin');
		await ban(user.id);
		expect(errorOf(await signIn(new Browser(), user.email))).toBe('UserBanned');
		await w.adapter.setUserAdmin({ userId: user.id, bannedAt: null, banReason: null, banExpires: null });
		const browser = new Browser();
		expect(errorOf(await signIn(browser, user.email))).toBeUndefined();
		expect((await sessionOf(browser, app()))?.user?.id).toBe(user.id);
		await ban(user.id);
		expect(await sessionOf(browser, app())).toBeNull();
		expect(errorOf(await signIn(new Browser(), user.email))).toBe('UserBanned');
	});
});

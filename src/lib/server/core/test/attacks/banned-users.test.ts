// Attack: a banned user keeps a way in. Over HTTP through both integrations, on memory and SQLite,
// under both session strategies: after a ban (the admin record, then `revokeSessions`, as the admin
// routes do) the user's old session reads as no session on its next request, and every sign-in
// method — a password, an email link asked for before the ban, an OpenID Connect account already
// linked, a pending second step — is refused with `UserBanned` before any session cookie is
// written. An expired ban is no ban.

import { expect, test } from 'vitest';
import { sinkProvider } from '../email-fixtures.js';
import { Browser } from '../integrations.js';
import { address, attackWorld, confirmLink, errorOf, linkFor, requestLink, sessionOf, signInByEmail, signInWithIdp } from './flows.js';
import { describeEachStoredUserWorld, storedUserConfig, type StoredUserWorld } from './stored-user-world.js';

const world = attackWorld({ sink: true, idp: ['idp'] });
const DAY = 86_400_000;

const configOf = (w: StoredUserWorld) => storedUserConfig(w, { providers: [sinkProvider(world.sink), world.idp.provider('idp', { allowDangerousEmailAccountLinking: true })] });

describeEachStoredUserWorld(world, 'banned-users', configOf, (w) => {
	const { app, clock, storedUser, ban, signInWithPassword } = w;

	const sessionCookies = (browser: Browser) => [...(browser.jar.get(new URL(app().origin).host)?.keys() ?? [])].filter((name) => name.includes('session-token'));

	test('a ban ends the old session on its next request, and the password sign-in is refused with UserBanned, no session cookie written', async () => {
		const user = await storedUser('mallory');
		const old = new Browser();
		expect((await signInWithPassword(old, user.email)).status).toBe(302);
		expect((await sessionOf(old, app()))?.user?.id).toBe(user.id);

		await ban(user.id);
		expect(await sessionOf(old, app())).toBeNull();
		expect(await (await old.request(`${app().origin}/auth/session`)).json()).toBeNull();

		const fresh = new Browser();
		const refused = await signInWithPassword(fresh, user.email);
		expect(errorOf(refused)).toBe('UserBanned');
		expect(new URL(refused.headers.get('location')!, app().origin).pathname).toMatch(/signin$/);
		expect(sessionCookies(fresh)).toEqual([]);
		expect(await sessionOf(fresh, app())).toBeNull();
	});

	test('an email link asked for before the ban is refused at its use with UserBanned', async () => {
		const user = await storedUser('eve');
		const browser = new Browser();
		expect((await requestLink(browser, app(), user.email)).status).toBe(302);
		const link = linkFor(world.sink, user.email);
		await ban(user.id);
		const used = await confirmLink(browser, link);
		expect(errorOf(used)).toBe('UserBanned');
		expect(sessionCookies(browser)).toEqual([]);
		expect(await sessionOf(browser, app())).toBeNull();
	});

	test('an OpenID Connect account already linked to the banned user is refused with UserBanned', async () => {
		const email = address('oscar');
		const login = `oscar-${crypto.randomUUID().slice(0, 8)}`;
		world.idp.addAccount({ id: login, email, name: 'Oscar', email_verified: true });
		const first = new Browser();
		await signInWithIdp(first, app(), 'idp', login);
		const session = await sessionOf(first, app());
		expect(session?.user?.email).toBe(email);
		await ban(session!.user!.id!);
		expect(await sessionOf(first, app())).toBeNull();

		const again = new Browser();
		const refused = await signInWithIdp(again, app(), 'idp', login);
		expect(errorOf(refused)).toBe('UserBanned');
		expect(sessionCookies(again)).toEqual([]);
	});

	test('a pending second step no longer completes once the user is banned (UserBanned, pending cookie removed)', async () => {
		const user = await storedUser('trent');
		// any second factor sends the sign-in to the second step; the ban is checked before the code
		await w.adapter.setTwoFactor({ userId: user.id, totpSecret: 'sealed', lastUsedStep: null, recoveryCodes: [], createdAt: new Date(clock.now) });
		const browser = new Browser();
		const primary = await signInWithPassword(browser, user.email);
		expect(new URL(primary.headers.get('location')!, app().origin).pathname).toBe('/auth/second-factor');
		const pendingCookie = () => [...(browser.jar.get(new URL(app().origin).host)?.keys() ?? [])].find((name) => name.includes('second-factor'));
		expect(pendingCookie()).toBeDefined();

		await ban(user.id);
		const csrfToken = await browser.csrfToken(app().origin);
		const step = await browser.request(`${app().origin}/auth/second-factor`, { form: { csrfToken, code: '123456' } });
		expect(errorOf(step)).toBe('UserBanned');
		expect(pendingCookie()).toBeUndefined();
		expect(sessionCookies(browser)).toEqual([]);
	});

	test('an expired ban is no ban: the same user signs in with a password and with an email link', async () => {
		const user = await storedUser('peggy');
		await ban(user.id, new Date(clock.now + DAY));
		expect(errorOf(await signInWithPassword(new Browser(), user.email))).toBe('UserBanned');
		clock.now += DAY + 1000;
		const browser = new Browser();
		expect(errorOf(await signInWithPassword(browser, user.email))).toBeUndefined();
		expect((await sessionOf(browser, app()))?.user?.id).toBe(user.id);
		const other = new Browser();
		await signInByEmail(other, app(), world.sink, user.email);
		expect((await sessionOf(other, app()))?.user?.id).toBe(user.id);
	});
});

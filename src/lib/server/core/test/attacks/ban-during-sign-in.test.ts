// Attack: a sign-in that completes at the moment of a ban. Over HTTP through both integrations, on
// memory and SQLite, under both session strategies: the ban (the admin record, then every session
// ended, as the admin routes do it) lands right after the sign-in read the user's record and found
// no ban, before the sign-in wrote its session. The session the sign-in then writes must not be a
// live session of the banned user: not in the app, not on the next request.

import { expect, test } from 'vitest';
import { revokeSessions } from '../../session/revocation.js';
import { Browser } from '../integrations.js';
import { address, attackWorld, errorOf, sessionOf, signInWithIdp } from './flows.js';
import { describeEachStoredUserWorld, storedUserConfig, type StoredUserWorld } from './stored-user-world.js';

const world = attackWorld({ idp: ['idp'] });
/** The user whose next ban check is followed at once by their ban. */
let banAfterCheckOf: string | undefined;

function configOf(w: StoredUserWorld) {
	const readRecord = w.adapter.getUserAdmin.bind(w.adapter);
	// the ban commits right after the sign-in's check read the record (still unbanned)
	w.adapter.getUserAdmin = async (userId) => {
		const record = await readRecord(userId);
		if (userId === banAfterCheckOf) {
			banAfterCheckOf = undefined;
			await w.adapter.setUserAdmin({ userId, bannedAt: new Date(w.clock.now), banReason: 'spam', banExpires: null });
			await revokeSessions(userId, w.config);
		}
		return record;
	};
	return storedUserConfig(w, { providers: [world.idp.provider('idp', { allowDangerousEmailAccountLinking: true })] });
}

describeEachStoredUserWorld(world, 'ban-during-sign-in', configOf, (w) => {
	const { app, clock, admins, storedUser } = w;
	/** The banned user has no session in `browser`, now and a second later. */
	async function expectNoSession(browser: Browser): Promise<void> {
		expect(await sessionOf(browser, app())).toBeNull();
		clock.now += 1000;
		expect(await sessionOf(browser, app())).toBeNull();
		expect(await (await browser.request(`${app().origin}/auth/session`)).json()).toBeNull();
	}

	test('a password sign-in the ban overtakes leaves no live session (UserBanned)', async () => {
		const user = await storedUser('mallet');
		const browser = new Browser();
		const csrfToken = await browser.csrfToken(app().origin);
		banAfterCheckOf = user.id;
		const answer = await browser.request(`${app().origin}/auth/callback/credentials`, { form: { csrfToken, email: user.email, password: 'right', callbackUrl: '/' } });
		expect(banAfterCheckOf).toBeUndefined();
		expect(errorOf(answer)).toBe('UserBanned');
		await expectNoSession(browser);
	});

	test('an OpenID Connect sign-in the ban overtakes leaves no live session (UserBanned)', async () => {
		const email = address('olaf');
		const login = `olaf-${crypto.randomUUID().slice(0, 8)}`;
		world.idp.addAccount({ id: login, email, name: 'Olaf', email_verified: true });
		const first = new Browser();
		await signInWithIdp(first, app(), 'idp', login);
		const userId = (await sessionOf(first, app()))!.user!.id!;

		const browser = new Browser();
		banAfterCheckOf = userId;
		const answer = await signInWithIdp(browser, app(), 'idp', login);
		expect(banAfterCheckOf).toBeUndefined();
		expect(errorOf(answer)).toBe('UserBanned');
		await expectNoSession(browser);
		await expectNoSession(first);
	});

	test('an impersonation the ban of its user overtakes is not started: the admin keeps their own session', async () => {
		const admin = await storedUser('amy');
		admins.push(admin.id);
		const user = await storedUser('ursula');
		const browser = new Browser();
		let csrfToken = await browser.csrfToken(app().origin);
		await browser.request(`${app().origin}/auth/callback/credentials`, { form: { csrfToken, email: admin.email, password: 'right', callbackUrl: '/' } });
		expect((await sessionOf(browser, app()))?.user?.id).toBe(admin.id);
		csrfToken = await browser.csrfToken(app().origin);
		banAfterCheckOf = user.id;
		const answer = await browser.request(`${app().origin}/auth/admin/impersonate`, { json: { csrfToken, userId: user.id } });
		expect(banAfterCheckOf).toBeUndefined();
		expect(answer.status).toBe(403);
		expect(((await answer.json()) as { error?: string }).error).toBe('UserBanned');
		clock.now += 1000;
		const after = await sessionOf(browser, app());
		expect(after?.user?.id).toBe(admin.id);
		expect(after?.impersonation).toBeUndefined();
	});
});

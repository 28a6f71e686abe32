// Attacks on JWT sessions listed and ended one by one (jwt-session-list.ts): the attacks that worked, each
// failing before its fix. A credentials session whose `sub` is authorize()'s id escaped its stored
// user's revocations (now the kitgate.user claim); an ended session still used the passkey routes
// (signedInSession checks revocations now); a flood of self-ended sessions pushed a victim's
// revocation out of the memory store (sign-outs are best-effort records in their own pool); copies
// of a signed-out or replaced cookie lived on unlisted (the id is revoked now); sign-ins through the
// second step were not listed, or left the replaced session's row.

import { describe, expect, test } from 'vitest';
import Credentials from '../../../providers/credentials.js';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import { revokeSessions } from '../../session/revocation.js';
import { totpCode, totpStep } from '../../two-factor/totp.js';
import type { Adapter, AdapterUser } from '../../types.js';
import { accountWorld, outcomeOf, UA_FIREFOX, UA_SAFARI } from '../account-fixture.js';
import { confirmationForm } from '../email-fixtures.js';
import { memoryAndSqliteAdapters } from '../stored-adapters.js';

const adapters = memoryAndSqliteAdapters('jwt-session-list-fixes');
const COOKIE = 'kitgate.session-token';

type World = ReturnType<typeof accountWorld>;
type Browser = ReturnType<World['browser']>;

/** A Credentials provider whose authorize() says member `member-<local part>` for password "pw" (the app's own member ids). */
function memberCredentials() {
	return Credentials({
		minFailureMs: 0,
		credentials: { email: {}, password: { type: 'password' } },
		authorize: async (fields) => (fields.password === 'pw' ? { id: `member-${String(fields.email).split('@')[0]}`, email: String(fields.email) } : null)
	});
}

async function signInWithPassword(browser: Browser, email: string): Promise<Response> {
	const csrfToken = await browser.client.csrfToken();
	return browser.request('/auth/callback/credentials', { form: { csrfToken, email, password: 'pw', callbackUrl: '/' } });
}

async function userOf(w: World, email: string): Promise<AdapterUser> {
	return (await w.adapter.getUserByEmail(email))!;
}

async function jwtRows(w: World, email: string) {
	return (await w.adapter.listSessionsByUserId((await userOf(w, email)).id)).filter((row) => row.sessionToken.startsWith('jwt:'));
}

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	const jwtWorld = (overrides = {}) => accountWorld(makeAdapter(), 'jwt', overrides);

	test('a credentials session (authorize() id linked to a stored user) is ended by end-other-sessions, not only unlisted', async () => {
		const w = jwtWorld();
		w.config.providers = [...w.config.providers, memberCredentials()];
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const ada = await userOf(w, 'ada@example.com');
		await w.adapter.linkAccount({ userId: ada.id, provider: 'credentials', type: 'credentials', providerAccountId: 'member-ada' });
		const thief = w.browser(UA_SAFARI);
		w.clock.now += 1000;
		expect((await signInWithPassword(thief, 'ada@example.com')).status).toBe(302);
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
		const ada = await userOf(w, 'ada@example.com');
		await w.adapter.linkAccount({ userId: ada.id, provider: 'credentials', type: 'credentials', providerAccountId: 'member-ada' });
		const thief = w.browser(UA_SAFARI);
		expect((await signInWithPassword(thief, 'ada@example.com')).status).toBe(302);
		w.clock.now += 2000;
		await revokeSessions(ada.id, w.config);
		w.clock.now += 1000;
		expect(await thief.session(), 'the credentials session survived revokeSessions').toBeNull();
	});

	test('a credentials sign-in finished with a second factor is listed on the account page', async () => {
		const adapter = makeAdapter() as Required<Adapter>;
		const w = accountWorld(adapter, 'jwt');
		w.config.providers = [
			...w.config.providers,
			Credentials({
				minFailureMs: 0,
				credentials: { email: {}, password: { type: 'password' } },
				authorize: async (fields) => {
					const user = await adapter.getUserByEmail(String(fields.email));
					return fields.password === 'pw' && user ? { id: user.id, email: user.email } : null;
				}
			})
		];
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const started = (await (await laptop.changeJson('two-factor-start')).json()) as { secret: string; pending: string };
		expect((await laptop.changeJson('two-factor-confirm', { pending: started.pending, code: totpCode(started.secret, totpStep(w.clock.now)) })).status).toBe(200);
		w.clock.now += 31_000;
		const phone = w.browser(UA_SAFARI);
		await signInWithPassword(phone, 'ada@example.com');
		const done = await phone.request('/auth/second-factor', { json: { csrfToken: await phone.client.csrfToken(), code: totpCode(started.secret, totpStep(w.clock.now)) } });
		expect(done.status).toBe(200);
		expect((await phone.session())?.user?.email).toBe('ada@example.com');
		expect((await laptop.overview()).sessions.map((s) => s.browser), 'the phone\'s session is missing from the list').toHaveLength(2);
	});

	test.each(['a sign-out', 'a new sign-in over it'] as const)('a copy of a JWT session\'s cookie taken before %s is refused, or at least still listed so it can be ended', async (how) => {
		const w = jwtWorld();
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const copied = laptop.client.jar.get(COOKIE)!;
		if (how === 'a sign-out') {
			expect((await laptop.request('/auth/signout', { form: { csrfToken: await laptop.client.csrfToken() } })).status).toBe(302);
		} else {
			w.clock.now += 60_000;
			await laptop.signInByEmail('ada@example.com');
		}
		const thief = w.browser(UA_SAFARI);
		thief.client.jar.set(COOKIE, copied);
		const phone = w.browser(UA_SAFARI);
		await phone.signInByEmail('ada@example.com');
		const alive = (await thief.session()) !== null;
		const listed = (await phone.overview()).sessions.length;
		// the phone, and the laptop's new session after a new sign-in
		const others = how === 'a sign-out' ? 1 : 2;
		expect(!alive || listed > others, `the copied cookie still works (${alive}) and is not listed (${listed} sessions)`).toBe(true);
	});

});

describe.each(adapters)('%s adapter, flooding the revocation store', (_name, makeAdapter) => {
	test('an attacker signing in and ending their own session over and over cannot push a victim\'s ended session out of the revocation store', async () => {
		const store = MemoryRateLimitStore({ maxRevocations: 10 });
		const w = accountWorld(makeAdapter(), 'jwt', { session: { strategy: 'jwt', revocationStore: store } });
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const phone = w.browser(UA_SAFARI);
		await phone.signInByEmail('ada@example.com');
		const stolen = phone.client.jar.get(COOKIE)!;
		const phoneId = (await laptop.overview()).sessions.find((s) => !s.current)!.id;
		expect((await laptop.changeJson('end-session', { sessionId: phoneId })).status).toBe(200);
		const thief = w.browser(UA_SAFARI);
		thief.client.jar.set(COOKIE, stolen);
		expect(await thief.session()).toBeNull();

		// eve, any user, with a passkey: sign in, end "this session", again
		const eve = w.browser();
		await eve.addPasskey('eve@example.com');
		for (let i = 0; i < 12; i++) {
			w.clock.now += 1000;
			await eve.signInWithPasskey();
			expect((await eve.changeJson('end-session', { sessionId: 'current' })).status).toBe(200);
		}
		const again = w.browser(UA_SAFARI);
		again.client.jar.set(COOKIE, stolen);
		expect(await again.session(), 'the ended session came back').toBeNull();
	});

	test('a sign-in that goes through the second step over an existing session replaces its row', async () => {
		const adapter = makeAdapter() as Required<Adapter>;
		const w = accountWorld(adapter, 'jwt');
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const started = (await (await laptop.changeJson('two-factor-start')).json()) as { secret: string; pending: string };
		expect((await laptop.changeJson('two-factor-confirm', { pending: started.pending, code: totpCode(started.secret, totpStep(w.clock.now)) })).status).toBe(200);
		w.clock.now += 31_000;
		const csrfToken = await laptop.client.csrfToken();
		await laptop.request('/auth/signin/email', { form: { csrfToken, email: 'ada@example.com', callbackUrl: '/' } });
		const link = w.links.at(-1)!;
		const page = await laptop.request(link.url);
		const { action, fields } = confirmationForm(await page.text());
		await laptop.request(action, { form: fields });
		const done = await laptop.request('/auth/second-factor', { json: { csrfToken: await laptop.client.csrfToken(), code: totpCode(started.secret, totpStep(w.clock.now)) } });
		expect(done.status).toBe(200);
		expect((await laptop.session())?.user?.email).toBe('ada@example.com');
		expect(await jwtRows(w, 'ada@example.com'), 'the replaced session\'s row is still listed').toHaveLength(1);
	});
});

describe.each(adapters)('%s adapter, an ended session on the passkey routes', (_name, makeAdapter) => {
	test.each(['end-session', 'end-other-sessions'] as const)('a thief\'s session ended by %s can neither list nor remove the victim\'s passkeys', async (how) => {
		const w = accountWorld(makeAdapter(), 'jwt');
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		await laptop.addPasskey();
		const thief = w.browser(UA_SAFARI);
		await thief.signInByEmail('ada@example.com');
		w.clock.now += 1000;
		if (how === 'end-session') {
			const thiefId = (await laptop.overview()).sessions.find((s) => !s.current)!.id;
			expect((await laptop.changeJson('end-session', { sessionId: thiefId })).status).toBe(200);
		} else {
			expect(outcomeOf(await laptop.change('end-other-sessions')).account).toBe('other-sessions-ended');
		}
		w.clock.now += 1000;
		const listed = await thief.request('/auth/webauthn-authenticators/passkey');
		expect.soft(listed.status, 'the ended session lists ada\'s passkeys').toBe(401);
		const id = (await w.adapter.listAuthenticatorsByUserId((await userOf(w, 'ada@example.com')).id))[0]!.credentialID;
		await thief.request('/auth/webauthn-authenticators/passkey', { json: { csrfToken: await thief.client.csrfToken(), credentialID: id } });
		expect(await w.adapter.listAuthenticatorsByUserId((await userOf(w, 'ada@example.com')).id), 'the ended session removed ada\'s passkey').toHaveLength(1);
	});
});

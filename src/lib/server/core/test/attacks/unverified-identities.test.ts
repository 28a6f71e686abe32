// Attack: the attacker signs up first with the victim's address through an identity provider
// that did not prove it (it says email_verified: false, or the app does not trust it to verify
// addresses). Later the victim signs in by email link. The victim must get an account of their
// own, and the attacker's identity must never reach it. Also: allowDangerousEmailAccountLinking
// never links on email_verified: false, and a "connect" joins the signed-in user only when that
// user started the flow. Rows refer to the table in docs/security.md ("Account linking").

import { beforeAll, describe, expect, test } from 'vitest';
import { everyAdapter } from '../../../adapters/test/every-adapter.js';
import type { Adapter, AuthConfig } from '../../types.js';
import { sinkProvider } from '../email-fixtures.js';
import { loginAtIdp } from '../idp-browser.js';
import { Browser, INTEGRATIONS } from '../integrations.js';
import { STRATEGIES, address, attackWorld, attackConfig, errorOf, linkWithIdp, sessionOf, signInByEmail, signInWithIdp, startOAuth, type IdpAccount } from './flows.js';

const world = attackWorld({ sink: true, idp: ['idp', 'trusted'] });

/** An IdP user claiming `email`, with `email_verified` as given. */
function idpUser(email: string, verified: boolean | undefined): IdpAccount {
	const account: IdpAccount = { id: `idp-${crypto.randomUUID()}`, email, name: 'Someone' };
	if (verified !== undefined) account.email_verified = verified;
	return world.idp.addAccount(account);
}

const adapters = everyAdapter('unverified-identities');

describe.each(INTEGRATIONS)('%s', (integration) => {
	describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
		describe.each(STRATEGIES)('%s sessions', (strategy) => {
			let adapter: Required<Adapter>;
			// a clock the tests step by whole seconds: JWT revocations compare issue times to the second
			const clock = { now: Date.now() };
			const tick = () => void (clock.now += 1000);
			const app = () => world.apps[integration];
			const use = (overrides: Partial<AuthConfig> = {}) =>
				app().use(
					attackConfig(adapter, strategy, {
						now: () => clock.now,
						providers: [world.idp.provider('idp'), world.idp.provider('trusted', { allowDangerousEmailAccountLinking: true }), sinkProvider(world.sink)],
						...overrides
					})
				);
			beforeAll(() => {
				adapter = makeAdapter();
			});

			// A7: the claim of an unproven sign-in never makes its user the owner
			test.each([
				['a trusted provider that says email_verified: false', 'trusted', false],
				['an untrusted provider that says email_verified: true', 'idp', true],
				['an untrusted provider that says nothing', 'idp', undefined]
			] as const)("the attacker signs up first through %s: the victim's email sign-in gets a user of its own", async (_label, providerId, verified) => {
				use();
				const victimEmail = address('victim');
				const mallory = idpUser(victimEmail, verified);

				const attacker = new Browser();
				expect((await signInWithIdp(attacker, app(), providerId, mallory.id)).status).toBe(302);
				const squatter = await sessionOf(attacker, app());
				expect(squatter?.user?.email).toBe(victimEmail);
				const squatterId = squatter?.user?.id as string;

				tick();
				const victim = new Browser();
				await signInByEmail(victim, app(), world.sink, victimEmail);
				const victimSession = await sessionOf(victim, app());
				expect(victimSession?.user?.email).toBe(victimEmail);
				expect(victimSession?.user?.id).not.toBe(squatterId);
				const victimUser = await adapter.getUserByEmail(victimEmail);
				expect(victimUser?.id).toBe(victimSession?.user?.id);
				expect(victimUser?.emailVerified).toBeInstanceOf(Date);
				// the squatter keeps its own way in, but not the address; its session still open showed it: ended
				expect((await adapter.getUser(squatterId))?.email ?? '').toBe('');
				if (strategy === 'jwt') expect(await sessionOf(attacker, app())).toBeNull();
				else expect((await sessionOf(attacker, app()))?.user?.email ?? '').toBe('');
				expect((await adapter.getUserByAccount({ provider: providerId, providerAccountId: mallory.id }))?.id).toBe(squatterId);

				// the attacker signs in again: their own user, never the victim's
				tick();
				const again = new Browser();
				expect((await signInWithIdp(again, app(), providerId, mallory.id)).status).toBe(302);
				expect((await sessionOf(again, app()))?.user?.id).toBe(squatterId);
				// the victim's next email sign-in is still the victim
				world.sink.clear();
				const later = new Browser();
				await signInByEmail(later, app(), world.sink, victimEmail);
				expect((await sessionOf(later, app()))?.user?.id).toBe(victimUser?.id);
			});

			// A4: allowDangerousEmailAccountLinking never links on email_verified: false
			test('a trusted provider whose profile says email_verified: false is not linked to the proven owner', async () => {
				use();
				const victimEmail = address('victim');
				const victim = new Browser();
				await signInByEmail(victim, app(), world.sink, victimEmail);
				const owner = await adapter.getUserByEmail(victimEmail);

				const mallory = idpUser(victimEmail, false);
				const attacker = new Browser();
				const refused = await signInWithIdp(attacker, app(), 'trusted', mallory.id);
				expect(errorOf(refused)).toBe('OAuthAccountNotLinked');
				expect(await sessionOf(attacker, app())).toBeNull();
				// nothing was written: no account, no second user, the owner unchanged
				expect(await adapter.getUserByAccount({ provider: 'trusted', providerAccountId: mallory.id })).toBeNull();
				expect(await adapter.getUser(owner?.id as string)).toEqual(owner);
			});

			// A3: the same provider, when it says the address is verified, joins the proven owner
			test('a trusted provider whose profile says email_verified: true joins the proven owner', async () => {
				use();
				const email = address('owner');
				const browser = new Browser();
				await signInByEmail(browser, app(), world.sink, email);
				const owner = await adapter.getUserByEmail(email);
				const sameOwner = idpUser(email, true);
				const other = new Browser();
				expect(errorOf(await signInWithIdp(other, app(), 'trusted', sameOwner.id))).toBeUndefined();
				expect((await sessionOf(other, app()))?.user?.id).toBe(owner?.id);
				expect((await adapter.getUserByAccount({ provider: 'trusted', providerAccountId: sameOwner.id }))?.id).toBe(owner?.id);
			});

			// N1 and N2: a new account joins the signed-in user only through the explicit link that user started
			test('signed in, the user connects an account through the explicit link (POST /account/link): it is linked to them', async () => {
				use();
				const email = address('connector');
				const browser = new Browser();
				await signInByEmail(browser, app(), world.sink, email);
				const me = (await sessionOf(browser, app()))?.user?.id;
				const second = idpUser(address('second-address'), true);
				expect(errorOf(await linkWithIdp(browser, app(), 'idp', second.id))).toBeUndefined();
				expect((await adapter.getUserByAccount({ provider: 'idp', providerAccountId: second.id }))?.id).toBe(me);
				expect((await sessionOf(browser, app()))?.user?.id).toBe(me);
			});

			test('a callback whose flow was started before anyone signed in does not join the user signed in meanwhile', async () => {
				use();
				const browser = new Browser();
				const someone = idpUser(address('someone'), true);
				const started = await startOAuth(browser, app(), 'idp');
				// the browser gets signed in (say, by a link the attacker made it confirm) before the callback
				const email = address('meanwhile');
				await signInByEmail(browser, app(), world.sink, email);
				const meanwhile = (await sessionOf(browser, app()))?.user?.id;
				const back = await loginAtIdp(started.href, { login: someone.id });
				expect(errorOf(await browser.request(back))).toBeUndefined();
				const owner = await adapter.getUserByAccount({ provider: 'idp', providerAccountId: someone.id });
				expect(owner?.id).not.toBe(meanwhile);
				expect((await sessionOf(browser, app()))?.user?.id).toBe(owner?.id);
			});
		});
	});
});

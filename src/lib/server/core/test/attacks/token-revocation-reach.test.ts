// What a thief kept stops working when the user shuts them out: a saved sign-in link, a pending
// second step, a trusted browser — after "sign out everywhere" (revokeSessions, the account page's
// end-other-sessions), a password change reported with credentialChanged, an address change, or
// ending one session. Through Auth() on the memory adapter and a SQLite file, JWT and database
// sessions.
//
// `ended by the user's move`: attacks that worked before security round 3 (each failed then).
// `held`: what the same attacks could not do, pinned.

import { describe, expect, test } from 'vitest';
import { credentialChanged } from '../../account/credential-change.js';
import { revokeSessions } from '../../session/revocation.js';
import { accountWorld, outcomeOf } from '../account-fixture.js';
import { confirmationForm } from '../email-fixtures.js';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from '../stored-adapters.js';
import { adaWithSecondFactor, policyWorld, signInAgain, signInTrusting } from '../two-factor-fixture.js';

const adapters = memoryAndSqliteAdapters('token-revocation-reach');
const MINUTE = 60_000;

type World = ReturnType<typeof accountWorld>;
type AnyBrowser = ReturnType<World['browser']>;

/** Asks for a sign-in link for `email` from `browser` and answers the link's URL (what reached the mailbox). */
async function askForLink(w: World, browser: AnyBrowser, email: string): Promise<string> {
	const csrfToken = await browser.client.csrfToken();
	const asked = await browser.request('/auth/signin/email', { form: { csrfToken, email, callbackUrl: '/' } });
	expect(asked.status).toBe(302);
	const link = w.links.filter((l) => l.to === email).at(-1);
	expect(link, `a link to ${email}`).toBeDefined();
	return link!.url;
}

/** Opens a saved link and presses its button, as the one holding it would. */
async function useLink(browser: AnyBrowser, url: string): Promise<void> {
	const page = await browser.request(url);
	expect(page.status).toBe(200);
	const { action, fields } = confirmationForm(await page.text());
	await browser.request(action, { form: fields });
}

/** The three ways the owner signs every other browser out. */
const SIGN_OUT_EVERYWHERE = ['revokeSessions', 'end-other-sessions', 'credentialChanged'] as const;

async function signOutEverywhere(w: World, owner: AnyBrowser, how: (typeof SIGN_OUT_EVERYWHERE)[number]): Promise<void> {
	const id = (await w.userOf('ada@example.com')).id;
	if (how === 'revokeSessions') await revokeSessions(id, w.config);
	else if (how === 'credentialChanged') await credentialChanged(id, w.config, { request: 'http://localhost:3000/' });
	else expect(outcomeOf(await owner.change('end-other-sessions')).account).toBe('other-sessions-ended');
}

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		describe('ended by the user\'s move', () => {
			test.each(SIGN_OUT_EVERYWHERE)('a sign-in link saved before %s still signs the thief in afterwards', async (how) => {
				// attack: a thief who once read the victim's mailbox keeps an unused sign-in link (valid 24 h); the owner signs out everywhere; the saved link signs the thief in again
				const w = accountWorld(makeAdapter(), strategy);
				const ada = await w.signedIn();
				const thief = w.browser();
				const saved = await askForLink(w, thief, 'ada@example.com');
				w.clock.now += MINUTE;
				await signOutEverywhere(w, ada, how);
				w.clock.now += MINUTE;
				// control: a link asked for after the owner acted still works
				const later = w.browser();
				await useLink(later, await askForLink(w, later, 'ada@example.com'));
				expect((await later.session())?.user?.email).toBe('ada@example.com');
				await useLink(thief, saved);
				expect(await thief.session(), 'a link issued before the owner signed everybody out signed the thief in').toBeNull();
			});

			test('a sign-in link to an address, issued before a user moved their account to that address, signs into that account', async () => {
				// attack: eve, who reads shared@ today, keeps a link for it; ada moves her account to shared@ (proving it); eve's older link now opens ada's account
				const w = accountWorld(makeAdapter(), strategy);
				const eve = w.browser();
				const saved = await askForLink(w, eve, 'shared@example.com');
				w.clock.now += MINUTE;
				const ada = await w.signedIn();
				await ada.change('change-email', { email: 'shared@example.com' });
				const link = new URL(w.mails.filter((m) => m.kind === 'confirm-email-change').at(-1)!.url);
				expect(outcomeOf(await ada.change('confirm-email', { token: link.searchParams.get('token')!, email: 'shared@example.com' })).account).toBe('email-changed');
				w.clock.now += MINUTE;
				await useLink(eve, saved);
				expect(await eve.session(), "a link issued before the address was ada's opened ada's account").toBeNull();
			});

			test.each(['credentialChanged', 'revokeSessions'] as const)('a pending second step started with the password before %s is finished afterwards', async (how) => {
				// attack: a thief with the password (and one recovery code) starts a sign-in; the owner changes the password / signs out everywhere; within five minutes the thief's pending cookie still finishes, with a session dated after the revocation
				const w = policyWorld(makeAdapter(), strategy, {});
				const { recoveryCodes } = await adaWithSecondFactor(w);
				const thief = w.browser();
				expect((await thief.signInWithPassword()).headers.get('location')).toBe('http://localhost:3000/auth/second-factor');
				w.clock.now += 30_000;
				const id = await w.userId();
				if (how === 'credentialChanged') await credentialChanged(id, w.config, { request: 'http://localhost:3000/' });
				else await revokeSessions(id, w.config);
				w.clock.now += 30_000;
				await thief.secondStep(recoveryCodes[0]);
				w.clock.now += MINUTE;
				expect(await thief.session(), 'a primary sign-in made before the credential change became a session after it').toBeNull();
			});

			test("ending the thief's session from the account page leaves the thief's browser trusted: the password alone signs in again", async () => {
				// attack: the thief passed the second step once and ticked "trust this browser"; the owner sees the unknown device and ends its session; the thief signs in again with the password, no code asked
				const w = policyWorld(makeAdapter(), strategy, { trustBrowserDays: 30 });
				const { secret, setup } = await adaWithSecondFactor(w);
				const thief = w.browser();
				await signInTrusting(w, thief, secret);
				w.clock.now += MINUTE;
				// the owner, freshly signed in with both steps, ends the other device's session
				await setup.signOut();
				await setup.signInByEmail('ada@example.com');
				expect((await setup.secondStep(w.code(secret, 1))).status).toBe(302);
				const other = (await setup.overview()).sessions.find((s) => !s.current);
				expect(other, "the thief's session on the account page").toBeDefined();
				expect((await setup.changeJson('end-session', { sessionId: other!.id })).status).toBe(200);
				w.clock.now += MINUTE;
				expect(await thief.session(), "the thief's session is over").toBeNull();
				expect(await signInAgain(thief), 'the ended device signed in again without the second step').toBe('http://localhost:3000/auth/second-factor');
			});
		});

		describe('held', () => {
			test('a trusted browser is no longer trusted after credentialChanged', async () => {
				const w = policyWorld(makeAdapter(), strategy, { trustBrowserDays: 30 });
				const { secret } = await adaWithSecondFactor(w);
				const thief = w.browser();
				await signInTrusting(w, thief, secret);
				w.clock.now += MINUTE;
				await credentialChanged(await w.userId(), w.config, { request: 'http://localhost:3000/' });
				w.clock.now += MINUTE;
				expect(await thief.session()).toBeNull();
				expect(await signInAgain(thief)).toBe('http://localhost:3000/auth/second-factor');
			});

			test('an email-change link requested by a thief cannot be confirmed after "sign out everywhere" (the thief has no session left)', async () => {
				const w = accountWorld(makeAdapter(), strategy);
				const thief = await w.signedIn();
				await thief.change('change-email', { email: 'thief@example.com' });
				const link = new URL(w.mails.filter((m) => m.kind === 'confirm-email-change').at(-1)!.url);
				w.clock.now += MINUTE;
				await revokeSessions((await w.userOf('ada@example.com')).id, w.config);
				w.clock.now += MINUTE;
				const confirmed = await thief.change('confirm-email', { token: link.searchParams.get('token')!, email: 'thief@example.com' });
				expect(outcomeOf(confirmed).path).toBe('/auth/signin');
				expect(await w.adapter.getUserByEmail('thief@example.com')).toBeNull();
			});
		});
	});
});

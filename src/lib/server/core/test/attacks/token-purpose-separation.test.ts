// Every token kitgate issues works only for its own purpose: a value made for one (a CSRF cookie, a
// sign-in link, a sealed cookie, a passkey challenge) handed to the route of another is refused.
// Through Auth() on the memory adapter and a SQLite file, JWT and database sessions.
//
// `refused across purposes`: attacks that worked before security round 3 (each failed then).
// `held`: what the same attacks could not do, pinned.

import { describe, expect, test } from 'vitest';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { accountWorld, outcomeOf } from '../account-fixture.js';
import { confirmationForm } from '../email-fixtures.js';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from '../stored-adapters.js';
import { adaWithSecondFactor, policyWorld, signInTrusting } from '../two-factor-fixture.js';

const adapters = memoryAndSqliteAdapters('token-purpose-separation');

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		describe('refused across purposes', () => {
			test("the CSRF cookie's MAC is a valid stored hash of a sign-in token: write access to the token table alone signs in as anyone", async () => {
				// attack: GET /auth/csrf hands anyone `t.HMAC(secret, t)`; the stored hash of a sign-in token is the same HMAC(secret, token); a row { victim, HMAC(secret, t) } written without the secret makes `t` a working link
				const w = accountWorld(makeAdapter(), strategy);
				await w.browser().signInByEmail('ada@example.com');
				const mallory = w.browser();
				await mallory.client.csrfToken();
				const [token, mac] = decodeURIComponent(mallory.client.jar.get('kitgate.csrf-token')!).split('.');
				expect(mac).toMatch(/^[0-9a-f]{64}$/);
				// what a database writer without AUTH_SECRET can do (SQL injection in the app, a shared DB user, a restored backup)
				await w.adapter.createVerificationToken({ identifier: 'ada@example.com', token: mac, expires: new Date(w.clock.now + 60 * 60_000) });
				const page = await mallory.request(`/auth/callback/email?token=${token}&email=${encodeURIComponent('ada@example.com')}&callbackUrl=%2F`);
				const { action, fields } = confirmationForm(await page.text());
				await mallory.request(action, { form: fields });
				expect(await mallory.session(), 'a sign-in token forged from a CSRF cookie signed in as ada').toBeNull();
			});
		});

		describe('held', () => {
			test('sealed values do not open as one another: trust, pending second step, session and passkey challenge cookies', async () => {
				const w = policyWorld(makeAdapter(), strategy, { trustBrowserDays: 30 });
				const { secret, setup } = await adaWithSecondFactor(w);
				const ada = w.browser();
				await signInTrusting(w, ada, secret);
				const trust = ada.client.jar.get('kitgate.trusted-browser')!;
				const session = ada.client.jar.get('kitgate.session-token')!;
				const pendingBrowser = w.browser();
				await pendingBrowser.signInWithPassword();
				const pending = pendingBrowser.client.jar.get('kitgate.second-factor')!;
				await setup.request('/auth/webauthn-options/passkey?action=authenticate');
				const challenge = setup.client.jar.get('kitgate.challenge')!;
				expect([trust, session, pending, challenge].every(Boolean)).toBe(true);

				// a trusted-browser or session cookie as the pending second step: no sign-in waits
				for (const value of [trust, session, challenge]) {
					const b = w.browser();
					b.client.jar.set('kitgate.second-factor', value);
					expect((await b.request('/auth/second-factor')).headers.get('location')).toBe('http://localhost:3000/auth/signin?error=SecondFactorExpired');
				}
				// a pending, session or challenge cookie as the trusted-browser cookie: the code is still asked for
				for (const value of [pending, session, challenge]) {
					const b = w.browser();
					b.client.jar.set('kitgate.trusted-browser', value);
					expect((await b.signInWithPassword()).headers.get('location')).toBe('http://localhost:3000/auth/second-factor');
				}
				// a pending, trust or challenge cookie as the session: nobody
				for (const value of [pending, trust, challenge]) {
					const b = w.browserWithCookie(value);
					expect(await b.session()).toBeNull();
				}
			});

			test("a second step's passkey challenge is refused by the passkey sign-in callback", async () => {
				const w = policyWorld(makeAdapter(), strategy, {});
				const { setup } = await adaWithSecondFactor(w);
				await setup.addPasskey();
				w.clock.now += 60_000;
				const ada = w.browser();
				ada.device.credentials.push(...setup.device.credentials);
				await ada.signInWithPassword();
				const step = (await (await ada.request('/auth/second-factor/passkey')).json()) as { options: PublicKeyCredentialRequestOptionsJSON };
				const data = ada.device.authenticate(step.options, { userVerified: true });
				const posted = await ada.request('/auth/callback/passkey', { json: { csrfToken: await ada.client.csrfToken(), action: 'authenticate', data } });
				expect(posted.status).toBe(400);
				expect(await ada.session()).toBeNull();
			});

			test("a sign-in link's token is refused by the email-change confirmation, for the link's own address", async () => {
				const w = accountWorld(makeAdapter(), strategy);
				const ada = await w.signedIn();
				const other = w.browser();
				await other.request('/auth/signin/email', { form: { csrfToken: await other.client.csrfToken(), email: 'new@example.com', callbackUrl: '/' } });
				const link = new URL(w.links.at(-1)!.url);
				const confirmed = await ada.change('confirm-email', { token: link.searchParams.get('token')!, email: 'new@example.com' });
				expect(outcomeOf(confirmed).accountError).toBe('Verification');
				expect(await w.adapter.getUserByEmail('new@example.com')).toBeNull();
			});

			test('one sign-in link posted from two browsers at once signs one of them in; one email-change link confirmed twice at once changes once', async () => {
				const w = accountWorld(makeAdapter(), strategy);
				const one = w.browser();
				const two = w.browser();
				await one.request('/auth/signin/email', { form: { csrfToken: await one.client.csrfToken(), email: 'ada@example.com', callbackUrl: '/' } });
				const url = w.links.at(-1)!.url;
				const a = confirmationForm(await (await one.request(url)).text());
				const b = confirmationForm(await (await two.request(url)).text());
				await Promise.all([one.request(a.action, { form: a.fields }), two.request(b.action, { form: b.fields })]);
				const signedIn = [];
				for (const browser of [one, two]) if ((await browser.session())?.user?.email === 'ada@example.com') signedIn.push(browser);
				expect(signedIn).toHaveLength(1);

				const [ada] = signedIn;
				await ada.change('change-email', { email: 'new@example.com' });
				const change = new URL(w.mails.filter((m) => m.kind === 'confirm-email-change').at(-1)!.url);
				const token = change.searchParams.get('token')!;
				const answers = await Promise.all([ada.change('confirm-email', { token, email: 'new@example.com' }), ada.change('confirm-email', { token, email: 'new@example.com' })]);
				expect(answers.map((r) => outcomeOf(r).account).filter((r) => r === 'email-changed')).toHaveLength(1);
			});
		});
	});
});

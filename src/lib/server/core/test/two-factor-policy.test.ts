// When the second factor is asked for, through `Auth()` on the memory adapter and a SQLite file
// under both session strategies: `twoFactor.required` (a user without one sets one up before any
// session starts, and cannot get around it) and `twoFactor.trustBrowserDays` (a trusted browser
// skips the second step for that user only, until it expires or the user's factor or sessions
// change). Each attack is a test: another user's or a tampered trust cookie, another sign-in's
// enrolment, account routes and the session endpoint before the enrolment is done, a replayed
// pending cookie.

import { describe, expect, test } from 'vitest';
import { InvalidConfiguration, MissingAdapter } from '../errors.js';
import { resolveConfig } from '../config/resolve-config.js';
import { revokeSessions } from '../session/revocation.js';
import { sealFor } from '../two-factor/purpose-seal.js';
import { trustedBrowserCookie } from '../two-factor/trusted-browser.js';
import { createContext } from '../request/context.js';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from './stored-adapters.js';
import { TEST_SECRET } from './client.js';
import { adaBackOnATrustedBrowser, adaWithSecondFactor, enrolmentOf, policyWorld, signInAgain, signInTrusting } from './two-factor-fixture.js';

const adapters = memoryAndSqliteAdapters('two-factor-policy');
const DAY = 24 * 60 * 60 * 1000;
const TRUST_COOKIE = 'kitgate.trusted-browser';

/** The values a forced enrolment's page shows: the key and the sealed value its form posts back. */

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		const world = (twoFactor: { required?: boolean; trustBrowserDays?: number }) => policyWorld(makeAdapter(), strategy, twoFactor);
		type World = ReturnType<typeof world>;
		type Browser = ReturnType<World['browser']>;

		/** The forced enrolment of a browser whose sign-in waits: the page, then the first code. */
		async function forcedEnrolment(w: World, b: Browser) {
			const page = await b.request('/auth/second-factor');
			expect(page.status).toBe(200);
			const html = await page.text();
			const enrolment = enrolmentOf(html);
			const confirm = (code: string, pending = enrolment.pending) => b.client.csrfToken().then((csrfToken) => b.request('/auth/second-factor', { form: { csrfToken, pending, code } }));
			return { html, ...enrolment, confirm };
		}

		test('required: a user without a second factor gets no session after the primary sign-in, sets one up at the second step, then sees the recovery codes once and is signed in', async () => {
			const w = world({ required: true });
			const ada = await w.signedIn();
			expect(ada.pendingCookie()).toBeDefined();
			expect(ada.sessionCookie()).toBeUndefined();
			expect(await ada.session()).toBeNull();
			const signIns = w.eventNames().filter((name) => name === 'signIn').length;
			expect(signIns).toBe(0);

			const step = await forcedEnrolment(w, ada);
			expect(step.html).toContain('This site asks everyone to use two-step verification.');
			expect(step.html).toContain('<svg class="kitgate-qr-code');
			expect(step.html).not.toContain('name="trustBrowser"');
			expect(await w.adapter.getTwoFactor(await w.userId())).toBeNull();

			// a wrong first code: the same key again, with the alert
			const wrong = await step.confirm(w.code(step.secret, 5));
			expect(wrong.status).toBe(200);
			const again = await wrong.text();
			expect(again).toContain('role="alert"');
			expect(enrolmentOf(again)).toEqual({ secret: step.secret, pending: step.pending });
			expect(await ada.session()).toBeNull();

			const done = await step.confirm(w.code(step.secret));
			expect(done.status).toBe(200);
			const html = await done.text();
			const codes = [...html.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map((match) => match[1]);
			expect(codes).toHaveLength(10);
			expect(html).toContain('href="http://localhost:3000/"');
			expect(done.headers.get('cache-control')).toContain('no-store');
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
			expect(ada.pendingCookie()).toBeUndefined();
			expect((await w.adapter.getTwoFactor(await w.userId()))?.recoveryCodes).toHaveLength(10);
			expect(w.events.filter(([name]) => name === 'twoFactor').map(([, message]) => message.change)).toEqual(['enrolled']);
			expect(w.eventNames().filter((name) => name === 'signIn')).toHaveLength(1);
			expect(w.mails.map((mail) => mail.change)).toContain('two-factor-enabled');

			// the next sign-in asks for a code: the factor is set up
			const later = w.browser();
			w.clock.now += 60_000;
			await later.signInByEmail('ada@example.com');
			const challenge = await (await later.request('/auth/second-factor')).text();
			expect(challenge).toContain('autocomplete="one-time-code"');
			expect(challenge).not.toContain('data-secret');
			expect((await later.secondStep(codes[0])).status).toBe(200);
			expect((await later.session())?.user?.email).toBe('ada@example.com');
		});

		test('required: scripts confirm the forced enrolment with JSON and get the recovery codes and the URL', async () => {
			const w = world({ required: true });
			const ada = w.browser();
			await ada.signInWithPassword();
			// ada has no stored user until her first email sign-in: the password sign-in fails on its own
			await ada.signInByEmail('ada@example.com');
			const { secret, pending } = await forcedEnrolment(w, ada);
			const done = await ada.request('/auth/second-factor', { json: { csrfToken: await ada.client.csrfToken(), pending, code: w.code(secret) } });
			expect(done.status).toBe(200);
			const body = (await done.json()) as { url: string; recoveryCodes: string[] };
			expect(body.url).toBe('http://localhost:3000/');
			expect(body.recoveryCodes).toHaveLength(10);
		});

		test('required: before the enrolment is done, nothing is reachable: the session endpoint, the account routes (their own enrolment too), a protected page', async () => {
			const w = world({ required: true });
			const ada = await w.signedIn();
			const { secret, pending } = await forcedEnrolment(w, ada);
			expect(await ada.session()).toBeNull();
			expect((await ada.request('/auth/account')).status).toBe(401);
			expect((await ada.changeJson('two-factor-start')).status).toBe(401);
			expect((await ada.changeJson('two-factor-confirm', { pending, code: w.code(secret) })).status).toBe(401);
			expect(await w.adapter.getTwoFactor(await w.userId())).toBeNull();
			// the form post of the account's confirm is sent to sign in, nothing stored
			const form = await ada.change('two-factor-confirm', { pending, code: w.code(secret) });
			expect(form.status).toBe(302);
			expect(await w.adapter.getTwoFactor(await w.userId())).toBeNull();
			expect(ada.sessionCookie()).toBeUndefined();
		});

		test('required: an enrolment cannot set a second factor on another sign-in, user or browser; CSRF is checked; the account enrolment\'s value is not taken', async () => {
			const w = world({ required: true });
			const bob = await w.signedIn('bob@example.com');
			const bobs = await forcedEnrolment(w, bob);
			const ada = await w.signedIn();
			await forcedEnrolment(w, ada);

			// bob's key posted in ada's sign-in: another user's
			const crossUser = await ada.request('/auth/second-factor', { form: { csrfToken: await ada.client.csrfToken(), pending: bobs.pending, code: w.code(bobs.secret) } });
			expect(new URL(crossUser.headers.get('location')!).searchParams.get('error')).toBe('InvalidRequest');
			expect(await w.adapter.getTwoFactor(await w.userId())).toBeNull();

			// ada's key from her first browser, posted from a second browser where she signed in too
			const first = await forcedEnrolment(w, ada);
			const ada2 = await w.signedIn();
			const crossBrowser = await ada2.request('/auth/second-factor', { form: { csrfToken: await ada2.client.csrfToken(), pending: first.pending, code: w.code(first.secret) } });
			expect(new URL(crossBrowser.headers.get('location')!).searchParams.get('error')).toBe('InvalidRequest');

			// the same browser, a new sign-in: the key of the earlier sign-in no longer counts
			await ada.signInByEmail('ada@example.com');
			const earlier = await first.confirm(w.code(first.secret));
			expect(new URL(earlier.headers.get('location')!).searchParams.get('error')).toBe('InvalidRequest');

			// no CSRF token
			const fresh = await forcedEnrolment(w, ada);
			const noCsrf = await ada.request('/auth/second-factor', { form: { pending: fresh.pending, code: w.code(fresh.secret) } });
			expect(new URL(noCsrf.headers.get('location')!).searchParams.get('error')).toBe('MissingCSRF');

			// a tampered value
			const tampered = await fresh.confirm(w.code(fresh.secret), `${fresh.pending.slice(0, -4)}AAAA`);
			expect(new URL(tampered.headers.get('location')!).searchParams.get('error')).toBe('InvalidRequest');
			expect(await w.adapter.getTwoFactor(await w.userId())).toBeNull();
			expect(await ada.session()).toBeNull();

			// bob's own finishes
			expect((await bob.request('/auth/second-factor', { form: { csrfToken: await bob.client.csrfToken(), pending: bobs.pending, code: w.code(bobs.secret) } })).status).toBe(200);
			expect((await bob.session())?.user?.email).toBe('bob@example.com');
		});

		test('required: first codes are throttled as the second step\'s (rateLimit.secondFactor)', async () => {
			const w = world({ required: true });
			const ada = await w.signedIn();
			const step = await forcedEnrolment(w, ada);
			for (let i = 0; i < 5; i++) expect(await (await step.confirm('000000')).text()).toContain('That code is not right');
			const limited = await (await step.confirm(w.code(step.secret))).text();
			expect(limited).toContain('Too many codes were tried.');
			expect(await w.adapter.getTwoFactor(await w.userId())).toBeNull();
			expect(await ada.session()).toBeNull();
		});

		test('required: a pending cookie replayed after the enrolment asks for a code (the factor now exists); a passkey with user verification is not forced', async () => {
			const w = world({ required: true });
			const ada = await w.signedIn();
			const name = ada.pendingCookie()!;
			const copied = ada.client.jar.get(name)!;
			const step = await forcedEnrolment(w, ada);
			expect((await step.confirm(w.code(step.secret))).status).toBe(200);

			const thief = w.browser();
			thief.client.jar.set(name, copied);
			const page = await (await thief.request('/auth/second-factor')).text();
			expect(page).not.toContain('data-secret');
			expect(page).toContain('name="code"');
			const again = await thief.request('/auth/second-factor', { form: { csrfToken: await thief.client.csrfToken(), pending: step.pending, code: w.code(step.secret) } });
			expect(new URL(again.headers.get('location')!).searchParams.get('error')).toBe('InvalidSecondFactor');
			expect(await thief.session()).toBeNull();

			const carol = w.browser();
			await carol.addPasskey('carol@example.com');
			await carol.signOut();
			await carol.signInWithPasskey();
			// a passkey sign-up stores no address: the session's user is there all the same
			expect((await carol.session())?.user).toBeDefined();
			expect(carol.sessionCookie()).toBeDefined();
			expect(carol.pendingCookie()).toBeUndefined();
		});

		test('step-up: a sign-in that skipped the second step on a trusted browser is not a recent one: sensitive changes ask for a full sign-in', async () => {
			const w = world({ trustBrowserDays: 30 });
			const { secret, ada } = await adaBackOnATrustedBrowser(w);
			const overview = (await (await ada.request('/auth/account')).json()) as { freshUntil: string | null };
			expect(overview.freshUntil).toBeNull();
			const removal = await ada.changeJson('two-factor-remove', { code: w.code(secret) });
			expect(removal.status).toBe(403);
			expect(await removal.json()).toMatchObject({ error: 'FreshSignInRequired' });
			const deletion = await ada.changeJson('delete');
			expect(deletion.status).toBe(403);
			expect(await w.adapter.getUserByEmail('ada@example.com')).not.toBeNull();
		});

		test('trust: ticking "Trust this browser" skips the second step of later sign-ins in that browser; another browser is asked', async () => {
			const w = world({ trustBrowserDays: 30 });
			const { secret } = await adaWithSecondFactor(w);
			const ada = w.browser();
			const page = await (await (async () => (await ada.signInWithPassword(), ada.request('/auth/second-factor')))()).text();
			expect(page).toContain('name="trustBrowser"');
			expect(page).toContain('Trust this browser for 30 days');
			const done = await ada.request('/auth/second-factor', { form: { csrfToken: await ada.client.csrfToken(), code: w.code(secret), trustBrowser: 'yes' } });
			const cookie = done.headers.getSetCookie().find((line) => line.startsWith(`${TRUST_COOKIE}=`));
			expect(cookie).toMatch(/HttpOnly/i);
			expect(cookie).toMatch(/SameSite=Lax/i);
			expect(cookie).toMatch(/Path=\//);
			expect(cookie).toMatch(/Max-Age=2592000/);

			w.clock.now += 10 * DAY;
			expect(await signInAgain(ada)).toBe('http://localhost:3000/dashboard');
			expect((await ada.session())?.user?.email).toBe('ada@example.com');

			const other = w.browser();
			expect((await other.signInWithPassword()).headers.get('location')).toBe('http://localhost:3000/auth/second-factor');
			expect(await other.session()).toBeNull();
		});

		test('trust: an unticked box, or trust not configured, sets no cookie; a box posted without the option is ignored', async () => {
			const w = world({});
			const { secret } = await adaWithSecondFactor(w);
			const ada = w.browser();
			await ada.signInWithPassword();
			expect(await (await ada.request('/auth/second-factor')).text()).not.toContain('trustBrowser');
			const done = await ada.request('/auth/second-factor', { form: { csrfToken: await ada.client.csrfToken(), code: w.code(secret), trustBrowser: 'yes' } });
			expect(done.headers.getSetCookie().some((line) => line.includes(TRUST_COOKIE))).toBe(false);
			w.clock.now += 60_000;
			expect(await signInAgain(ada)).toBe('http://localhost:3000/auth/second-factor');

			const v = world({ trustBrowserDays: 7 });
			const enrolled = await adaWithSecondFactor(v);
			const unticked = v.browser();
			await unticked.signInWithPassword();
			const plain = await unticked.secondStep(v.code(enrolled.secret));
			expect(plain.headers.getSetCookie().some((line) => line.includes(TRUST_COOKIE))).toBe(false);
		});

		test('trust: another user\'s trust cookie, an expired one, a tampered one and a value sealed for another purpose do not skip the step', async () => {
			const w = world({ trustBrowserDays: 30 });
			const { secret } = await adaWithSecondFactor(w);
			const trusted = w.browser();
			await signInTrusting(w, trusted, secret);
			const adasCookie = trusted.client.jar.get(TRUST_COOKIE)!;

			// bob, in a browser holding ada's trust cookie
			const bobSetup = await w.signedIn('bob@example.com');
			await bobSetup.enrol();
			const bob = w.browser();
			bob.client.jar.set(TRUST_COOKIE, adasCookie);
			expect((await bob.signInWithPassword('bob@example.com')).headers.get('location')).toBe('http://localhost:3000/auth/second-factor');

			// tampered
			const tampered = w.browser();
			tampered.client.jar.set(TRUST_COOKIE, `${adasCookie.slice(0, -6)}AAAAAA`);
			expect((await tampered.signInWithPassword()).headers.get('location')).toBe('http://localhost:3000/auth/second-factor');

			// a value that opens, but sealed for the pending sign-in's purpose with the same claims
			const ctx = createContext(new Request('http://localhost:3000/'), resolveConfig(w.config));
			const otherPurpose = await sealFor(ctx, 'kitgate.second-factor', { sub: await w.userId(), iat: w.clock.now }, 3600);
			const forged = w.browser();
			forged.client.jar.set(TRUST_COOKIE, otherPurpose);
			expect((await forged.signInWithPassword()).headers.get('location')).toBe('http://localhost:3000/auth/second-factor');

			// expired: 30 days and a minute later
			w.clock.now += 30 * DAY + 60_000;
			expect(await signInAgain(trusted)).toBe('http://localhost:3000/auth/second-factor');
		});

		test('trust: removing the second factor and setting it up again, or new recovery codes, end the trust', async () => {
			const w = world({ trustBrowserDays: 30 });
			const { setup, secret } = await adaWithSecondFactor(w);
			const trusted = w.browser();
			await signInTrusting(w, trusted, secret);
			w.clock.now += 60_000;
			expect(await signInAgain(trusted)).toBe('http://localhost:3000/dashboard');

			// new recovery codes, from a fresh session in a third browser
			const manager = w.browser();
			w.clock.now += 60_000;
			await manager.signInWithPassword();
			await manager.secondStep(w.code(secret));
			w.clock.now += 60_000;
			const regenerated = await manager.changeJson('two-factor-recovery-codes', { code: w.code(secret), keepOtherSessions: 'yes' });
			expect(regenerated.status).toBe(200);
			w.clock.now += 60_000;
			expect(await signInAgain(trusted)).toBe('http://localhost:3000/auth/second-factor');

			// trusted again, then the factor is removed and set up again
			w.clock.now += 60_000;
			await trusted.secondStep(w.code(secret));
			await trusted.signOut();
			w.clock.now += 60_000;
			await signInTrusting(w, trusted, secret);
			w.clock.now += 60_000;
			expect((await manager.changeJson('two-factor-remove', { code: w.code(secret), keepOtherSessions: 'yes' })).status).toBe(200);
			w.clock.now += 1000;
			const reenrolled = await manager.enrol();
			expect(reenrolled.secret).not.toBe(secret);
			expect(await signInAgain(trusted)).toBe('http://localhost:3000/auth/second-factor');
			void setup;
		});

		test('trust: ending the other sessions from another browser, or revokeSessions, end the trust', async () => {
			const w = world({ trustBrowserDays: 30 });
			const { secret } = await adaWithSecondFactor(w);
			const trusted = w.browser();
			await signInTrusting(w, trusted, secret);

			const manager = w.browser();
			w.clock.now += 60_000;
			await manager.signInWithPassword();
			await manager.secondStep(w.code(secret));
			w.clock.now += 60_000;
			const ended = await manager.changeJson('end-other-sessions');
			expect(ended.status).toBe(200);
			w.clock.now += 2000;
			expect(await signInAgain(trusted)).toBe('http://localhost:3000/auth/second-factor');

			w.clock.now += 60_000;
			await trusted.request('/auth/second-factor', { form: { csrfToken: await trusted.client.csrfToken(), code: w.code(secret), trustBrowser: 'yes' } });
			w.clock.now += 60_000;
			expect(await signInAgain(trusted)).toBe('http://localhost:3000/dashboard');
			await revokeSessions(await w.userId(), w.config);
			w.clock.now += 1000;
			expect(await signInAgain(trusted)).toBe('http://localhost:3000/auth/second-factor');
		});

		test('trust: a revocation store that fails asks for the code (never skips it)', async () => {
			const w = world({ trustBrowserDays: 30 });
			const { secret } = await adaWithSecondFactor(w);
			const trusted = w.browser();
			await signInTrusting(w, trusted, secret);
			const store = resolveConfig(w.config).revocation.store;
			const original = store.revokedAt.bind(store);
			store.revokedAt = () => {
				throw new Error('store down');
			};
			try {
				w.clock.now += 60_000;
				expect(await signInAgain(trusted)).toBe('http://localhost:3000/auth/second-factor');
			} finally {
				store.revokedAt = original;
			}
		});
	});
});

describe('twoFactor option', () => {
	const base = { secret: TEST_SECRET, trustHost: true, providers: [] };

	test('is checked at start-up: an object, a boolean required, whole days no longer than jwt.maxAge, an adapter with the two-factor methods', () => {
		expect(() => resolveConfig({ ...base, twoFactor: 'yes' as never })).toThrow(InvalidConfiguration);
		expect(() => resolveConfig({ ...base, twoFactor: { required: 'true' as never } })).toThrow(InvalidConfiguration);
		expect(() => resolveConfig({ ...base, twoFactor: { trustBrowserDays: 1.5 } })).toThrow(/whole number of days/);
		expect(() => resolveConfig({ ...base, twoFactor: { trustBrowserDays: -1 } })).toThrow(InvalidConfiguration);
		expect(() => resolveConfig({ ...base, twoFactor: { required: true } })).toThrow(MissingAdapter);
		const [[, makeAdapter]] = adapters;
		expect(() => resolveConfig({ ...base, adapter: makeAdapter(), twoFactor: { trustBrowserDays: 31 } })).toThrow(/longer than jwt.maxAge/);
		expect(() => resolveConfig({ ...base, adapter: makeAdapter(), session: { maxAge: 7 * 24 * 3600 }, twoFactor: { trustBrowserDays: 8 } })).toThrow(/longer than jwt.maxAge/);
		expect(() => resolveConfig({ ...base, adapter: { ...makeAdapter(), getTwoFactor: undefined }, twoFactor: { required: true } })).toThrow(/getTwoFactor/);
		expect(resolveConfig({ ...base, adapter: makeAdapter(), twoFactor: { required: true, trustBrowserDays: 30 } }).twoFactor).toEqual({ required: true, trustBrowserDays: 30 });
		expect(resolveConfig({ ...base }).twoFactor).toEqual({ required: false, trustBrowserDays: 0 });
	});

	test('the trust cookie is __Host- over HTTPS (this host only, path /, Secure), httpOnly, SameSite=Lax, for the configured days', () => {
		const [[, makeAdapter]] = adapters;
		const config = resolveConfig({ ...base, adapter: makeAdapter(), twoFactor: { trustBrowserDays: 7 } });
		const secure = trustedBrowserCookie(createContext(new Request('https://app.example.com/auth/second-factor'), config));
		expect(secure).toEqual({ name: '__Host-kitgate.trusted-browser', options: { httpOnly: true, sameSite: 'lax', path: '/', secure: true, maxAge: 7 * 24 * 3600 } });
		expect(trustedBrowserCookie(createContext(new Request('http://localhost:3000/auth/second-factor'), config)).name).toBe('kitgate.trusted-browser');
	});
});

// The second factor through `Auth()` on the memory adapter and a SQLite file, under both session
// strategies: enrolment from the account routes, the sign-in gate after an email-link and a
// credentials sign-in (no session until the second step), codes accepted once, recovery codes,
// throttling, removal with a fresh check, and other sessions ended by every change. HTTP through
// both integrations and PostgreSQL are in attacks/two-factor-integrations.test.ts; twoFactor.required and
// trusted browsers in two-factor-policy.test.ts. The world is two-factor-fixture.ts.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { IDP, START } from './account-fixture.js';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from './stored-adapters.js';
import { adaWithSecondFactor, PASSWORD, twoFactorWorld } from './two-factor-fixture.js';

const adapters = memoryAndSqliteAdapters('two-factor');
const STRATEGIES = SESSION_STRATEGIES;
describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(STRATEGIES)('%s sessions', (strategy) => {
		const world = () => twoFactorWorld(makeAdapter(), strategy);

		test('second factor: enrolment answers an otpauth URI, a QR code and the key; confirming with a current code stores it sealed and shows ten recovery codes once', async () => {
			const w = world();
			const ada = await w.signedIn();
			const started = await ada.changeJson('two-factor-start');
			expect(started.status).toBe(200);
			const enrolment = (await started.json()) as { result: string; secret: string; uri: string; qrCodeSvg: string; pending: string };
			expect(enrolment.result).toBe('two-factor-started');
			expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
			expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\/localhost:ada%40example\.com\?/);
			expect(enrolment.uri).toContain(`secret=${enrolment.secret}`);
			expect(enrolment.qrCodeSvg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
			expect(enrolment.pending).not.toContain(enrolment.secret);
			// nothing is stored before the confirmation
			expect(await w.adapter.getTwoFactor(await w.userId())).toBeNull();

			const wrong = await ada.changeJson('two-factor-confirm', { pending: enrolment.pending, code: w.code(enrolment.secret, 5) });
			expect(wrong.status).toBe(401);
			expect(await wrong.json()).toEqual({ error: 'InvalidSecondFactor' });

			const confirmed = await ada.changeJson('two-factor-confirm', { pending: enrolment.pending, code: w.code(enrolment.secret) });
			expect(confirmed.status).toBe(200);
			const { result, recoveryCodes } = (await confirmed.json()) as { result: string; recoveryCodes: string[] };
			expect(result).toBe('two-factor-enabled');
			expect(recoveryCodes).toHaveLength(10);
			const stored = await w.adapter.getTwoFactor(await w.userId());
			expect(stored?.totpSecret).toBeTruthy();
			expect(stored?.totpSecret).not.toContain(enrolment.secret);
			expect(stored?.recoveryCodes).toHaveLength(10);
			for (const recoveryCode of recoveryCodes) expect(JSON.stringify(stored)).not.toContain(recoveryCode.replace(/-/g, ''));
			expect(w.events.filter(([name]) => name === 'twoFactor').map(([, message]) => message.change)).toEqual(['enrolled']);
			// enrolling again is refused until the factor is removed
			const again = await ada.changeJson('two-factor-start');
			expect(await again.json()).toEqual({ error: 'TwoFactorAlreadyEnabled' });
		});

		test('second factor: an enrolment started in one browser or for one user cannot be confirmed in another', async () => {
			const w = world();
			const ada = await w.signedIn();
			const { secret, pending } = (await (await ada.changeJson('two-factor-start')).json()) as { secret: string; pending: string };
			const other = await w.signedIn('bob@example.com');
			const stolen = await other.changeJson('two-factor-confirm', { pending, code: w.code(secret) });
			expect(await stolen.json()).toEqual({ error: 'InvalidRequest' });
			expect(await w.adapter.getTwoFactor(await w.userId())).toBeNull();
		});

		test('second factor: after an email-link sign-in a user with 2FA has no session until the second step; a correct code starts it and signIn fires then', async () => {
			const w = world();
			const { secret } = await adaWithSecondFactor(w);

			const ada = w.browser();
			const signInsBefore = w.eventNames().filter((name) => name === 'signIn').length;
			await ada.signInByEmail('ada@example.com');
			expect(ada.sessionCookie()).toBeUndefined();
			expect(ada.pendingCookie()).toBeDefined();
			expect(await ada.session()).toBeNull();
			expect((await ada.request('/auth/account')).status).toBe(401);
			expect(w.eventNames().filter((name) => name === 'signIn').length).toBe(signInsBefore);

			const page = await ada.request('/auth/second-factor');
			expect(page.status).toBe(200);
			const html = await page.text();
			expect(html).toContain('name="code"');
			expect(html).toContain('autocomplete="one-time-code"');

			const done = await ada.secondStep(w.code(secret));
			expect(done.status).toBe(302);
			expect(done.headers.get('location')).toBe('http://localhost:3000/');
			expect(ada.sessionCookie()).toBeDefined();
			expect(ada.pendingCookie()).toBeUndefined();
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
			expect(w.eventNames().filter((name) => name === 'signIn').length).toBe(signInsBefore + 1);
		});

		test('second factor: after a credentials sign-in a user with 2FA goes to the second step; script callers get JSON', async () => {
			const w = world();
			const { secret } = await adaWithSecondFactor(w);

			const ada = w.browser();
			const first = await ada.signInWithPassword();
			expect(first.status).toBe(302);
			expect(first.headers.get('location')).toBe('http://localhost:3000/auth/second-factor');
			expect(await ada.session()).toBeNull();
			const csrfToken = await ada.client.csrfToken();
			const done = await ada.request('/auth/second-factor', { json: { csrfToken, code: w.code(secret) } });
			expect(done.status).toBe(200);
			expect(await done.json()).toEqual({ url: 'http://localhost:3000/dashboard' });
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
		});

		test('second factor: a wrong code and a replayed code are refused with InvalidSecondFactor, and no session starts', async () => {
			const w = world();
			const { secret } = await adaWithSecondFactor(w, 0);
			// the enrolment's code was used: the same step is a replay
			const replayedAtEnrolment = w.code(secret);
			const ada = w.browser();
			await ada.signInWithPassword();
			const replay = await ada.secondStep(replayedAtEnrolment);
			expect(replay.headers.get('location')).toBe('http://localhost:3000/auth/second-factor?error=InvalidSecondFactor');
			expect(await ada.session()).toBeNull();
			const page = await (await ada.request('/auth/second-factor?error=InvalidSecondFactor')).text();
			expect(page).toContain('role="alert"');

			w.clock.now += 30_000;
			const wrong = await ada.secondStep(w.code(secret, 3));
			expect(new URL(wrong.headers.get('location')!).searchParams.get('error')).toBe('InvalidSecondFactor');
			const good = w.code(secret);
			expect((await ada.secondStep(good)).headers.get('location')).toBe('http://localhost:3000/dashboard');

			// the same code in another browser a moment later: replayed
			const mallory = w.browser();
			await mallory.signInWithPassword();
			const json = await mallory.request('/auth/second-factor', { json: { csrfToken: await mallory.client.csrfToken(), code: good } });
			expect(json.status).toBe(401);
			expect(await json.json()).toEqual({ error: 'InvalidSecondFactor' });
			expect(await mallory.session()).toBeNull();
		});

		test('second factor: wrong codes are throttled per user (rateLimit.secondFactor), even from new pending sign-ins', async () => {
			const w = world();
			const { secret } = await adaWithSecondFactor(w);
			const attacker = w.browser();
			await attacker.signInWithPassword();
			for (let i = 0; i < 5; i++) {
				const refused = await attacker.secondStep('000000');
				expect(new URL(refused.headers.get('location')!).searchParams.get('error')).toBe('InvalidSecondFactor');
			}
			const limited = await attacker.secondStep(w.code(secret));
			expect(new URL(limited.headers.get('location')!).searchParams.get('error')).toBe('RateLimited');
			// another browser, same user: still limited
			const ada = w.browser();
			await ada.signInWithPassword();
			const alsoLimited = await ada.request('/auth/second-factor', { json: { csrfToken: await ada.client.csrfToken(), code: w.code(secret) } });
			expect(alsoLimited.status).toBe(429);
			expect(await ada.session()).toBeNull();
		});

		test('second factor: a recovery code signs in once, and one fewer remains', async () => {
			const w = world();
			const { recoveryCodes } = await adaWithSecondFactor(w, 0);
			const ada = w.browser();
			await ada.signInWithPassword();
			const done = await ada.secondStep(recoveryCodes[3].toUpperCase());
			// a page says how many are left, and leads on to where the sign-in was going
			expect(done.status).toBe(200);
			const page = await done.text();
			expect(page).toContain('You have 9 recovery codes left.');
			expect(page).toContain('href="http://localhost:3000/dashboard"');
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
			expect((await w.adapter.getTwoFactor(await w.userId()))?.recoveryCodes).toHaveLength(9);
			expect(w.events.find(([name, message]) => name === 'twoFactor' && message.change === 'recovery-code-used')?.[1].remainingRecoveryCodes).toBe(9);

			const again = w.browser();
			await again.signInWithPassword();
			const reused = await again.secondStep(recoveryCodes[3]);
			expect(new URL(reused.headers.get('location')!).searchParams.get('error')).toBe('InvalidSecondFactor');
			expect(await again.session()).toBeNull();
		});

		test('second factor: a missing, expired or tampered pending cookie is SecondFactorExpired', async () => {
			const w = world();
			const { secret } = await adaWithSecondFactor(w, 0);
			const nobody = w.browser();
			const none = await nobody.secondStep(w.code(secret));
			expect(new URL(none.headers.get('location')!).searchParams.get('error')).toBe('SecondFactorExpired');
			const page = await nobody.request('/auth/second-factor');
			expect(new URL(page.headers.get('location')!).searchParams.get('error')).toBe('SecondFactorExpired');

			const ada = w.browser();
			await ada.signInWithPassword();
			const name = ada.pendingCookie()!;
			const value = ada.client.jar.get(name)!;
			ada.client.jar.set(name, value.slice(0, -4) + (value.endsWith('AAAA') ? 'BBBB' : 'AAAA'));
			expect(new URL((await ada.secondStep(w.code(secret, 1))).headers.get('location')!).searchParams.get('error')).toBe('SecondFactorExpired');

			const late = w.browser();
			await late.signInWithPassword();
			w.clock.now += 5 * 60_000 + 1000;
			const expired = await late.secondStep(w.code(secret));
			expect(new URL(expired.headers.get('location')!).searchParams.get('error')).toBe('SecondFactorExpired');
			expect(await late.session()).toBeNull();
		});

		test('second factor: the pending cookie is httpOnly, SameSite=Lax and lives 5 minutes', async () => {
			const w = world();
			await adaWithSecondFactor(w, 0);
			const ada = w.browser();
			const csrfToken = await ada.client.csrfToken();
			const response = await ada.request('/auth/callback/credentials', { form: { csrfToken, email: 'ada@example.com', password: PASSWORD } });
			const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith('kitgate.second-factor'))!;
			expect(line).toMatch(/HttpOnly/i);
			expect(line).toMatch(/SameSite=Lax/i);
			expect(line).toMatch(/Max-Age=300/i);
			expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('kitgate.session-token') && !/Max-Age=0/i.test(cookie))).toBe(false);
		});

		test('second factor: a passkey sign-in counts as both factors', async () => {
			const w = world();
			const ada = await w.signedIn();
			await ada.addPasskey();
			await ada.enrol();
			await ada.signOut();
			expect(await ada.session()).toBeNull();
			await ada.signInWithPasskey();
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
			expect(ada.pendingCookie()).toBeUndefined();
		});

		test('second factor: removing it needs a recent sign-in and a current code, then ends the other sessions', async () => {
			const w = world();
			const { setup: ada, secret } = await adaWithSecondFactor(w, 0);
			const laptop = w.browser();
			await laptop.signInWithPassword();
			w.clock.now += 30_000;
			await laptop.secondStep(w.code(secret));
			expect((await laptop.session())?.user?.email).toBe('ada@example.com');

			const noCode = await ada.changeJson('two-factor-remove', {});
			expect(await noCode.json()).toEqual({ error: 'InvalidSecondFactor' });
			w.clock.now += 11 * 60_000;
			const stale = await ada.change('two-factor-remove', { code: w.code(secret) });
			expect(new URL(stale.headers.get('location')!).searchParams.get('error')).toBe('FreshSignInRequired');
			expect(await w.adapter.getTwoFactor(await w.userId())).not.toBeNull();

			// a fresh sign-in in this browser (both steps), then the removal with a current code
			await ada.signInWithPassword();
			w.clock.now += 30_000;
			await ada.secondStep(w.code(secret));
			w.clock.now += 30_000;
			const removed = await ada.change('two-factor-remove', { code: w.code(secret) });
			expect(new URL(removed.headers.get('location')!).searchParams.get('account')).toBe('two-factor-removed');
			expect(await w.adapter.getTwoFactor(await w.userId())).toBeNull();
			expect(await laptop.session()).toBeNull();
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
			expect(w.events.filter(([name]) => name === 'twoFactor').map(([, message]) => message.change)).toEqual(['enrolled', 'removed']);
			// signing in now needs no second step
			const again = w.browser();
			expect((await again.signInWithPassword()).headers.get('location')).toBe('http://localhost:3000/dashboard');
		});

		test('second factor: enrolling and making new recovery codes end the user\'s other sessions; the old codes stop working', async () => {
			const w = world();
			const ada = await w.signedIn();
			const phone = await w.signedIn();
			w.clock.now += 2000;
			const { recoveryCodes } = await ada.enrol();
			expect(await phone.session()).toBeNull();
			expect((await ada.session())?.user?.email).toBe('ada@example.com');

			const tablet = w.browser();
			await tablet.signInWithPassword();
			await tablet.secondStep(recoveryCodes[0]);
			expect((await tablet.session())?.user?.email).toBe('ada@example.com');
			w.clock.now += 2000;
			const withoutCode = await ada.changeJson('two-factor-recovery-codes');
			expect(await withoutCode.json()).toEqual({ error: 'InvalidSecondFactor' });
			const regenerated = await ada.changeJson('two-factor-recovery-codes', { code: recoveryCodes[2] });
			const { recoveryCodes: fresh } = (await regenerated.json()) as { recoveryCodes: string[] };
			expect(fresh).toHaveLength(10);
			expect(await tablet.session()).toBeNull();
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
			const old = w.browser();
			await old.signInWithPassword();
			expect(new URL((await old.secondStep(recoveryCodes[1])).headers.get('location')!).searchParams.get('error')).toBe('InvalidSecondFactor');
			expect(await (await old.secondStep(fresh[1])).text()).toContain('You have 9 recovery codes left.');
		});

		test('second factor: the account changes of the second factor need a CSRF token', async () => {
			const w = world();
			const ada = await w.signedIn();
			const response = await ada.request('/auth/account/two-factor-start', { form: { csrfToken: 'forged' } });
			expect(new URL(response.headers.get('location')!).searchParams.get('accountError')).toBe('MissingCSRF');
		});
	});
});

describe('second factor: configuration', () => {
	test('second factor: an adapter without the two-factor methods is answered MissingAdapterMethod naming the method, and its users sign in with one step', async () => {
		const { getTwoFactor: _g, setTwoFactor: _s, deleteTwoFactor: _d, useTotpStep: _u, useRecoveryCode: _r, ...partial } = MemoryAdapter();
		const w = twoFactorWorld(partial, 'database');
		const ada = await w.signedIn();
		const response = await ada.changeJson('two-factor-start');
		expect(response.status).toBe(503);
		expect(await response.json()).toEqual({ error: 'MissingAdapterMethod' });
		expect(w.errors.map((error) => error.message).join('\n')).toMatch(/getTwoFactor/);
	});

	test('second factor: the sign-in time of a session started at the second step is the second step\'s', async () => {
		const w = twoFactorWorld(MemoryAdapter(), 'jwt');
		const { secret } = await adaWithSecondFactor(w, 0);
		const ada = w.browser();
		await ada.signInWithPassword();
		w.clock.now += 90_000;
		await ada.secondStep(w.code(secret));
		const overview = await ada.overview();
		expect(overview.signedInAt).toBe(new Date(w.clock.now).toISOString());
		expect(START).toBeLessThan(w.clock.now);
		expect(IDP.id).toBe('idp');
	});
});

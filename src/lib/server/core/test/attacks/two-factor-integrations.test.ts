// The second factor over HTTP through both integrations (Express `getSession`, SvelteKit
// `locals.auth()`), on memory, SQLite and PostgreSQL, under both session strategies: enrolment from
// the account routes ends the other sessions; after an email-link or an OIDC sign-in the app sees
// nobody signed in (its page, /auth/session, a protected page) until the second step; a replayed
// code is refused; a recovery code signs in once.

import { beforeAll, describe, expect, test } from 'vitest';
import { everyAdapter } from '../../../adapters/test/every-adapter.js';
import { totpCode, totpStep } from '../../two-factor/totp.js';
import type { Adapter, AuthConfig } from '../../types.js';
import { sinkProvider } from '../email-fixtures.js';
import { Browser, INTEGRATIONS, type AppServer } from '../integrations.js';
import { address, attackConfig, attackWorld, sessionOf, signInByEmail, signInWithIdp, STRATEGIES } from './flows.js';

const world = attackWorld({ sink: true, idp: ['idp'] });

const adapters = everyAdapter('two-factor');
const clock = { now: Date.now() };

function config(adapter: Adapter, strategy: 'jwt' | 'database'): AuthConfig {
	return attackConfig(adapter, strategy, { now: () => clock.now, providers: [sinkProvider(world.sink), world.idp.provider('idp', { allowDangerousEmailAccountLinking: true })] });
}

/** Posts an account change as JSON from the app's own origin. */
async function accountJson(browser: Browser, app: AppServer, operation: string, fields: Record<string, unknown> = {}): Promise<Response> {
	const csrfToken = await browser.csrfToken(app.origin);
	return browser.request(`${app.origin}/auth/account/${operation}`, { json: { csrfToken, ...fields } });
}

/** Enrols TOTP for the browser's signed-in user; the clock then moves past the enrolment's second. */
async function enrol(browser: Browser, app: AppServer): Promise<{ secret: string; recoveryCodes: string[] }> {
	const started = await accountJson(browser, app, 'two-factor-start');
	expect(started.status).toBe(200);
	const { secret, pending } = (await started.json()) as { secret: string; pending: string };
	const confirmed = await accountJson(browser, app, 'two-factor-confirm', { pending, code: totpCode(secret, totpStep(clock.now)) });
	expect(confirmed.status).toBe(200);
	const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
	clock.now += 31_000;
	return { secret, recoveryCodes };
}

async function secondStep(browser: Browser, app: AppServer, code: string): Promise<Response> {
	const csrfToken = await browser.csrfToken(app.origin);
	return browser.request(`${app.origin}/auth/second-factor`, { form: { csrfToken, code } });
}

/** Nobody is signed in as the app sees it: its page, /auth/session and a protected page. */
async function expectSignedOut(browser: Browser, app: AppServer): Promise<void> {
	expect(await sessionOf(browser, app)).toBeNull();
	const session = await browser.request(`${app.origin}/auth/session`);
	expect(await session.json()).toBeNull();
	const page = await browser.request(`${app.origin}/protected`);
	expect(page.status).toBeGreaterThanOrEqual(300);
	expect(page.status).toBeLessThan(400);
	// to the sign-in page (Express: kitgate's; the SvelteKit fixture app: its own /signin)
	expect(page.headers.get('location')).toMatch(/\/signin\?callbackUrl=/);
}

describe.each(INTEGRATIONS)('%s', (integration) => {
	describe.each(adapters)('%s adapter', (_adapterName, makeAdapter) => {
		describe.each(STRATEGIES)('%s sessions', (strategy) => {
			const app = () => world.apps[integration];
			beforeAll(() => {
				app().use(config(makeAdapter(), strategy));
			});

			test('second factor over HTTP: enrolment ends the other sessions; an email-link sign-in reaches nothing until the second step; a replayed code is refused; a recovery code signs in once', async () => {
				const email = address('ada');
				const ada = new Browser();
				await signInByEmail(ada, app(), world.sink, email);
				const phone = new Browser();
				await signInByEmail(phone, app(), world.sink, email);
				clock.now += 2000;
				const { secret, recoveryCodes } = await enrol(ada, app());
				expect(await sessionOf(phone, app())).toBeNull();
				expect((await sessionOf(ada, app()))?.user?.email).toBe(email);

				const laptop = new Browser();
				const primary = await signInByEmail(laptop, app(), world.sink, email);
				expect(new URL(primary.headers.get('location')!).pathname).toBe('/auth/second-factor');
				await expectSignedOut(laptop, app());
				const page = await laptop.request(`${app().origin}/auth/second-factor`);
				expect(page.status).toBe(200);
				expect(await page.text()).toContain('autocomplete="one-time-code"');
				const code = totpCode(secret, totpStep(clock.now));
				const done = await secondStep(laptop, app(), code);
				expect(done.status).toBe(302);
				expect(new URL(done.headers.get('location')!).pathname).toBe('/');
				expect((await sessionOf(laptop, app()))?.user?.email).toBe(email);
				expect((await laptop.request(`${app().origin}/protected`)).status).toBe(200);

				// the same code again, from another primary sign-in: refused, nobody signed in
				const replayer = new Browser();
				await signInByEmail(replayer, app(), world.sink, email);
				const replayed = await secondStep(replayer, app(), code);
				expect(new URL(replayed.headers.get('location')!).searchParams.get('error')).toBe('InvalidSecondFactor');
				await expectSignedOut(replayer, app());
				// a recovery code works once, and says how many are left
				const recovered = await secondStep(replayer, app(), recoveryCodes[0]);
				expect(recovered.status).toBe(200);
				expect(await recovered.text()).toContain('You have 9 recovery codes left.');
				expect((await sessionOf(replayer, app()))?.user?.email).toBe(email);
			});

			test('second factor over HTTP: after an OIDC sign-in a user with 2FA reaches nothing until the second step', async () => {
				const login = `oidc-${crypto.randomUUID().slice(0, 8)}`;
				const email = address('oidc');
				world.idp.addAccount({ id: login, email, name: 'Oidc User', email_verified: true });
				const first = new Browser();
				await signInWithIdp(first, app(), 'idp', login);
				expect((await sessionOf(first, app()))?.user?.email).toBe(email);
				const { secret } = await enrol(first, app());

				const browser = new Browser();
				const back = await signInWithIdp(browser, app(), 'idp', login);
				expect(new URL(back.headers.get('location')!).pathname).toBe('/auth/second-factor');
				await expectSignedOut(browser, app());
				const wrong = await secondStep(browser, app(), totpCode(secret, totpStep(clock.now) + 4));
				expect(new URL(wrong.headers.get('location')!).searchParams.get('error')).toBe('InvalidSecondFactor');
				await expectSignedOut(browser, app());
				const done = await secondStep(browser, app(), totpCode(secret, totpStep(clock.now)));
				expect(new URL(done.headers.get('location')!).pathname).toBe('/');
				expect((await sessionOf(browser, app()))?.user?.email).toBe(email);
			});
		});
	});
});

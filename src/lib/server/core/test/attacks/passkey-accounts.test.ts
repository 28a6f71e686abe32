// Attacks on passkeys: (6) telling known addresses from unknown ones through the options route,
// and (2) registering a passkey under the victim's address first, so that the victim's later
// email sign-in lands in the attacker's user. Over HTTP on both integrations.

import { describe, expect, test } from 'vitest';
import { everyAdapter } from '../../../adapters/test/every-adapter.js';
import Passkey from '../../../providers/passkey.js';
import type { Adapter } from '../../types.js';
import { sinkProvider } from '../email-fixtures.js';
import { Browser, INTEGRATIONS, type AppServer } from '../integrations.js';
import { softwareAuthenticator } from '../software-authenticator.js';
import { optionsUserId, type OptionsAnswer } from '../webauthn-fixture.js';
import { address, attackConfig, attackWorld, sessionOf, signInByEmail, STRATEGIES, type Strategy } from './flows.js';

const world = attackWorld({ sink: true });

function usePasskeys(app: AppServer, adapter: Adapter, strategy: Strategy = 'database') {
	app.use(attackConfig(adapter, strategy, { providers: [Passkey(), sinkProvider(world.sink)], experimental: { enableWebAuthn: true } }));
}

async function options(browser: Browser, app: AppServer, query: Record<string, string>) {
	const response = await browser.request(`${app.origin}/auth/webauthn-options/passkey?${new URLSearchParams(query)}`);
	return { status: response.status, cookies: response.headers.getSetCookie().map((c) => c.split('=')[0]), body: (await response.json()) as OptionsAnswer };
}

async function callback(browser: Browser, app: AppServer, action: 'register' | 'authenticate', data: unknown) {
	const csrfToken = await browser.csrfToken(app.origin);
	return browser.request(`${app.origin}/auth/callback/passkey`, { json: { action, data, csrfToken, callbackUrl: '/' } });
}

/** An options answer with what differs on every request (challenge, new user id) taken out. */
function shape(answer: Awaited<ReturnType<typeof options>>) {
	const { challenge: _challenge, user, ...rest } = answer.body.options as unknown as Record<string, unknown> & { user?: Record<string, unknown> };
	const withoutId = user ? { ...user, id: '<id>', name: '<name>', displayName: '<name>' } : undefined;
	return { status: answer.status, cookies: answer.cookies, action: answer.body.action, options: { ...rest, user: withoutId } };
}

const adapters = everyAdapter('passkey-accounts');

describe.each(INTEGRATIONS)('%s', (integration) => {
	const app = () => world.apps[integration];

	test('the options route answers alike for an address with an account and passkeys and for an unknown one', async () => {
		const adapter = adapters[0][1]();
		usePasskeys(app(), adapter);
		// a known user with a passkey: signed in by email, then a passkey added
		const known = address('known');
		const owner = new Browser();
		await signInByEmail(owner, app(), world.sink, known);
		const device = softwareAuthenticator(app().origin);
		const added = await options(owner, app(), { action: 'register' });
		expect((await callback(owner, app(), 'register', device.register(added.body.options))).status).toBe(200);

		const unknown = address('unknown');
		const stranger = new Browser();
		for (const query of [{}, { action: 'authenticate' }, { action: 'register' }] as Record<string, string>[]) {
			const forKnown = await options(stranger, app(), { ...query, email: known });
			const forUnknown = await options(stranger, app(), { ...query, email: unknown });
			expect(shape(forKnown)).toEqual(shape(forUnknown));
			// nothing lists credential ids, and signing up never says an account exists
			expect(forKnown.body.options.allowCredentials ?? []).toEqual([]);
			expect(forKnown.status).toBe(200);
		}
	});

	test('the options route is rate limited per client address, like the other sign-in routes (429)', async () => {
		app().use(
			attackConfig(adapters[0][1](), 'database', {
				providers: [Passkey(), sinkProvider(world.sink)],
				experimental: { enableWebAuthn: true },
				rateLimit: { passkey: { perAddress: 3 } }
			})
		);
		const browser = new Browser();
		for (let i = 0; i < 3; i++) expect((await options(browser, app(), { action: 'authenticate' })).status).toBe(200);
		const refused = await options(browser, app(), { action: 'authenticate', email: address('any') });
		expect(refused.status).toBe(429);
		expect(refused.body).toEqual({ error: 'RateLimited' });
		expect(refused.cookies).not.toContain('kitgate.challenge');
	});

	describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
		describe.each(STRATEGIES)('%s sessions', (strategy) => {
			test("a passkey registered first under the victim's address never reaches the victim's account", async () => {
				const adapter = makeAdapter() as Required<Adapter>;
				usePasskeys(app(), adapter, strategy);
				const victimEmail = address('victim');

				// the attacker signs up with a passkey, typing the victim's address
				const attacker = new Browser();
				const device = softwareAuthenticator(app().origin);
				const signUp = await options(attacker, app(), { action: 'register', email: victimEmail });
				expect(signUp.body.action).toBe('register');
				expect((await callback(attacker, app(), 'register', device.register(signUp.body.options))).status).toBe(200);
				const attackerId = optionsUserId(signUp.body.options);
				// the address only labels the attacker's user; it is not the user's email
				expect(await adapter.getUser(attackerId)).toMatchObject({ email: '', name: victimEmail });
				expect(await adapter.getUserByEmail(victimEmail)).toBeNull();

				// the victim signs in by email link: a user of their own
				const victim = new Browser();
				await signInByEmail(victim, app(), world.sink, victimEmail);
				const victimSession = await sessionOf(victim, app());
				expect(victimSession?.user?.email).toBe(victimEmail);
				expect(victimSession?.user?.id).not.toBe(attackerId);

				// the attacker's passkey still signs in the attacker only
				const later = new Browser();
				const login = await options(later, app(), { action: 'authenticate' });
				expect((await callback(later, app(), 'authenticate', device.authenticate(login.body.options))).status).toBe(200);
				expect((await sessionOf(later, app()))?.user?.id).toBe(attackerId);
				expect(await adapter.listAuthenticatorsByUserId(victimSession?.user?.id as string)).toEqual([]);
			});
		});
	});
});

// OAuth sign-in with an adapter (memory): user creation, account linking rules, the signIn
// callback's outcomes, events, `jwt` triggers and `pages.newUser`, against the real IdP.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import type { Adapter, AuthConfig, EventCallbacks, OAuthConfig, Session } from '../types.js';
import { testClient } from './client.js';
import {
	ORIGIN,
	expectErrorRedirect,
	idpProvider,
	oauthConfig,
	quietLogger,
	setsSession,
	linkThroughIdp,
	signInThroughIdp,
	testIdpWorld
} from './oauth-fixtures.js';

const world = testIdpWorld();

type EventName = keyof EventCallbacks;

/** A memory-adapter config that records events and `jwt` triggers. */
function setup(providers: OAuthConfig[], overrides: Partial<AuthConfig> = {}, adapter: Required<Adapter> = MemoryAdapter()) {
	const events: [EventName, Record<string, unknown>][] = [];
	const triggers: (string | undefined)[] = [];
	const log = quietLogger();
	const record = (name: EventName) => (message: unknown) => void events.push([name, message as Record<string, unknown>]);
	const config = oauthConfig(providers, {
		adapter,
		logger: log.logger,
		events: { createUser: record('createUser'), linkAccount: record('linkAccount'), signIn: record('signIn') },
		callbacks: {
			jwt: ({ token, trigger }) => {
				if (trigger) triggers.push(trigger);
				return token;
			}
		},
		...overrides
	});
	return { adapter, events, triggers, log, config, client: testClient(config) };
}

const named = (events: [EventName, unknown][]) => events.map(([name]) => name);
const other = (issuer: string, extra: Partial<OAuthConfig> = {}) => idpProvider(issuer, { id: 'other', name: 'Other', ...extra });

describe('first and later sign-ins', () => {
	test('creates the user and links the account (database sessions), with createUser/linkAccount/signIn events', async () => {
		const { adapter, events, client } = setup([idpProvider(world.idp.issuer)]);
		const response = await signInThroughIdp(client, 'idp');
		expect(response.headers.get('location')).toBe(`${ORIGIN}/dashboard`);
		expect(setsSession(response)).toBe(true);

		const user = await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'demo' });
		expect(user).toMatchObject({ email: 'demo@kitgate.dev', name: 'Demo User', emailVerified: null });
		expect(user?.id).not.toBe('demo');
		const account = await adapter.getAccount('demo', 'idp');
		expect(account).toMatchObject({ userId: user?.id, type: 'oidc', token_type: 'bearer', access_token: expect.any(String) });
		expect(account?.expires_at).toEqual(expect.any(Number));

		expect(named(events)).toEqual(['createUser', 'linkAccount', 'signIn']);
		expect(events[2][1]).toMatchObject({ isNewUser: true, account: { provider: 'idp' } });
		const session = (await (await client.request('/auth/session')).json()) as Session;
		expect(session.user).toMatchObject({ email: 'demo@kitgate.dev' });
	});

	test('JWT sessions with an adapter: jwt trigger signUp, then signIn on the next sign-in; sub is the stored user id', async () => {
		const { adapter, triggers, events, client } = setup([idpProvider(world.idp.issuer)], { session: { strategy: 'jwt' } });
		await signInThroughIdp(client, 'idp');
		await signInThroughIdp(client, 'idp');
		expect(triggers).toEqual(['signUp', 'signIn']);
		expect(named(events)).toEqual(['createUser', 'linkAccount', 'signIn', 'signIn']);
		expect(events[3][1]).toMatchObject({ isNewUser: false });
		const user = await adapter.getUserByEmail('demo@kitgate.dev');
		const session = (await (await client.request('/auth/session')).json()) as Session;
		expect(session.user?.email).toBe('demo@kitgate.dev');
		expect(user).not.toBeNull();
	});

	test('a repeated sign-in stores the new tokens on the account', async () => {
		const { adapter, client } = setup([idpProvider(world.idp.issuer)]);
		await signInThroughIdp(client, 'idp');
		const first = await adapter.getAccount('demo', 'idp');
		await signInThroughIdp(client, 'idp');
		const second = await adapter.getAccount('demo', 'idp');
		expect(second?.access_token).not.toBe(first?.access_token);
		expect(second?.userId).toBe(first?.userId);
	});

	test('pages.newUser receives new users (with callbackUrl); returning users go to the callback URL', async () => {
		const { client } = setup([idpProvider(world.idp.issuer)], { pages: { newUser: '/welcome' } });
		const first = await signInThroughIdp(client, 'idp');
		expect(first.headers.get('location')).toBe(`${ORIGIN}/welcome?callbackUrl=${encodeURIComponent(`${ORIGIN}/dashboard`)}`);
		const second = await signInThroughIdp(client, 'idp');
		expect(second.headers.get('location')).toBe(`${ORIGIN}/dashboard`);
	});
});

describe('account linking', () => {
	test('same email, other provider: OAuthAccountNotLinked on the sign-in page, nothing written', async () => {
		const { adapter, events, config, client } = setup([idpProvider(world.idp.issuer), other(world.idp.issuer)]);
		await signInThroughIdp(client, 'idp');
		const owner = await adapter.getUserByEmail('demo@kitgate.dev');
		const stranger = testClient(config);
		expectErrorRedirect(await signInThroughIdp(stranger, 'other'), 'OAuthAccountNotLinked');
		expect(await adapter.getAccount('demo', 'other')).toBeNull();
		expect(await adapter.getUserByEmail('demo@kitgate.dev')).toEqual(owner);
		expect(named(events)).toEqual(['createUser', 'linkAccount', 'signIn']);
	});

	test('allowDangerousEmailAccountLinking links the account to the user who proved that email', async () => {
		const trusted = { allowDangerousEmailAccountLinking: true };
		const { adapter, events, config, client } = setup([idpProvider(world.idp.issuer, trusted), other(world.idp.issuer, trusted)]);
		await signInThroughIdp(client, 'idp');
		const owner = await adapter.getUserByEmail('demo@kitgate.dev');
		// a trusted provider proves the address: the user owns it
		expect(owner?.emailVerified).toBeInstanceOf(Date);
		// another browser, not signed in: the link comes from the email alone
		const response = await signInThroughIdp(testClient(config), 'other');
		expect(response.headers.get('location')).toBe(`${ORIGIN}/dashboard`);
		expect(setsSession(response)).toBe(true);
		expect((await adapter.getAccount('demo', 'other'))?.userId).toBe(owner?.id);
		expect(named(events)).toEqual(['createUser', 'linkAccount', 'signIn', 'linkAccount', 'signIn']);
	});

	test('a signed-in user who connects a new provider account (POST /account/link) gets it linked', async () => {
		const { adapter, client } = setup([idpProvider(world.idp.issuer), other(world.idp.issuer)]);
		await signInThroughIdp(client, 'idp');
		const owner = await adapter.getUserByEmail('demo@kitgate.dev');
		const response = await linkThroughIdp(client, 'other', { login: 'alice' });
		expect(response.headers.get('location')).toBe(`${ORIGIN}/dashboard?account=linked`);
		expect((await adapter.getAccount('alice', 'other'))?.userId).toBe(owner?.id);
		expect(await adapter.getUserByEmail('alice@example.test')).toBeNull();
	});

	test('a plain sign-in with a new provider account while signed in connects nothing: a user of its own (row N2)', async () => {
		const { adapter, client } = setup([idpProvider(world.idp.issuer), other(world.idp.issuer)]);
		await signInThroughIdp(client, 'idp');
		const owner = await adapter.getUserByEmail('demo@kitgate.dev');
		await signInThroughIdp(client, 'other', { login: 'alice' });
		const alice = await adapter.getUserByEmail('alice@example.test');
		expect(alice).not.toBeNull();
		expect((await adapter.getAccount('alice', 'other'))?.userId).toBe(alice?.id);
		expect(alice?.id).not.toBe(owner?.id);
	});

	test("signed in as one user, connecting another user's account: OAuthAccountNotLinked", async () => {
		const { adapter, client } = setup([idpProvider(world.idp.issuer), other(world.idp.issuer)]);
		const alice = testClient(oauthConfig([idpProvider(world.idp.issuer), other(world.idp.issuer)], { adapter }));
		await signInThroughIdp(alice, 'other', { login: 'alice' });
		await signInThroughIdp(client, 'idp');
		expectErrorRedirect(await linkThroughIdp(client, 'other', { login: 'alice' }), 'OAuthAccountNotLinked');
		const aliceUser = await adapter.getUserByEmail('alice@example.test');
		expect((await adapter.getAccount('alice', 'other'))?.userId).toBe(aliceUser?.id);
	});
});

describe('the signIn callback', () => {
	test('false: AccessDenied on the error page, nothing written', async () => {
		const { adapter, events, client } = setup([idpProvider(world.idp.issuer)], { callbacks: { signIn: () => false } });
		expectErrorRedirect(await signInThroughIdp(client, 'idp'), 'AccessDenied', 'error');
		expect(await adapter.getUserByEmail('demo@kitgate.dev')).toBeNull();
		expect(events).toEqual([]);
	});

	test('a throw: AccessDenied carrying the original message, nothing written', async () => {
		const { adapter, log, client } = setup([idpProvider(world.idp.issuer)], {
			callbacks: {
				signIn: () => {
					throw new Error('banned domain');
				}
			}
		});
		expectErrorRedirect(await signInThroughIdp(client, 'idp'), 'AccessDenied', 'error');
		expect(log.text()).toMatch(/^AccessDenied banned domain <- Error: banned domain/m);
		expect(await adapter.getUserByEmail('demo@kitgate.dev')).toBeNull();
	});

	test('a string: redirect there, no session, nothing written; it sees the profile user and account', async () => {
		const seen: unknown[] = [];
		const { adapter, client } = setup([idpProvider(world.idp.issuer)], {
			callbacks: {
				signIn: (params) => {
					seen.push(params);
					return '/not-yet';
				}
			}
		});
		const response = await signInThroughIdp(client, 'idp');
		expect(response.headers.get('location')).toBe(`${ORIGIN}/not-yet`);
		expect(setsSession(response)).toBe(false);
		expect(await adapter.getUserByEmail('demo@kitgate.dev')).toBeNull();
		expect(seen[0]).toMatchObject({
			user: { id: 'demo', email: 'demo@kitgate.dev' },
			account: { provider: 'idp', providerAccountId: 'demo', type: 'oidc' },
			profile: { sub: 'demo' }
		});
	});

	test('for a returning user it receives the stored user', async () => {
		const seen: { user: { id?: string } }[] = [];
		const { adapter, client } = setup([idpProvider(world.idp.issuer)], {
			callbacks: { signIn: (params) => (seen.push(params as never), true) }
		});
		await signInThroughIdp(client, 'idp');
		await signInThroughIdp(client, 'idp');
		const stored = await adapter.getUserByEmail('demo@kitgate.dev');
		expect(seen[1].user.id).toBe(stored?.id);
	});
});

describe('adapter problems', () => {
	test('a missing adapter method fails before anything is written', async () => {
		const { linkAccount: _linkAccount, ...withoutLink } = MemoryAdapter();
		const adapter = withoutLink as Required<Adapter>;
		const { client, log } = setup([idpProvider(world.idp.issuer)], {}, adapter);
		expectErrorRedirect(await signInThroughIdp(client, 'idp'), 'MissingAdapterMethod', 'error');
		expect(log.text()).toContain('`linkAccount`');
		expect(await adapter.getUserByEmail('demo@kitgate.dev')).toBeNull();
	});

	test('linkAccount failing after createUser: the new user is deleted (no orphan), CallbackRouteError', async () => {
		const memory = MemoryAdapter();
		const adapter: Required<Adapter> = {
			...memory,
			linkAccount: async () => {
				throw new Error('disk full');
			}
		};
		const { client, log } = setup([idpProvider(world.idp.issuer)], {}, adapter);
		expectErrorRedirect(await signInThroughIdp(client, 'idp'), 'CallbackRouteError');
		expect(log.text()).toContain('disk full');
		expect(await memory.getUserByEmail('demo@kitgate.dev')).toBeNull();
	});
});

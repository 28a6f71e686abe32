// A standard OpenID provider puts `email` and `name` in userinfo only (OIDC Core 5.4: the code
// flow's ID token need not carry the scope's claims): users must not sign in nameless. The ID
// token's claims are completed from userinfo about the same `sub`, never overridden by it; a
// stored user's empty name and image are filled by a later sign-in, never the email. Against
// oidc-provider as it ships (`conformIdTokenClaims`) and a crafted provider (hostile-openid-provider.ts).

import { decodeJwt } from 'jose';
import { describe, expect, test } from 'vitest';
import { DEMO_ACCOUNT } from '../../../../../scripts/demo-idp.js';
import { MemoryAdapter } from '../../adapters/memory.js';
import type { Account, AuthConfig, OAuthConfig, Profile, Session } from '../types.js';
import { testClient } from './client.js';
import { hostileProviderWorld, signInAt, type OpUser } from './hostile-openid-provider.js';
import { expectErrorRedirect, idpProvider, oauthConfig, quietLogger, setsSession, signInThroughIdp, testIdpWorld } from './oauth-fixtures.js';

const ADA = { id: 'ada', email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace', picture: 'https://img.example.com/ada.png' };

describe('against oidc-provider as it ships: the scope’s claims in userinfo only', () => {
	const world = testIdpWorld({ accounts: [DEMO_ACCOUNT, ADA], conformIdTokenClaims: true });

	/** A config recording the accounts and profiles of sign-ins, and `updateUser` events. */
	function setup(overrides: Partial<AuthConfig> = {}, provider: OAuthConfig = idpProvider(world.idp.issuer)) {
		const log = quietLogger();
		const accounts: Account[] = [];
		const profiles: Profile[] = [];
		const updates: unknown[] = [];
		const config = oauthConfig([provider], {
			logger: log.logger,
			events: {
				signIn: ({ account, profile }) => {
					if (account) accounts.push(account);
					if (profile) profiles.push(profile);
				},
				updateUser: ({ user }) => void updates.push(user)
			},
			...overrides
		});
		return { log, accounts, profiles, updates, client: testClient(config) };
	}

	test('JWT sessions: the ID token has no email or name, the session has both', async () => {
		const { log, accounts, client } = setup();
		expect(setsSession(await signInThroughIdp(client, 'idp'))).toBe(true);
		// the IdP really left them out of the ID token
		const idToken = decodeJwt(accounts[0].id_token as string);
		expect(idToken.sub).toBe('demo');
		expect(idToken).not.toHaveProperty('email');
		expect(idToken).not.toHaveProperty('name');
		const session = (await (await client.request('/auth/session')).json()) as Session;
		expect(session.user).toMatchObject({ name: 'Demo User', email: 'demo@kitgate.dev' });
		expect(log.text()).toBe('');
	});

	test('database sessions: the stored user has the name, email and picture of userinfo', async () => {
		const adapter = MemoryAdapter();
		const { client } = setup({ adapter });
		expect(setsSession(await signInThroughIdp(client, 'idp', { login: 'ada' }))).toBe(true);
		const user = await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'ada' });
		expect(user).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', image: ADA.picture });
	});

	test('a stored user signed in nameless before: a later sign-in fills the empty name and image (updateUser), keeps the email', async () => {
		const adapter = MemoryAdapter();
		const verified = new Date('2024-01-01T00:00:00Z');
		await adapter.createUser({ id: 'u1', email: 'old@example.com', emailVerified: verified, name: null, image: null });
		await adapter.linkAccount({ provider: 'idp', providerAccountId: 'ada', type: 'oidc', userId: 'u1' });
		// a provider trusted with addresses, whose profile now carries another verified address
		const { updates, client } = setup({ adapter }, idpProvider(world.idp.issuer, { allowDangerousEmailAccountLinking: true }));
		expect(setsSession(await signInThroughIdp(client, 'idp', { login: 'ada' }))).toBe(true);
		expect(await adapter.getUser('u1')).toMatchObject({ name: 'Ada Lovelace', image: ADA.picture, email: 'old@example.com', emailVerified: verified });
		expect(await adapter.getUserByEmail('ada@example.com')).toBeNull();
		expect(updates).toEqual([expect.objectContaining({ id: 'u1', name: 'Ada Lovelace' })]);
		const session = (await (await client.request('/auth/session')).json()) as Session;
		expect(session.user).toMatchObject({ name: 'Ada Lovelace', email: 'old@example.com' });

		// a name the user has is theirs: a later profile does not replace it
		await adapter.updateUser({ id: 'u1', name: 'Countess of Lovelace' });
		const later = setup({ adapter });
		expect(setsSession(await signInThroughIdp(later.client, 'idp', { login: 'ada' }))).toBe(true);
		expect(await adapter.getUser('u1')).toMatchObject({ name: 'Countess of Lovelace', image: ADA.picture, email: 'old@example.com' });
		expect(later.updates).toEqual([]);
	});
});

describe('against a crafted provider: userinfo completes the ID token, never overrides it', () => {
	const world = hostileProviderWorld();

	/** ID tokens without the claims named (the provider's userinfo still has them). */
	function idTokensWithout(...names: string[]) {
		world.op.mintIdToken = (parts, { sign }) =>
			sign({ ...parts, claims: Object.fromEntries(Object.entries(parts.claims).filter(([name]) => !names.includes(name))) });
	}

	/** The world's setup with `provider`, recording the profiles the `signIn` callback is given. */
	function setup(provider: OAuthConfig = world.op.provider()) {
		const profiles: Profile[] = [];
		const { adapter, log, browser } = world.setup({
			providers: [provider],
			callbacks: { signIn: ({ profile }) => (profile && profiles.push(profile), true) }
		});
		return { adapter, log, profiles, client: browser };
	}

	const alice: OpUser = { sub: 'alice', email: 'alice@example.test', name: 'Alice' };
	const userinfoRequests = () => world.op.fetched.filter((url) => url.endsWith('/userinfo')).length;

	test('an ID token with email and name: no userinfo request', async () => {
		const { profiles, client } = setup();
		expect(setsSession(await signInAt(world.op, client(), alice))).toBe(true);
		expect(profiles[0]).toMatchObject({ email: 'alice@example.test', name: 'Alice' });
		expect(userinfoRequests()).toBe(0);
	});

	test('userinfo about another sub refuses the sign-in: nothing stored, no session', async () => {
		idTokensWithout('email', 'email_verified', 'name');
		world.op.userinfo = () => ({ sub: 'mallory', email: 'mallory@example.test', email_verified: true, name: 'Mallory' });
		const { adapter, log, client } = setup();
		const browser = client();
		expectErrorRedirect(await signInAt(world.op, browser, alice), 'OAuthCallbackError');
		expect(await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'alice' })).toBeNull();
		expect(await adapter.getUserByEmail('mallory@example.test')).toBeNull();
		expect(await (await browser.request('/auth/session')).json()).toBeNull();
		expect(log.text()).toContain('another subject');
	});

	test('userinfo fills what the ID token lacks and nothing else: not its sub, issuer, address or the word on that address', async () => {
		// the ID token has an unverified address and no name
		idTokensWithout('name');
		world.op.userinfo = (user) =>
			JSON.parse(
				JSON.stringify({
					sub: user.sub,
					iss: 'https://attacker.example',
					aud: 'someone-else',
					name: 'Alice Liddell',
					email: 'alice@attacker.example',
					email_verified: true,
					locale: 'en-GB'
				}).replace('{', '{"__proto__":{"email_verified":true,"picture":"https://attacker.example/p.png"},')
			) as Record<string, unknown>;
		const { profiles, client } = setup();
		expect(setsSession(await signInAt(world.op, client(), { ...alice, email_verified: false }))).toBe(true);
		const profile = profiles[0];
		expect(profile).toMatchObject({ sub: 'alice', iss: world.op.issuer, aud: world.op.clientId, name: 'Alice Liddell', email: 'alice@example.test', email_verified: false, locale: 'en-GB' });
		expect(Object.getPrototypeOf(profile)).toBe(Object.prototype);
		expect(profile.picture).toBeUndefined();
		expect(Object.hasOwn(profile, '__proto__')).toBe(false);
	});

	test('an address taken from userinfo carries userinfo’s word on it, never the ID token’s', async () => {
		// the ID token says "verified" without an address; userinfo gives an address and no word on it
		world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, claims: { ...parts.claims, email: undefined, name: undefined, email_verified: true } });
		world.op.userinfo = (user) => ({ sub: user.sub, email: 'alice@example.test', name: 'Alice' });
		const { profiles, client } = setup(world.op.provider({ allowDangerousEmailAccountLinking: true }));
		expect(setsSession(await signInAt(world.op, client(), alice))).toBe(true);
		expect(profiles[0]).toMatchObject({ email: 'alice@example.test', name: 'Alice' });
		expect(profiles[0]).not.toHaveProperty('email_verified');
	});

	test('userinfo that cannot be read: the sign-in goes on with the ID token, and says why the user is nameless', async () => {
		idTokensWithout('name');
		world.op.userinfo = () => {
			throw new Error('down');
		};
		const { adapter, log, client } = setup();
		expect(setsSession(await signInAt(world.op, client(), alice))).toBe(true);
		expect(await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'alice' })).toMatchObject({ email: 'alice@example.test', name: null });
		expect(log.warnings.join('\n')).toMatch(/oidc-userinfo .*"op".*userinfo request failed.*no `name` claim/);
	});

	test('no userinfo endpoint: the first such sign-in warns, naming what to set; later ones do not', async () => {
		idTokensWithout('email', 'email_verified', 'name');
		world.op.changeMetadata({ userinfo_endpoint: undefined });
		const { log, client } = setup(world.op.provider({ id: 'bare' }));
		expect(setsSession(await signInAt(world.op, client(), alice, {}, 'bare'))).toBe(true);
		expect(log.warnings).toEqual([expect.stringMatching(/^oidc-profile-claims Provider "bare": the ID token has no `email` or `name` claim.*scope.*`userinfo`.*`profile\(\)`/)]);
		expect(setsSession(await signInAt(world.op, client(), alice, {}, 'bare'))).toBe(true);
		expect(log.warnings).toHaveLength(1);
	});

	test('no userinfo endpoint and a name that comes in the callback’s form (`formPostUser`, as Apple): no warning', async () => {
		idTokensWithout('name');
		world.op.changeMetadata({ userinfo_endpoint: undefined });
		const { log, profiles, client } = setup(world.op.provider({ id: 'form-post', formPostUser: true }));
		expect(setsSession(await signInAt(world.op, client(), alice, {}, 'form-post'))).toBe(true);
		expect(profiles[0]).toMatchObject({ sub: 'alice', email: 'alice@example.test' });
		expect(log.warnings).toEqual([]);
	});
});

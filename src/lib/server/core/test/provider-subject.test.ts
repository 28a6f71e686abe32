// Who signs in through an OpenID provider is the ID token's `sub` at that provider (ASVS 10.5.2):
// the account is keyed by provider and `sub`, so a returning user whose address and name changed at
// the provider is the same user, a new `sub` that arrives with a known address (an address the
// provider gave to someone else) is not that user, and a userinfo answer for another `sub` than
// the ID token's is refused. Against a crafted provider on 127.0.0.1 (hostile-openid-provider.ts).

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import type { AuthConfig, OAuthConfig } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { hostileProviderWorld, signInAt } from './hostile-openid-provider.js';
import { expectErrorRedirect, quietLogger, setsSession } from './oauth-fixtures.js';

const world = hostileProviderWorld();

/** A config on a memory adapter recording the user id of every sign-in. */
function setup(provider: OAuthConfig = world.op.provider(), strategy: 'jwt' | 'database' = 'database') {
	const adapter = MemoryAdapter();
	const log = quietLogger();
	const signIns: string[] = [];
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		adapter,
		session: { strategy },
		logger: log.logger,
		providers: [provider],
		events: { signIn: ({ user }) => void signIns.push(String(user.id)) }
	};
	return { adapter, log, signIns, browser: () => testClient(config) };
}

describe('the user is the provider’s sub', () => {
	test.each(['database', 'jwt'] as const)('%s sessions: a returning sub whose email and name changed at the provider is the same user; no second user is made', async (strategy) => {
		const { adapter, signIns, browser } = setup(world.op.provider(), strategy);
		expect(setsSession(await signInAt(world.op, browser(), { sub: 'alice', email: 'alice@example.test', name: 'Alice' }))).toBe(true);
		const first = (await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'alice' }))!;
		expect(first).not.toBeNull();

		expect(setsSession(await signInAt(world.op, browser(), { sub: 'alice', email: 'alice.new@example.test', name: 'Alice New' }))).toBe(true);
		expect(signIns).toEqual([first.id, first.id]);
		expect((await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'alice' }))?.id).toBe(first.id);
		expect(await adapter.getUserByEmail('alice.new@example.test')).toBeNull();
	});

	test('another sub arriving with a known user’s verified email (an address the provider reassigned) is not that user: OAuthAccountNotLinked, nothing linked', async () => {
		const { adapter, signIns, browser } = setup();
		expect(setsSession(await signInAt(world.op, browser(), { sub: 'alice', email: 'shared@example.test', name: 'Alice' }))).toBe(true);
		const alice = (await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'alice' }))!;

		const newcomer = browser();
		expectErrorRedirect(await signInAt(world.op, newcomer, { sub: 'bob', email: 'shared@example.test', name: 'Bob', email_verified: true }), 'OAuthAccountNotLinked');
		expect(await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'bob' })).toBeNull();
		expect(signIns).toEqual([alice.id]);
		expect(await (await newcomer.request('/auth/session')).json()).toBeNull();
	});

	test('the profile comes from userinfo (idToken: false): an answer for another sub than the ID token’s is refused', async () => {
		world.op.userinfo = (user) => ({ ...user, sub: 'mallory', email: 'mallory@example.test' });
		const { adapter, log, browser } = setup(world.op.provider({ idToken: false }));
		expectErrorRedirect(await signInAt(world.op, browser(), { sub: 'alice', email: 'alice@example.test' }), 'OAuthCallbackError');
		expect(log.text()).toMatch(/the userinfo request failed: unexpected "response" body "sub" property value/);
		expect(await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'mallory' })).toBeNull();
		expect(await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'alice' })).toBeNull();

		world.op.userinfo = (user) => ({ ...user });
		expect(setsSession(await signInAt(world.op, browser(), { sub: 'alice', email: 'alice@example.test' }))).toBe(true);
		expect(await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'alice' })).not.toBeNull();
	});
});

// Attack on the OIDC userinfo fallback (flows/oauth/userinfo-claims-merge.ts): an ID token that
// says `email_verified: false` but leaves the address to userinfo, and a userinfo that gives the
// address with no word on it. The merge drops the ID token's "false" (it keeps only userinfo's
// word on an address from userinfo), so the address is no longer refuted and, on a provider
// trusted with addresses (allowDangerousEmailAccountLinking), the sign-in links to the existing
// user who owns that address. A refutation must survive the merge: "not verified" is never
// made stronger by being dropped. Real server: the crafted provider of hostile-openid-provider.ts.

import { describe, expect, test } from 'vitest';
import { hostileProviderWorld, signInAt } from '../hostile-openid-provider.js';
import { setsSession } from '../oauth-fixtures.js';

describe('userinfo cannot lift the ID token’s email_verified: false', () => {
	const world = hostileProviderWorld();

	test('an ID token refuting the address and a userinfo naming a victim’s address: no link to the victim (allowDangerousEmailAccountLinking)', async () => {
		// the ID token: no email, no name, but the provider's word that the address is NOT verified
		world.op.mintIdToken = (parts, { sign }) =>
			sign({ ...parts, claims: { ...parts.claims, email: undefined, name: undefined, email_verified: false } });
		// userinfo: the address (the attacker's unverified one, which is the victim's), no word on it
		world.op.userinfo = (user) => ({ sub: user.sub, email: 'victim@example.test', name: 'Mallory' });

		const { adapter, browser } = world.setup({ providers: [world.op.provider({ allowDangerousEmailAccountLinking: true })] });
		const victim = await adapter.createUser({ id: 'victim', email: 'victim@example.test', emailVerified: new Date('2024-01-01T00:00:00Z'), name: 'Victim', image: null });

		const client = browser();
		const response = await signInAt(world.op, client, { sub: 'mallory', email: 'victim@example.test', email_verified: false });
		const linked = await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'mallory' });
		// the attacker's identity must not become a way into the victim's account
		expect(linked?.id).not.toBe(victim.id);
		const session = setsSession(response) ? ((await (await client.request('/auth/session')).json()) as { user?: { email?: string } } | null) : null;
		expect(session?.user?.email).not.toBe('victim@example.test');
	});

	test('userinfo with claims of the wrong type (an object name, a number email, an array picture): a redirect, never a 500', async () => {
		world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, claims: { ...parts.claims, email: undefined, name: undefined, email_verified: undefined } });
		world.op.userinfo = (user) => ({ sub: user.sub, email: 12345, name: { first: 'M' }, picture: ['x'] });
		const { browser } = world.setup();
		const response = await signInAt(world.op, browser(), { sub: 'mallory' });
		expect(response.status).toBeLessThan(500);
	});
});

// Accepting binds to the invited address: attacks by a user whose address is almost the invited
// one (case, spaces, +tags, trailing dot, Unicode look-alikes), under the default and a custom
// `normalizeIdentifier`, and by an account that claims the address without having proven it (an
// unverified address, as a credentials sign-up stores it). Through the invitation functions the
// routes call, on memory and SQLite.

import { describe, expect, test } from 'vitest';
import Email from '../../providers/email.js';
import { resolveConfig } from '../config/resolve-config.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import type { AccountEmailParams, Adapter, AdapterUser, EmailConfig } from '../types.js';
import { TEST_SECRET } from '../test/client.js';
import { quietLogger } from '../test/oauth-fixtures.js';
import { memoryAndSqliteAdapters } from '../test/stored-adapters.js';
import { acceptInvitation, inviteMember, type InvitationScope } from './invitations.js';
import { organizationWith } from './test/invitation-fixture.js';

/** A normalizer some apps use: lower-case, and the +tag of the local part dropped. */
function withoutPlusTag(input: string): string {
	const address = input.trim().toLowerCase();
	const at = address.lastIndexOf('@');
	return `${address.slice(0, at).replace(/\+.*$/, '')}${address.slice(at)}`;
}

describe.each(memoryAndSqliteAdapters('invitation-address-binding'))('%s adapter', (_name, makeAdapter) => {
	function world(normalizeIdentifier?: EmailConfig['normalizeIdentifier']) {
		const adapter = makeAdapter();
		const sent: AccountEmailParams[] = [];
		const provider = Email({
			sendVerificationRequest: async () => undefined,
			sendAccountEmail: async (params) => void sent.push(params),
			...(normalizeIdentifier ? { normalizeIdentifier } : {})
		});
		const config = resolveConfig({ secret: TEST_SECRET, trustHost: true, adapter, providers: [provider], logger: quietLogger().logger, organizations: {}, rateLimit: { store: MemoryRateLimitStore() } }, {});
		const scope: InvitationScope = { config, now: Date.now(), authUrl: 'https://app.example.com/auth', request: new Request('https://app.example.com/auth') };
		return { adapter, sent, scope };
	}

	async function user(adapter: Required<Adapter>, email: string, verified = true): Promise<AdapterUser> {
		return adapter.createUser({ id: crypto.randomUUID(), email, emailVerified: verified ? new Date() : null, name: null });
	}

	/** An organization and the token of an invitation to `invited`. */
	async function invitedTo(w: ReturnType<typeof world>, invited: string) {
		const owner = await user(w.adapter, `owner-${crypto.randomUUID().slice(0, 8)}@example.com`);
		const organization = await organizationWith(w.adapter, 'Acme', owner);
		await inviteMember(w.scope, { userId: owner.id }, { organizationId: organization.id, email: invited });
		const token = new URL(w.sent.at(-1)!.url).searchParams.get('token');
		return { organization, token };
	}

	async function refused(w: ReturnType<typeof world>, organizationId: string, token: string | null, claimant: AdapterUser): Promise<void> {
		await expect(acceptInvitation(w.scope, { userId: claimant.id }, { token })).rejects.toMatchObject({ type: 'InvitationWrongAddress' });
		expect(await w.adapter.getMembership(organizationId, claimant.id)).toBeNull();
	}

	test.each([
		['a +tag', 'bo+eve@example.com'],
		['a trailing dot in the domain', 'bo@example.com.'],
		['a Cyrillic "о" in the local part', 'b\u043e@example.com'],
		['a fullwidth "ｂ"', '\uff42o@example.com'],
		['a zero-width space', 'b\u200bo@example.com'],
		['another domain', 'bo@example.co']
	])('under the default normalizer, an address with %s cannot accept an invitation to bo@example.com', async (_label, claimed) => {
		const w = world();
		const { organization, token } = await invitedTo(w, 'bo@example.com');
		await refused(w, organization.id, token, await user(w.adapter, claimed));
	});

	test('case and spaces do not matter, as at sign-in: " BO@Example.COM " invited, bo@example.com accepts', async () => {
		const w = world();
		const { organization, token } = await invitedTo(w, ' BO@Example.COM ');
		const bo = await user(w.adapter, 'bo@example.com');
		expect((await acceptInvitation(w.scope, { userId: bo.id }, { token })).member).toMatchObject({ organizationId: organization.id, userId: bo.id });
	});

	test('under a custom normalizer that drops +tags, the stored and the accepting address are normalized alike', async () => {
		const w = world(withoutPlusTag);
		const { organization, token } = await invitedTo(w, 'Bo+Work@Example.com');
		expect(w.sent.at(-1)!.identifier).toBe('bo@example.com');
		// another mailbox is still another address
		await refused(w, organization.id, token, await user(w.adapter, 'bob@example.com'));
		// the account sign-in would find for the address accepts
		const bo = await user(w.adapter, 'BO@example.com');
		expect((await acceptInvitation(w.scope, { userId: bo.id }, { token })).member.userId).toBe(bo.id);
	});

	test('an account whose address is not proven (a credentials sign-up with the invited address) cannot accept', async () => {
		const w = world();
		const { organization, token } = await invitedTo(w, 'bo@example.com');
		const claimant = await user(w.adapter, 'bo@example.com', false);
		await refused(w, organization.id, token, claimant);
		// once the address is proven (an email sign-in sets emailVerified), the same account joins
		await w.adapter.updateUser({ id: claimant.id, emailVerified: new Date() });
		expect((await acceptInvitation(w.scope, { userId: claimant.id }, { token })).member.userId).toBe(claimant.id);
	});

	test('an account without an address cannot accept', async () => {
		const w = world();
		const { organization, token } = await invitedTo(w, 'bo@example.com');
		await refused(w, organization.id, token, await w.adapter.createUser({ id: crypto.randomUUID(), email: '', emailVerified: null, name: 'Passkey user' }));
	});
});

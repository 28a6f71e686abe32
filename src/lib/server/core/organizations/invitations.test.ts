// The invitation functions as the server API calls them (no route): a server script inviting, the
// link built from the configured auth URL only, a mail that cannot be sent, an app without a
// sender, and the address comparison done as sign-in normalizes. Mails are kept by the provider's
// own `sendAccountEmail`.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import Email from '../../providers/email.js';
import { resolveConfig } from '../config/resolve-config.js';
import type { AccountEmailParams, Adapter, AdapterUser, AuthConfig } from '../types.js';
import { TEST_SECRET } from '../test/client.js';
import { quietLogger } from '../test/oauth-fixtures.js';
import { acceptInvitation, invitationDetail, inviteMember, type InvitationScope } from './invitations.js';
import { organizationWith } from './test/invitation-fixture.js';

const AUTH_URL = 'https://app.example.com/auth';

function world(overrides: Partial<AuthConfig> & { send?: (params: AccountEmailParams) => Promise<void> } = {}) {
	const adapter = MemoryAdapter();
	const sent: AccountEmailParams[] = [];
	const { send, ...rest } = overrides;
	const provider = Email({
		sendVerificationRequest: async () => undefined,
		sendAccountEmail: send ?? (async (params) => void sent.push(params))
	});
	const config = resolveConfig({ secret: TEST_SECRET, trustHost: true, adapter, providers: [provider], logger: quietLogger().logger, organizations: {}, ...rest }, {});
	// the request came in under another host: the link must not take it
	const scope: InvitationScope = { config, now: Date.UTC(2026, 5, 1, 12), authUrl: AUTH_URL, request: new Request('https://evil.example/anything') };
	return { adapter, sent, scope };
}

async function user(adapter: Required<Adapter>, email: string, name: string | null = null): Promise<AdapterUser> {
	return adapter.createUser({ id: crypto.randomUUID(), email, emailVerified: new Date(), name });
}

describe('invitations through the server API', () => {
	test('a server script invites: no inviter in the mail, the link under the configured auth URL', async () => {
		const { adapter, sent, scope } = world();
		const owner = await user(adapter, 'owner@example.com');
		const organization = await organizationWith(adapter, 'Acme', owner);
		const invitation = await inviteMember(scope, { system: true }, { organizationId: organization.id, email: ' Bo@Example.com ' });
		expect(invitation).toMatchObject({ email: 'bo@example.com', role: 'member', inviterId: null, status: 'pending' });
		expect(invitation).not.toHaveProperty('tokenHash');
		expect(sent).toHaveLength(1);
		expect(sent[0]).toMatchObject({ kind: 'organization-invitation', identifier: 'bo@example.com', invitation: { organizationName: 'Acme', role: 'member', inviterName: null } });
		const link = new URL(sent[0].url);
		expect(`${link.origin}${link.pathname}`).toBe(`${AUTH_URL}/organizations/invitation`);
		expect(sent[0].expires?.getTime()).toBe(scope.now + 7 * 24 * 60 * 60 * 1000);
		const stored = await adapter.getInvitation(invitation.id);
		expect(stored?.tokenHash).not.toContain(link.searchParams.get('token')!.split('.')[1]);
	});

	test('the invited user accepts even when their stored address is written differently, as sign-in normalizes it', async () => {
		const { adapter, sent, scope } = world();
		const owner = await user(adapter, 'owner@example.com', 'Olga');
		const bo = await user(adapter, 'BO@example.com');
		const organization = await organizationWith(adapter, 'Acme', owner);
		await inviteMember(scope, { userId: owner.id }, { organizationId: organization.id, email: 'bo@example.com', role: 'admin' });
		expect(sent[0].invitation?.inviterName).toBe('Olga');
		const token = new URL(sent[0].url).searchParams.get('token');
		expect((await invitationDetail(scope, token)).organization.name).toBe('Acme');
		const { member } = await acceptInvitation(scope, { userId: bo.id }, { token });
		expect(member).toMatchObject({ organizationId: organization.id, userId: bo.id, role: 'admin' });
	});

	test('a mail that cannot be sent leaves no working invitation, and the earlier one keeps working', async () => {
		let fail = false;
		const sent: AccountEmailParams[] = [];
		const { adapter, scope } = world({
			send: async (params) => {
				if (fail) throw new Error('SMTP down');
				sent.push(params);
			}
		});
		const owner = await user(adapter, 'owner@example.com');
		const organization = await organizationWith(adapter, 'Acme', owner);
		const first = await inviteMember(scope, { userId: owner.id }, { organizationId: organization.id, email: 'bo@example.com' });
		fail = true;
		await expect(inviteMember(scope, { userId: owner.id }, { organizationId: organization.id, email: 'bo@example.com' })).rejects.toMatchObject({ type: 'EmailSignin' });
		const invitations = await adapter.listInvitations(organization.id);
		expect(invitations.find((invitation) => invitation.id === first.id)?.status).toBe('pending');
		expect(invitations.filter((invitation) => invitation.status === 'pending')).toHaveLength(1);
	});

	test('without an email provider that sends account mails, inviting says what to configure', async () => {
		const adapter = MemoryAdapter();
		const config = resolveConfig({ secret: TEST_SECRET, trustHost: true, adapter, providers: [], logger: quietLogger().logger, organizations: {} }, {});
		const owner = await user(adapter, 'owner@example.com');
		const organization = await organizationWith(adapter, 'Acme', owner);
		const scope: InvitationScope = { config, now: Date.now(), authUrl: AUTH_URL, request: new Request(AUTH_URL) };
		await expect(inviteMember(scope, { userId: owner.id }, { organizationId: organization.id, email: 'bo@example.com' })).rejects.toThrow(
			/no email provider with `sendAccountEmail`/
		);
		expect(await adapter.listInvitations(organization.id)).toHaveLength(0);
	});
});

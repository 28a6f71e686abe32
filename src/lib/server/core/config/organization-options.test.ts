// The start-up checks of `organizations`: each bad value stops the app with a message that says
// what to change; a good config gets its defaults; organizations need an adapter with their
// methods, also under JWT sessions.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { Email } from '../../providers/email.js';
import { TEST_SECRET } from '../test/client.js';
import { resolveConfig } from './resolve-config.js';
import type { Adapter, AuthConfig, OrganizationOptions, Provider } from '../types.js';

function start(organizations: unknown, adapter: Adapter | null = MemoryAdapter(), providers: Provider[] = []) {
	const config: AuthConfig = { providers, secret: TEST_SECRET, adapter: adapter ?? undefined, session: { strategy: 'jwt' }, organizations: organizations as OrganizationOptions };
	return () => resolveConfig(config);
}

describe('organizations options at start-up', () => {
	test('left out: routes off, no adapter needed', () => {
		expect(start(undefined, null)().organizations).toBeUndefined();
	});

	test('defaults: anyone creates, 7-day invitations, 20 organizations a user, built-in roles then custom ones', () => {
		const resolved = start({ roles: { billing: { invoice: ['pay'] } } })().organizations!;
		expect(resolved).toMatchObject({ allowCreate: true, invitationMaxAge: 604800, maxOrganizationsPerUser: 20, emailProvider: undefined });
		expect(resolved.roleNames).toEqual(['owner', 'admin', 'member', 'billing']);
	});

	test.each([
		['not an object', 'yes', /organizations must be an object/],
		['a misspelt key', { invitationMaxage: 60 }, /organizations: unknown option `invitationMaxage` \(did you mean `invitationMaxAge`\?\)/],
		['a role name with a space', { roles: { 'super admin': {} } }, /the role name "super admin" must start with a letter/],
		['a role name with markup', { roles: { '<b>': {} } }, /the role name "<b>"/],
		['roles as a list', { roles: ['admin'] }, /organizations\.roles must be an object/],
		['statements not an object', { roles: { billing: ['pay'] } }, /organizations\.roles\.billing must be an object of resource → list of actions/],
		['actions not a list', { roles: { billing: { invoice: 'pay' } } }, /organizations\.roles\.billing\.invoice must be a list of action names.*got "pay"/],
		['an action not a string', { roles: { billing: { invoice: [1] } } }, /got \[1\]/],
		['a bad resource name', { roles: { billing: { 'in voice': ['pay'] } } }, /the resource name "in voice"/],
		['invitationMaxAge 59 s', { invitationMaxAge: 59 }, /organizations\.invitationMaxAge must be a number of seconds from 60 \(one minute\) to 2592000 \(30 days\); got 59/],
		['invitationMaxAge over 30 days', { invitationMaxAge: 2592001 }, /got 2592001/],
		['invitationMaxAge as text', { invitationMaxAge: '3600' }, /got "3600"/],
		['maxOrganizationsPerUser 0', { maxOrganizationsPerUser: 0 }, /organizations\.maxOrganizationsPerUser must be a whole number above 0; got 0/],
		['maxOrganizationsPerUser 1.5', { maxOrganizationsPerUser: 1.5 }, /got 1\.5/],
		['allowCreate "yes"', { allowCreate: 'yes' }, /organizations\.allowCreate must be true, false or a function/],
		['emailProvider naming nothing', { emailProvider: 'mailer' }, /organizations\.emailProvider must be the id of an email provider with `sendAccountEmail`.*got "mailer"\. None is configured/]
	])('%s is refused with what to change', (_name, organizations, message) => {
		expect(start(organizations)).toThrow(message);
	});

	test('emailProvider must name an email provider that sends account mails', () => {
		const sender = Email({ id: 'mail', from: 'a@example.com', server: 'smtp://127.0.0.1:1', sendAccountEmail: async () => {} });
		// a provider that sends only sign-in links (its own sendVerificationRequest) sends no account mails
		const plain = Email({ id: 'plain', from: 'a@example.com', sendVerificationRequest: async () => {} });
		expect(start({ emailProvider: 'mail' }, MemoryAdapter(), [sender, plain])().organizations?.emailProvider).toBe('mail');
		expect(start({ emailProvider: 'plain' }, MemoryAdapter(), [sender, plain])).toThrow(/got "plain"\. Configured: "mail"/);
	});

	test('two email providers that send account mails: the app names the one of invitations', () => {
		const first = Email({ id: 'mail', from: 'a@example.com', server: 'smtp://127.0.0.1:1', sendAccountEmail: async () => {} });
		const second = Email({ id: 'mail-eu', from: 'a@example.com', server: 'smtp://127.0.0.1:1', sendAccountEmail: async () => {} });
		expect(start({}, MemoryAdapter(), [first, second])).toThrow(/Several email providers can send the organization invitations \("mail", "mail-eu"\): name one in organizations\.emailProvider/);
		expect(start({ emailProvider: 'mail-eu' }, MemoryAdapter(), [first, second])().organizations?.emailProvider).toBe('mail-eu');
		// none at all: organizations without invitations start
		expect(start({}, MemoryAdapter(), [])().organizations?.emailProvider).toBeUndefined();
	});

	test('no adapter: MissingAdapter, also with JWT sessions', () => {
		expect(start({}, null)).toThrow(expect.objectContaining({ type: 'MissingAdapter', message: expect.stringMatching(/needs an adapter \(also with JWT sessions\)/) }));
	});

	test('an adapter without an organization method: MissingAdapterMethod naming it', () => {
		const adapter: Adapter = { ...MemoryAdapter() };
		delete adapter.listTeamMembers;
		expect(start({}, adapter)).toThrow(expect.objectContaining({ type: 'MissingAdapterMethod', message: expect.stringMatching(/no `listTeamMembers` method, which organizations need/) }));
	});

	test('the guarded adapter turns a missing organization method into MissingAdapterMethod, not a TypeError', async () => {
		const adapter: Adapter = { ...MemoryAdapter() };
		delete adapter.getMembership;
		const { guardAdapter } = await import('../store/adapter-guard.js');
		expect(() => guardAdapter(adapter).getMembership('o', 'u')).toThrow(expect.objectContaining({ type: 'MissingAdapterMethod' }));
	});
});

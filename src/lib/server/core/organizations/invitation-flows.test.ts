// Invitations by email over HTTP through both integrations, under both session strategies, on
// memory, SQLite and PostgreSQL, with the mail read from a real smtp-server: invite → the mail → an
// existing user accepts; an invitee without an account signs up from the link and then accepts; a
// newer invitation replaces an older one; who may invite or revoke; the per-inviter limit.

import { describe, expect, test } from 'vitest';
import type { Adapter, AdapterUser, AuthConfig } from '../types.js';
import { sinkProvider, confirmationForm } from '../test/email-fixtures.js';
import { Browser, INTEGRATIONS, type AppServer } from '../test/integrations.js';
import { address, attackConfig, attackWorld, linkFor, signInByEmail, STRATEGIES, type Strategy } from '../test/attacks/flows.js';
import { INVITATIONS_PER_INVITER } from './invitation-limits.js';
import {
	accept,
	answer,
	invitationAdapters,
	invitationLinkIn,
	invite,
	organizationWith,
	post,
	type Person
} from './test/invitation-fixture.js';

const world = attackWorld({ sink: true });

const adapters = invitationAdapters('invitation-flows');

describe.each(INTEGRATIONS)('%s', (integration) => {
	describe.each(adapters)('%s adapter', (_adapterName, makeAdapter) => {
		describe.each(STRATEGIES)('%s sessions', (strategy: Strategy) => {
			const app = (): AppServer => world.apps[integration];
			let adapter: Required<Adapter>;
			const events: { action: string; organizationId: string; subjectUserId: string | null; actorId: string | null }[] = [];

			function use(overrides: Partial<AuthConfig> = {}) {
				adapter = makeAdapter();
				events.length = 0;
				app().use(
					attackConfig(adapter, strategy, {
						providers: [sinkProvider(world.sink)],
						organizations: {},
						events: { organizationChange: (message) => void events.push(message) },
						...overrides
					})
				);
			}

			async function person(name: string): Promise<Person> {
				const browser = new Browser();
				const email = address(name);
				await signInByEmail(browser, app(), world.sink, email);
				return { browser, email, user: (await adapter.getUserByEmail(email)) as AdapterUser };
			}

			test('an owner invites an existing user by email, and that user accepts from the mail and becomes a member', async () => {
				use();
				const owner = await person('owner');
				const bo = await person('bo');
				const organization = await organizationWith(adapter, 'Acme', owner.user);
				world.sink.clear();

				const invited = await answer(await invite(app(), owner, organization.id, bo.email, 'admin'));
				expect(invited).toEqual({ status: 200, body: expect.objectContaining({ result: 'invited' }) });
				const mail = world.sink.messages().find((message) => message.envelope.to.includes(bo.email))!;
				expect(mail.subject).toBe(`${owner.email} invited you to join Acme on ${new URL(app().origin).host}`);
				const link = invitationLinkIn(world.sink, bo.email);
				expect(link.origin).toBe(app().origin);
				expect(link.pathname).toBe('/auth/organizations/invitation');

				const page = await bo.browser.request(link);
				expect(page.headers.get('referrer-policy')).toBe('no-referrer');
				expect(page.headers.get('cache-control')).toBe('no-store');
				expect(await page.json()).toMatchObject({ organization: { name: 'Acme' }, email: bo.email, role: 'admin', signedInEmail: bo.email, matchesSignedInUser: true });
				// opening the link joined nobody
				expect(await adapter.getMembership(organization.id, bo.user.id)).toBeNull();

				const accepted = await answer(await accept(app(), bo, link.searchParams.get('token')!));
				expect(accepted.body).toMatchObject({ result: 'joined', url: `${app().origin}/auth/organizations/settings?id=${organization.id}&organization=joined` });
				expect((await adapter.getMembership(organization.id, bo.user.id))?.member.role).toBe('admin');
				expect(events.map((event) => event.action)).toEqual(['invite', 'accept-invitation']);
				expect(events[1]).toMatchObject({ organizationId: organization.id, subjectUserId: bo.user.id, actorId: bo.user.id });
			});

			test('an invitee without an account signs up from the link by email and then joins', async () => {
				use();
				const owner = await person('owner');
				const organization = await organizationWith(adapter, 'Acme', owner.user);
				const newcomer = address('newcomer');
				world.sink.clear();
				expect((await invite(app(), owner, organization.id, newcomer, 'member')).status).toBe(200);
				const link = invitationLinkIn(world.sink, newcomer);
				world.sink.clear();

				const browser = new Browser();
				const signedOutView = await (await browser.request(link)).json();
				expect(signedOutView).toMatchObject({ email: newcomer, signedInEmail: null, matchesSignedInUser: false });
				// pressing Join signed out: to the sign-in page, coming back to the invitation
				const csrfToken = await browser.csrfToken(app().origin);
				const join = await browser.request(`${app().origin}/auth/organizations/accept-invitation`, {
					form: { csrfToken, token: link.searchParams.get('token')! },
					headers: { accept: 'text/html' }
				});
				expect(join.status).toBeGreaterThanOrEqual(300);
				expect(join.status).toBeLessThan(400);
				const signIn = new URL(join.headers.get('location')!);
				expect(signIn.pathname).toBe('/auth/signin');
				const callbackUrl = signIn.searchParams.get('callbackUrl')!;
				expect(callbackUrl).toBe(link.href);

				// the sign-in page's email form carries the callbackUrl on
				const asked = await browser.request(`${app().origin}/auth/signin/email`, { form: { csrfToken: await browser.csrfToken(app().origin), email: newcomer, callbackUrl } });
				expect(asked.status).toBe(302);
				const page = await browser.request(linkFor(world.sink, newcomer));
				const { action, fields } = confirmationForm(await page.text());
				const signedUp = await browser.request(action, { form: fields });
				expect(signedUp.headers.get('location')).toBe(link.href);
				const user = (await adapter.getUserByEmail(newcomer))!;
				expect(user).not.toBeNull();

				expect(await (await browser.request(link)).json()).toMatchObject({ signedInEmail: newcomer, matchesSignedInUser: true });
				const joined = await browser.request(`${app().origin}/auth/organizations/accept-invitation`, {
					form: { csrfToken: await browser.csrfToken(app().origin), token: link.searchParams.get('token')! },
					headers: { accept: 'text/html' }
				});
				expect([302, 303]).toContain(joined.status);
				expect(joined.headers.get('location')).toBe(`${app().origin}/auth/organizations/settings?id=${organization.id}&organization=joined`);
				expect((await adapter.getMembership(organization.id, user.id))?.member.role).toBe('member');
			});

			test('a new invitation to the same address revokes the pending one', async () => {
				use();
				const owner = await person('owner');
				const bo = await person('bo');
				const organization = await organizationWith(adapter, 'Acme', owner.user);
				world.sink.clear();
				await invite(app(), owner, organization.id, bo.email, 'member');
				const first = invitationLinkIn(world.sink, bo.email);
				world.sink.clear();
				await invite(app(), owner, organization.id, bo.email.toUpperCase(), 'admin');
				const second = invitationLinkIn(world.sink, bo.email);
				expect((await answer(await accept(app(), bo, first.searchParams.get('token')!))).body).toEqual({ error: 'InvitationRevoked' });
				expect((await answer(await accept(app(), bo, second.searchParams.get('token')!))).body).toMatchObject({ result: 'joined' });
				expect((await adapter.getMembership(organization.id, bo.user.id))?.member.role).toBe('admin');
			});

			test('inviting a member is OrganizationAlreadyMember; a member without the permission, an admin offering owner and a stranger are refused', async () => {
				use();
				const owner = await person('owner');
				const admin = await person('admin');
				const member = await person('member');
				const stranger = await person('stranger');
				const organization = await organizationWith(adapter, 'Acme', owner.user, [
					[admin.user, 'admin'],
					[member.user, 'member']
				]);
				world.sink.clear();
				expect((await answer(await invite(app(), owner, organization.id, member.email, 'member'))).body).toEqual({ error: 'OrganizationAlreadyMember' });
				expect((await answer(await invite(app(), member, organization.id, address('x'), 'member'))).body).toEqual({ error: 'OrganizationForbidden' });
				expect((await answer(await invite(app(), admin, organization.id, address('x'), 'owner'))).body).toEqual({ error: 'OrganizationForbidden' });
				expect((await answer(await invite(app(), stranger, organization.id, address('x'), 'member'))).body).toEqual({ error: 'OrganizationNotFound' });
				expect((await answer(await invite(app(), owner, organization.id, 'not an address', 'member'))).body).toEqual({ error: 'InvalidRequest' });
				expect((await answer(await invite(app(), owner, organization.id, address('x'), 'emperor'))).body).toEqual({ error: 'InvalidRequest' });
				expect(world.sink.messages()).toHaveLength(0);
				expect(await adapter.listInvitations(organization.id)).toHaveLength(0);
			});

			test('an owner revokes a pending invitation; a member cannot', async () => {
				use();
				const owner = await person('owner');
				const member = await person('member');
				const bo = await person('bo');
				const organization = await organizationWith(adapter, 'Acme', owner.user, [[member.user, 'member']]);
				await invite(app(), owner, organization.id, bo.email, 'member');
				const [invitation] = await adapter.listInvitations(organization.id);
				expect((await answer(await post(app(), member, 'revoke-invitation', { organizationId: organization.id, invitationId: invitation.id }))).body).toEqual({ error: 'OrganizationForbidden' });
				expect((await answer(await post(app(), owner, 'revoke-invitation', { organizationId: organization.id, invitationId: invitation.id }))).body).toMatchObject({ result: 'invitation-revoked' });
				expect((await adapter.getInvitation(invitation.id))?.status).toBe('revoked');
				expect((await answer(await post(app(), owner, 'revoke-invitation', { organizationId: organization.id, invitationId: invitation.id }))).body).toEqual({ error: 'InvitationRevoked' });
				expect(events.map((event) => event.action)).toEqual(['invite', 'revoke-invitation']);
			});

			test(`one inviter sends at most ${INVITATIONS_PER_INVITER} invitations an hour`, async () => {
				use();
				const owner = await person('owner');
				const organization = await organizationWith(adapter, 'Acme', owner.user);
				for (let sent = 0; sent < INVITATIONS_PER_INVITER; sent++) {
					expect((await invite(app(), owner, organization.id, address(`guest${sent}`), 'member')).status).toBe(200);
				}
				world.sink.clear();
				expect((await answer(await invite(app(), owner, organization.id, address('one-more'), 'member'))).body).toEqual({ error: 'RateLimited' });
				expect(world.sink.messages()).toHaveLength(0);
			});
		});
	});
});

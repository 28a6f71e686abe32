// Attacks on invitation links over HTTP through both integrations, under both session strategies:
// accepting one meant for another address, replaying a used one, a revoked or expired one, a forged
// secret, one invitation's id with another's secret, changes without the CSRF token, joining by a
// GET, two accepts racing, and hostile tokens; on memory, SQLite and PostgreSQL. Each must leave no
// membership behind.

import { expect, test } from 'vitest';
import Credentials from '../../providers/credentials.js';
import type { Adapter, OrganizationOptions, Provider } from '../types.js';
import { sinkProvider } from '../test/email-fixtures.js';
import { Browser } from '../test/integrations.js';
import { address, attackConfig, attackWorld, signInByEmail } from '../test/attacks/flows.js';
import { describeEachApp } from '../test/attacks/each-app.js';
import { signedInByEmail } from '../test/attacks/signed-in-person.js';
import { accept, answer, invitationAdapters, invitationLinkIn, invite, organizationWith, post, type Person } from './test/invitation-fixture.js';

const world = attackWorld({ sink: true });

const DAY_MS = 24 * 60 * 60 * 1000;

/** A sign-up form that stores whatever address is typed, unproven (as many apps' credentials sign-ups do). */
function addressClaimingCredentials() {
	return Credentials({
		minFailureMs: 0,
		credentials: { email: {}, password: { type: 'password' } },
		authorize: ({ email }) => ({ id: `signup-${String(email)}`, email: String(email), name: 'Eve' })
	});
}

/** A query value as a URL carries it; a lone surrogate as the invalid UTF-8 bytes a hostile client sends instead. */
function queryValue(value: string): string {
	try {
		return encodeURIComponent(value);
	} catch {
		return `a.${'A'.repeat(42)}%ED%A0%80`;
	}
}

const adapters = invitationAdapters('invitation-attacks');

describeEachApp(world, ({ integration, app, strategy, makeAdapter }) => {
	let adapter: Required<Adapter>;
	const clock = { now: Date.now() };

	function use(providers: Provider[] = [], organizations: OrganizationOptions = {}) {
		adapter = makeAdapter();
		clock.now = Date.now();
		app().use(attackConfig(adapter, strategy, { providers: [sinkProvider(world.sink), ...providers], organizations, now: () => clock.now }));
	}

	const person = (name: string): Promise<Person> => signedInByEmail(app(), world.sink, adapter, address(name));

	/** An organization of a fresh owner, and the token of an invitation of `invitee` to it. */
	async function invitedWorld(invitee: string) {
		const owner = await person('owner');
		const organization = await organizationWith(adapter, 'Acme', owner.user);
		world.sink.clear();
		expect((await invite(app(), owner, organization.id, invitee, 'member')).status).toBe(200);
		const link = invitationLinkIn(world.sink, invitee);
		return { owner, organization, link, token: link.searchParams.get('token')! };
	}

	async function membersOf(organizationId: string): Promise<string[]> {
		return (await adapter.listMembers(organizationId)).map((member) => member.userId);
	}

	test('a signed-in user with another address cannot accept an invitation meant for someone else', async () => {
		use();
		const bo = address('bo');
		const { organization, owner, token, link } = await invitedWorld(bo);
		const eve = await person('eve');
		expect(await answer(await accept(app(), eve, token))).toEqual({ status: 403, body: { error: 'InvitationWrongAddress' } });
		expect(await (await eve.browser.request(link)).json()).toMatchObject({ email: bo, signedInEmail: eve.email, matchesSignedInUser: false });
		expect(await membersOf(organization.id)).toEqual([owner.user.id]);
	});

	test('a used invitation cannot be replayed, by the same user or anyone', async () => {
		use();
		const bo = address('bo');
		const { organization, token, link } = await invitedWorld(bo);
		const invitee = await person('bo-session');
		// the invitee signs in with the invited address
		const boBrowser = new Browser();
		await signInByEmail(boBrowser, app(), world.sink, bo);
		const boUser = (await adapter.getUserByEmail(bo))!;
		expect((await answer(await accept(app(), { browser: boBrowser }, token))).body).toMatchObject({ result: 'joined' });
		await adapter.deleteMember((await adapter.getMembership(organization.id, boUser.id))!.member.id, { keepOne: 'owner' });
		expect(await answer(await accept(app(), { browser: boBrowser }, token))).toEqual({ status: 410, body: { error: 'InvitationUsed' } });
		expect((await answer(await accept(app(), invitee, token))).body).toEqual({ error: 'InvitationUsed' });
		expect((await boBrowser.request(link)).status).toBe(410);
		expect(await adapter.getMembership(organization.id, boUser.id)).toBeNull();
	});

	test('a revoked invitation cannot be accepted', async () => {
		use();
		const bo = await person('bo');
		const { organization, owner, token } = await invitedWorld(bo.email);
		const [invitation] = await adapter.listInvitations(organization.id);
		await post(app(), owner, 'revoke-invitation', { organizationId: organization.id, invitationId: invitation.id });
		expect(await answer(await accept(app(), bo, token))).toEqual({ status: 410, body: { error: 'InvitationRevoked' } });
		expect(await adapter.getMembership(organization.id, bo.user.id)).toBeNull();
	});

	test('an expired invitation cannot be accepted, and its page says so', async () => {
		use();
		const bo = await person('bo');
		const { organization, token, link } = await invitedWorld(bo.email);
		clock.now += 7 * DAY_MS + 1000;
		expect(await answer(await accept(app(), bo, token))).toEqual({ status: 410, body: { error: 'InvitationExpired' } });
		expect(await answer(await bo.browser.request(link))).toEqual({ status: 410, body: { error: 'InvitationExpired' } });
		expect(await adapter.getMembership(organization.id, bo.user.id)).toBeNull();
	});

	test('a forged secret matches nothing and tells nothing about the invitation', async () => {
		use();
		const bo = await person('bo');
		const { organization, token, owner } = await invitedWorld(bo.email);
		const [id] = token.split('.');
		const forged = `${id}.${'A'.repeat(43)}`;
		expect(await answer(await accept(app(), bo, forged))).toEqual({ status: 404, body: { error: 'InvitationInvalid' } });
		expect((await bo.browser.request(`${app().origin}/auth/organizations/invitation?token=${forged}`)).status).toBe(404);
		// even once revoked, a forged secret still learns only "invalid"
		const [invitation] = await adapter.listInvitations(organization.id);
		await post(app(), owner, 'revoke-invitation', { organizationId: organization.id, invitationId: invitation.id });
		expect((await answer(await accept(app(), bo, forged))).body).toEqual({ error: 'InvitationInvalid' });
		expect(await adapter.getMembership(organization.id, bo.user.id)).toBeNull();
	});

	test('the id of one invitation with the valid secret of another matches nothing', async () => {
		use();
		const bo = await person('bo');
		const eve = await person('eve');
		const owner = await person('owner');
		const victimOrganization = await organizationWith(adapter, 'Victim', owner.user);
		const eveOrganization = await organizationWith(adapter, 'Eve', owner.user);
		world.sink.clear();
		await invite(app(), owner, victimOrganization.id, bo.email, 'admin');
		await invite(app(), owner, eveOrganization.id, eve.email, 'member');
		const [boId] = invitationLinkIn(world.sink, bo.email).searchParams.get('token')!.split('.');
		const [, eveSecret] = invitationLinkIn(world.sink, eve.email).searchParams.get('token')!.split('.');
		expect((await answer(await accept(app(), eve, `${boId}.${eveSecret}`))).body).toEqual({ error: 'InvitationInvalid' });
		expect((await answer(await accept(app(), bo, `${boId}.${eveSecret}`))).body).toEqual({ error: 'InvitationInvalid' });
		expect(await membersOf(victimOrganization.id)).toEqual([owner.user.id]);
	});

	test('every invitation change without the CSRF token is refused and changes nothing', async () => {
		use();
		const bo = await person('bo');
		const { organization, owner, token } = await invitedWorld(bo.email);
		const [invitation] = await adapter.listInvitations(organization.id);
		world.sink.clear();
		const scripts = [
			await post(app(), owner, 'invite', { organizationId: organization.id, email: address('x'), role: 'member' }, { csrf: false }),
			await post(app(), owner, 'revoke-invitation', { organizationId: organization.id, invitationId: invitation.id }, { csrf: false }),
			await post(app(), bo, 'accept-invitation', { token }, { csrf: false })
		];
		for (const response of scripts) expect(await answer(response)).toEqual({ status: 403, body: { error: 'MissingCSRF' } });
		// a cross-site form: no token, another origin (SvelteKit's own origin check may refuse it first)
		const crossSite = await bo.browser.request(`${app().origin}/auth/organizations/accept-invitation`, { form: { token }, origin: 'https://evil.example', headers: { accept: 'text/html' } });
		if (crossSite.status === 403) expect(integration).toBe('sveltekit');
		else expect(new URL(crossSite.headers.get('location')!).searchParams.get('error')).toBe('MissingCSRF');
		expect(world.sink.messages()).toHaveLength(0);
		expect((await adapter.getInvitation(invitation.id))?.status).toBe('pending');
		expect(await adapter.getMembership(organization.id, bo.user.id)).toBeNull();
	});

	test('a GET never joins: not the link, not the accept route', async () => {
		use();
		const bo = await person('bo');
		const { organization, token, link } = await invitedWorld(bo.email);
		expect((await bo.browser.request(link)).status).toBe(200);
		expect((await bo.browser.request(link, { headers: { accept: 'text/html' } })).status).toBeLessThan(500);
		const viaGet = await bo.browser.request(`${app().origin}/auth/organizations/accept-invitation?token=${encodeURIComponent(token)}`);
		expect(viaGet.status).toBe(405);
		expect(await adapter.getMembership(organization.id, bo.user.id)).toBeNull();
		expect((await answer(await accept(app(), bo, token))).body).toMatchObject({ result: 'joined' });
	});

	test('two accepts racing: one member, the other InvitationUsed', async () => {
		use();
		const bo = await person('bo');
		const { organization, token } = await invitedWorld(bo.email);
		const csrfToken = await bo.browser.csrfToken(app().origin);
		const answers = await Promise.all([1, 2].map(async () => answer(await post(app(), bo, 'accept-invitation', { token, csrfToken }))));
		const bodies = answers.map((entry) => entry.body as Record<string, unknown>);
		expect(bodies.filter((body) => body.result === 'joined')).toHaveLength(1);
		expect(bodies.filter((body) => body.error === 'InvitationUsed')).toHaveLength(1);
		expect(await membersOf(organization.id)).toHaveLength(2);
	});

	test.each([
		['no token', undefined],
		['an empty token', ''],
		['a token without a dot', 'abc'],
		['a token with a NUL', `a\u0000b.${'A'.repeat(43)}`],
		['a lone surrogate', `a.${'A'.repeat(42)}\uD800`],
		['an over-long token', `${'a'.repeat(5000)}.${'A'.repeat(43)}`],
		['a number', 42],
		['an array', ['a', 'b']],
		['an object', { id: 'x' }]
	])('a hostile token (%s) is a 4xx with a stable code, never a 500', async (_name, token) => {
		use();
		const bo = await person('bo');
		const response = await post(app(), bo, 'accept-invitation', token === undefined ? {} : { token });
		expect(response.status).toBeGreaterThanOrEqual(400);
		expect(response.status).toBeLessThan(500);
		expect(await response.json()).toEqual({ error: expect.stringMatching(/^(InvitationInvalid|InvalidRequest)$/) });
		const page = await bo.browser.request(`${app().origin}/auth/organizations/invitation?token=${queryValue(String(token ?? ''))}`);
		expect(page.status).toBeGreaterThanOrEqual(400);
		expect(page.status).toBeLessThan(500);
	});

	test('a forged X-Forwarded-Host does not move the link of the mail off the configured URL', async () => {
		adapter = makeAdapter();
		app().use(attackConfig(adapter, strategy, { providers: [sinkProvider(world.sink)], organizations: {}, url: app().origin }));
		const owner = await person('owner');
		const organization = await organizationWith(adapter, 'Acme', owner.user);
		const bo = address('bo');
		world.sink.clear();
		const sent = await invite(app(), owner, organization.id, bo, 'member', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
		expect(sent.status).toBe(200);
		expect(invitationLinkIn(world.sink, bo).origin).toBe(app().origin);
	});

	test('someone with a forwarded link who signs up by credentials with the invited address cannot join; the address owner still can', async () => {
		use([addressClaimingCredentials()]);
		const bo = address('bo');
		const { organization, owner, token, link } = await invitedWorld(bo);
		const eve = { browser: new Browser() };
		const csrfToken = await eve.browser.csrfToken(app().origin);
		await eve.browser.request(`${app().origin}/auth/callback/credentials`, { form: { csrfToken, email: bo, password: 'any', callbackUrl: '/' } });
		// the page offers no Join to the claimant
		expect(await (await eve.browser.request(link)).json()).toMatchObject({ matchesSignedInUser: false });
		const refused = await accept(app(), eve, token);
		expect(refused.status).toBeGreaterThanOrEqual(401);
		expect(refused.status).toBeLessThan(500);
		expect(await membersOf(organization.id)).toEqual([owner.user.id]);
		// the owner of the mailbox proves it by an email sign-in and joins
		const real = new Browser();
		await signInByEmail(real, app(), world.sink, bo);
		expect((await answer(await accept(app(), { browser: real }, token))).body).toMatchObject({ result: 'joined' });
	});

	test('someone with a forwarded link who signs up by email with their own address cannot join', async () => {
		use();
		const { organization, owner, token } = await invitedWorld(address('bo'));
		const eve = await person('eve');
		expect(await answer(await accept(app(), eve, token))).toEqual({ status: 403, body: { error: 'InvitationWrongAddress' } });
		expect(await membersOf(organization.id)).toEqual([owner.user.id]);
	});

	test('inviting tells nothing about whether an address has an account', async () => {
		use();
		const owner = await person('owner');
		const existing = await person('existing');
		const organization = await organizationWith(adapter, 'Acme', owner.user);
		const known = await answer(await invite(app(), owner, organization.id, existing.email, 'member'));
		const unknown = await answer(await invite(app(), owner, organization.id, address('nobody'), 'member'));
		expect(known).toEqual(unknown);
		expect(known.status).toBe(200);
	});

	test('an admin cannot offer a custom role that may more than admin, nor owner', async () => {
		use([], { roles: { treasurer: { organization: ['delete'] } } });
		const owner = await person('owner');
		const admin = await person('admin');
		const organization = await organizationWith(adapter, 'Acme', owner.user, [[admin.user, 'admin']]);
		world.sink.clear();
		for (const role of ['treasurer', 'owner']) {
			expect(await answer(await invite(app(), admin, organization.id, address('friend'), role))).toEqual({ status: 403, body: { error: 'OrganizationForbidden' } });
		}
		expect(world.sink.messages()).toHaveLength(0);
		expect(await adapter.listInvitations(organization.id)).toEqual([]);
	});

	test("an owner of one organization cannot invite into, or revoke an invitation of, another by id", async () => {
		use();
		const { organization: victim, token } = await invitedWorld(address('bo'));
		const [invitationId] = token.split('.');
		const eve = await person('eve');
		const eveOrganization = await organizationWith(adapter, 'Eve', eve.user);
		world.sink.clear();
		expect(await answer(await invite(app(), eve, victim.id, address('friend'), 'member'))).toEqual({ status: 404, body: { error: 'OrganizationNotFound' } });
		expect(await answer(await post(app(), eve, 'revoke-invitation', { organizationId: victim.id, invitationId }))).toEqual({ status: 404, body: { error: 'OrganizationNotFound' } });
		expect(await answer(await post(app(), eve, 'revoke-invitation', { organizationId: eveOrganization.id, invitationId }))).toEqual({ status: 404, body: { error: 'InvitationInvalid' } });
		expect((await adapter.getInvitation(invitationId))?.status).toBe('pending');
		expect(world.sink.messages()).toHaveLength(0);
	});

	test.each([
		['the secret upper-cased', (id: string, secret: string) => `${id}.${secret.toUpperCase()}`],
		['the secret truncated', (id: string, secret: string) => `${id}.${secret.slice(0, 42)}`],
		['the secret with one more character', (id: string, secret: string) => `${id}.${secret}A`],
		['the secret padded with "="', (id: string, secret: string) => `${id}.${secret}=`],
		['an extra dot', (id: string, secret: string) => `${id}..${secret}`],
		['a trailing dot', (id: string, secret: string) => `${id}.${secret}.`],
		['the id upper-cased', (id: string, secret: string) => `${id.toUpperCase()}.${secret}`],
		['a "+" of standard base64 in the secret', (id: string, secret: string) => `${id}.+${secret.slice(1)}`],
		['Arabic-Indic digits for the id', (id: string, secret: string) => `${id.replace(/[0-9]/g, (d) => String.fromCharCode(0x660 + Number(d)))}.${secret}`],
		['spaces around it', (id: string, secret: string) => ` ${id}.${secret} `]
	])('a token with %s is refused and joins nothing', async (_name, forge) => {
		use();
		const bo = await person('bo');
		const { organization, token } = await invitedWorld(bo.email);
		const [id, secret] = token.split('.');
		const forged = forge(id, secret);
		const refused = await answer(await accept(app(), bo, forged));
		expect(refused.status).toBeGreaterThanOrEqual(400);
		expect(refused.status).toBeLessThan(500);
		expect(await adapter.getMembership(organization.id, bo.user.id)).toBeNull();
		expect((await answer(await accept(app(), bo, token))).body).toMatchObject({ result: 'joined' });
	});

	test('accepting never redirects off the site: not after joining, not to sign in', async () => {
		use();
		const bo = await person('bo');
		const { token } = await invitedWorld(bo.email);
		const evil = 'https://evil.example/steal';
		const signedOut = new Browser();
		const csrfToken = await signedOut.csrfToken(app().origin);
		const toSignIn = await signedOut.request(`${app().origin}/auth/organizations/accept-invitation`, { form: { csrfToken, token, callbackUrl: evil }, headers: { accept: 'text/html' } });
		const signInPage = new URL(toSignIn.headers.get('location')!, app().origin);
		expect(signInPage.origin).toBe(app().origin);
		const back = signInPage.searchParams.get('callbackUrl');
		if (back) expect(new URL(back, app().origin).origin).toBe(app().origin);
		const joined = await answer(await post(app(), bo, 'accept-invitation', { token, callbackUrl: evil }));
		if (joined.status === 200) expect(new URL((joined.body as { url: string }).url).origin).toBe(app().origin);
		else expect(joined).toEqual({ status: 400, body: expect.objectContaining({ error: expect.any(String) }) });
	});

	test('an admin removed or demoted does not keep a way back in through an invitation they sent to another address of theirs', async () => {
		use();
		const owner = await person('owner');
		const mallory = await person('mallory');
		const organization = await organizationWith(adapter, 'Acme', owner.user, [[mallory.user, 'admin']]);
		const alt = await person('mallory-alt');
		const alt2 = await person('mallory-alt2');
		world.sink.clear();
		expect((await invite(app(), mallory, organization.id, alt.email, 'admin')).status).toBe(200);
		expect((await invite(app(), mallory, organization.id, alt2.email, 'admin')).status).toBe(200);
		const altToken = invitationLinkIn(world.sink, alt.email).searchParams.get('token')!;
		const alt2Token = invitationLinkIn(world.sink, alt2.email).searchParams.get('token')!;
		// the owner demotes Mallory, then removes her
		const membership = (await adapter.getMembership(organization.id, mallory.user.id))!;
		expect((await answer(await post(app(), owner, 'set-role', { organizationId: organization.id, memberId: membership.member.id, role: 'member' }))).status).toBe(200);
		expect(await answer(await accept(app(), alt2, alt2Token))).toEqual({ status: 410, body: { error: 'InvitationRevoked' } });
		expect((await answer(await post(app(), owner, 'remove-member', { organizationId: organization.id, memberId: membership.member.id }))).status).toBe(200);
		expect(await answer(await accept(app(), alt, altToken))).toEqual({ status: 410, body: { error: 'InvitationRevoked' } });
		expect(await membersOf(organization.id)).toEqual([owner.user.id]);
	});

	test("an invitation still works while its inviter may offer its role", async () => {
		use();
		const owner = await person('owner');
		const admin = await person('admin');
		const organization = await organizationWith(adapter, 'Acme', owner.user, [[admin.user, 'admin']]);
		const bo = await person('bo');
		world.sink.clear();
		await invite(app(), admin, organization.id, bo.email, 'member');
		const token = invitationLinkIn(world.sink, bo.email).searchParams.get('token')!;
		expect((await answer(await accept(app(), bo, token))).body).toMatchObject({ result: 'joined' });
	});

	test('the invitation page refuses a repeated token parameter', async () => {
		use();
		const bo = await person('bo');
		const { token } = await invitedWorld(bo.email);
		const page = await bo.browser.request(`${app().origin}/auth/organizations/invitation?token=${token}&token=${token}`);
		expect(await answer(page)).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
	});
}, adapters);

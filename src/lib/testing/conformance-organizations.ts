// The conformance tests of the organization methods (docs/organizations.md): organizations, members,
// invitations, teams and a session's active organization, checked when the adapter has them.
// Internal to `kitgate/testing`: runAdapterTests() registers them.
import type * as Vitest from 'vitest';
import { isUniqueViolation } from '../server/core/store/unique-violation.js';
import { ORGANIZATION_ADAPTER_METHODS } from '../server/core/store/adapter-guard.js';
import type { Adapter, AdapterInvitation, AdapterMember, AdapterOrganization, AdapterUser } from '../server/core/types.js';

/**
 * What the organization tests need from the suite that registers them: vitest's functions, the
 * adapter (made in the suite's `beforeAll`, hence a getter), and its user factory.
 *
 * @example
 * registerOrganizationTests({ vitest, adapter: () => raw, createUser });
 */
export interface OrganizationTestContext {
	vitest: Pick<typeof Vitest, 'describe' | 'expect' | 'test'>;
	adapter: () => Adapter;
	/** Creates a user with random keys; `overrides` replace its fields. */
	createUser: (overrides?: Partial<AdapterUser>) => Promise<AdapterUser>;
}

const organizationMethods = ORGANIZATION_ADAPTER_METHODS;

/**
 * Registers the tests of the organization methods when the adapter has them (all 23, or none: an
 * adapter with only some fails).
 *
 * @example
 * registerOrganizationTests({ vitest, adapter: () => raw, createUser });
 */
export function registerOrganizationTests({ vitest, adapter: current, createUser }: OrganizationTestContext): void {
	const { describe, expect, test } = vitest;
	const adapter = () => current() as Required<Adapter>;
	const present = () => organizationMethods.filter((method) => typeof current()[method] === 'function');
	const has = () => present().length === organizationMethods.length;

	async function organization(overrides: Partial<AdapterOrganization> = {}): Promise<AdapterOrganization> {
		return adapter().createOrganization({ id: randomUUID(), name: 'Acme', slug: `o-${randomTag()}`, logo: null, metadata: null, createdAt: new Date(1_800_000_000_000), ...overrides });
	}
	async function member(organizationId: string, userId: string, role = 'member', createdAt = new Date(1_800_000_000_000)): Promise<AdapterMember> {
		return adapter().createMember({ id: randomUUID(), organizationId, userId, role, createdAt });
	}
	function invitation(organizationId: string, overrides: Partial<AdapterInvitation> = {}): AdapterInvitation {
		return {
			id: randomUUID(),
			organizationId,
			email: `${randomTag()}@example.com`,
			role: 'member',
			inviterId: null,
			tokenHash: randomTag(),
			teamId: null,
			status: 'pending',
			expires: new Date(Date.now() + 3_600_000),
			createdAt: new Date(1_800_000_000_000),
			...overrides
		};
	}
	const newMember = (organizationId: string, userId: string, role = 'member'): AdapterMember => ({ id: randomUUID(), organizationId, userId, role, createdAt: new Date() });

	describe('organizations (optional methods)', () => {
		test('an adapter has all the organization methods or none', () => {
			expect([0, organizationMethods.length]).toContain(present().length);
		});

		test('createOrganization returns a copy; getOrganization and getOrganizationBySlug read it back', async () => {
			if (!has()) return;
			const input: AdapterOrganization = { id: randomUUID(), name: 'Acme Ünïcode', slug: `o-${randomTag()}`, logo: 'https://example.com/logo.png', metadata: '{"plan":"pro"}', createdAt: new Date(1_800_000_000_123) };
			const created = await adapter().createOrganization(input);
			expect(created).toEqual(input);
			created.name = 'changed';
			expect(await adapter().getOrganization(input.id)).toEqual(input);
			expect(await adapter().getOrganizationBySlug(input.slug)).toEqual(input);
			expect(await adapter().getOrganization(randomUUID())).toBeNull();
			expect(await adapter().getOrganizationBySlug(`o-${randomTag()}`)).toBeNull();
		});

		test('a slug another organization has is a unique violation, on create and on update', async () => {
			if (!has()) return;
			const taken = await organization();
			const error = await rejection(organization({ slug: taken.slug }));
			expect(isUniqueViolation(error)).toBe(true);
			const other = await organization();
			expect(isUniqueViolation(await rejection(adapter().updateOrganization({ id: other.id, slug: taken.slug })))).toBe(true);
			expect((await adapter().getOrganization(other.id))!.slug).toBe(other.slug);
		});

		test('updateOrganization writes the given fields only; null for an unknown id', async () => {
			if (!has()) return;
			const created = await organization({ logo: 'https://example.com/a.png', metadata: '{"a":1}' });
			const slug = `o-${randomTag()}`;
			expect(await adapter().updateOrganization({ id: created.id, name: 'Renamed', slug })).toEqual({ ...created, name: 'Renamed', slug });
			expect(await adapter().updateOrganization({ id: created.id, logo: null, metadata: null })).toEqual({ ...created, name: 'Renamed', slug, logo: null, metadata: null });
			expect(await adapter().updateOrganization({ id: created.id })).toEqual({ ...created, name: 'Renamed', slug, logo: null, metadata: null });
			expect(await adapter().updateOrganization({ id: randomUUID(), name: 'x' })).toBeNull();
		});

		test('createMember: one membership per user and organization; an unknown organization or user throws', async () => {
			if (!has()) return;
			const [org, user] = [await organization(), await createUser()];
			const stored = await member(org.id, user.id, 'owner');
			expect(stored).toMatchObject({ organizationId: org.id, userId: user.id, role: 'owner' });
			expect(isUniqueViolation(await rejection(member(org.id, user.id)))).toBe(true);
			expect(await rejection(member(randomUUID(), user.id))).toBeInstanceOf(Error);
			const gone = await createUser();
			await adapter().deleteUser(gone.id);
			expect(await rejection(member(org.id, gone.id))).toBeInstanceOf(Error);
			expect(await adapter().listMembers(org.id)).toHaveLength(1);
		});

		test('getMembership gives the organization and the membership in one answer; null for a non-member', async () => {
			if (!has()) return;
			const [org, user, stranger] = [await organization(), await createUser(), await createUser()];
			const stored = await member(org.id, user.id, 'admin');
			expect(await adapter().getMembership(org.id, user.id)).toEqual({ organization: org, member: stored });
			expect(await adapter().getMembership(org.id, stranger.id)).toBeNull();
			expect(await adapter().getMembership(randomUUID(), user.id)).toBeNull();
		});

		test('listMembers: with their users, by membership time then id; listMemberships: by organization name then id', async () => {
			if (!has()) return;
			const org = await organization();
			const [late, early, same1, same2] = [await createUser(), await createUser(), await createUser(), await createUser()];
			await member(org.id, late.id, 'member', new Date(1_800_000_000_900));
			await member(org.id, early.id, 'owner', new Date(1_800_000_000_100));
			const ties = [await member(org.id, same1.id, 'member', new Date(1_800_000_000_500)), await member(org.id, same2.id, 'member', new Date(1_800_000_000_500))];
			const listed = await adapter().listMembers(org.id);
			const tieIds = ties.map((tie) => tie.id).sort();
			expect(listed.map((entry) => entry.id)).toEqual([listed[0]!.id, ...tieIds, listed[3]!.id]);
			expect(listed[0]!.user).toEqual(early);
			expect(listed[3]!.user).toEqual(late);
			expect(await adapter().listMembers(randomUUID())).toEqual([]);

			const user = await createUser();
			const names = ['beta', 'Alpha', 'alpha'];
			const orgs = [];
			for (const name of names) orgs.push(await organization({ name }));
			for (const each of orgs) await member(each.id, user.id);
			const memberships = await adapter().listMemberships(user.id);
			// code-unit order: upper case first
			expect(memberships.map((entry) => entry.organization.name)).toEqual(['Alpha', 'alpha', 'beta']);
			expect(memberships.every((entry) => entry.member.userId === user.id)).toBe(true);
			expect(await adapter().listMemberships((await createUser()).id)).toEqual([]);
		});

		test('updateMemberRole keeps one owner: the last one is not demoted ("last"), another may be', async () => {
			if (!has()) return;
			const org = await organization();
			const [a, b] = [await member(org.id, (await createUser()).id, 'owner'), await member(org.id, (await createUser()).id, 'owner')];
			expect(await adapter().updateMemberRole(a.id, 'admin', { keepOne: 'owner' })).toEqual({ ...a, role: 'admin' });
			expect(await adapter().updateMemberRole(b.id, 'member', { keepOne: 'owner' })).toBe('last');
			expect((await adapter().getMembership(org.id, b.userId))!.member.role).toBe('owner');
			expect(await adapter().updateMemberRole(b.id, 'owner', { keepOne: 'owner' })).toEqual(b);
			expect(await adapter().updateMemberRole(a.id, 'member', { keepOne: 'owner' })).toEqual({ ...a, role: 'member' });
			expect(await adapter().updateMemberRole(randomUUID(), 'member', { keepOne: 'owner' })).toBeNull();
		});

		test('deleteMember keeps one owner, and takes the user out of the organization\'s teams only', async () => {
			if (!has()) return;
			const [org, otherOrg] = [await organization(), await organization()];
			const [owner, user] = [await createUser(), await createUser()];
			const ownerMember = await member(org.id, owner.id, 'owner');
			const userMember = await member(org.id, user.id, 'member');
			await member(otherOrg.id, user.id, 'member');
			const [team, otherTeam] = [await team_(org.id), await team_(otherOrg.id)];
			await adapter().addTeamMember({ teamId: team.id, userId: user.id, createdAt: new Date() });
			await adapter().addTeamMember({ teamId: otherTeam.id, userId: user.id, createdAt: new Date() });

			expect(await adapter().deleteMember(ownerMember.id, { keepOne: 'owner' })).toBe('last');
			expect(await adapter().getMembership(org.id, owner.id)).not.toBeNull();
			expect(await adapter().deleteMember(userMember.id, { keepOne: 'owner' })).toBe('deleted');
			expect(await adapter().getMembership(org.id, user.id)).toBeNull();
			expect(await adapter().listTeamMembers(team.id)).toEqual([]);
			expect((await adapter().listTeamMembers(otherTeam.id)).map((place) => place.userId)).toEqual([user.id]);
			expect(await adapter().deleteMember(userMember.id, { keepOne: 'owner' })).toBeNull();
		});

		test('expectedRole: a member whose role is another is neither changed nor deleted ("stale"); with it, the change is made', async () => {
			if (!has()) return;
			const org = await organization();
			await member(org.id, (await createUser()).id, 'owner');
			const promoted = await member(org.id, (await createUser()).id, 'owner');
			expect(await adapter().updateMemberRole(promoted.id, 'member', { keepOne: 'owner', expectedRole: 'admin' })).toBe('stale');
			expect(await adapter().deleteMember(promoted.id, { keepOne: 'owner', expectedRole: 'admin' })).toBe('stale');
			expect((await adapter().getMembership(org.id, promoted.userId))!.member.role).toBe('owner');
			expect(await adapter().updateMemberRole(promoted.id, 'admin', { keepOne: 'owner', expectedRole: 'owner' })).toEqual({ ...promoted, role: 'admin' });
			expect(await adapter().deleteMember(promoted.id, { keepOne: 'owner', expectedRole: 'admin' })).toBe('deleted');
			expect(await adapter().updateMemberRole(promoted.id, 'member', { keepOne: 'owner', expectedRole: 'admin' })).toBeNull();
			expect(await adapter().deleteMember(promoted.id, { keepOne: 'owner', expectedRole: 'admin' })).toBeNull();
		});

		test('a demotion racing a promotion of the same member, each expecting the role it read: the member is never demoted from the new role', async () => {
			if (!has()) return;
			for (let round = 0; round < 5; round++) {
				const org = await organization();
				await member(org.id, (await createUser()).id, 'owner');
				const target = await member(org.id, (await createUser()).id, 'admin');
				const [promotion, demotion] = await Promise.all([
					adapter().updateMemberRole(target.id, 'owner', { keepOne: 'owner', expectedRole: 'admin' }),
					adapter().updateMemberRole(target.id, 'member', { keepOne: 'owner', expectedRole: 'admin' })
				]);
				const role = (await adapter().getMembership(org.id, target.userId))!.member.role;
				// exactly one applies; the other finds the role it expected gone
				expect([promotion, demotion].filter((answer) => answer === 'stale')).toHaveLength(1);
				expect(role).toBe(promotion === 'stale' ? 'member' : 'owner');
			}
		});

		test('concurrent changes of the last two owners: exactly one answers "last", one owner stays', async () => {
			if (!has()) return;
			for (const change of ['demote', 'delete', 'both'] as const) {
				const org = await organization();
				const owners = [await member(org.id, (await createUser()).id, 'owner'), await member(org.id, (await createUser()).id, 'owner')];
				const answers = await Promise.all(
					owners.map((owner, index) =>
						change === 'demote' || (change === 'both' && index === 0)
							? adapter().updateMemberRole(owner.id, 'admin', { keepOne: 'owner' })
							: adapter().deleteMember(owner.id, { keepOne: 'owner' })
					)
				);
				expect(answers.filter((answer) => answer === 'last')).toHaveLength(1);
				const left = await adapter().listMembers(org.id);
				expect(left.filter((entry) => entry.role === 'owner')).toHaveLength(1);
			}
		});

		test('invitations: stored as given, listed newest first by organization and by address', async () => {
			if (!has()) return;
			const org = await organization();
			const email = `${randomTag()}@example.com`;
			const older = invitation(org.id, { email, createdAt: new Date(1_800_000_000_000), inviterId: (await createUser()).id });
			const newer = invitation(org.id, { email, createdAt: new Date(1_800_000_000_500), role: 'admin' });
			const elsewhere = invitation((await organization()).id, { email, createdAt: new Date(1_800_000_000_250) });
			for (const each of [older, newer, elsewhere]) expect(await adapter().createInvitation(each)).toEqual(each);
			expect(await adapter().getInvitation(older.id)).toEqual(older);
			expect(await adapter().getInvitation(randomUUID())).toBeNull();
			expect(await adapter().listInvitations(org.id)).toEqual([newer, older]);
			expect(await adapter().listInvitationsByEmail(email)).toEqual([newer, elsewhere, older]);
			expect(await rejection(adapter().createInvitation(invitation(randomUUID())))).toBeInstanceOf(Error);
		});

		test('revokeInvitation: true once for a pending invitation, false after, false for an accepted one', async () => {
			if (!has()) return;
			const org = await organization();
			const pending = invitation(org.id);
			await adapter().createInvitation(pending);
			expect(await adapter().revokeInvitation(pending.id)).toBe(true);
			expect((await adapter().getInvitation(pending.id))!.status).toBe('revoked');
			expect(await adapter().revokeInvitation(pending.id)).toBe(false);
			expect(await adapter().acceptInvitation(pending.id, newMember(org.id, (await createUser()).id), new Date())).toBeNull();

			const accepted = invitation(org.id);
			await adapter().createInvitation(accepted);
			expect(await adapter().acceptInvitation(accepted.id, newMember(org.id, (await createUser()).id), new Date())).not.toBeNull();
			expect(await adapter().revokeInvitation(accepted.id)).toBe(false);
			expect((await adapter().getInvitation(accepted.id))!.status).toBe('accepted');
			expect(await adapter().revokeInvitation(randomUUID())).toBe(false);
		});

		test('acceptInvitation: stores the member, marks the invitation accepted, joins its team; a second time null', async () => {
			if (!has()) return;
			const org = await organization();
			const team = await team_(org.id);
			const sent = invitation(org.id, { teamId: team.id, role: 'admin' });
			await adapter().createInvitation(sent);
			const user = await createUser();
			const joining = newMember(org.id, user.id, 'admin');
			expect(await adapter().acceptInvitation(sent.id, joining, new Date())).toEqual(joining);
			expect((await adapter().getInvitation(sent.id))!.status).toBe('accepted');
			expect((await adapter().getMembership(org.id, user.id))!.member).toEqual(joining);
			expect((await adapter().listTeamMembers(team.id)).map((place) => place.userId)).toEqual([user.id]);
			expect(await adapter().acceptInvitation(sent.id, newMember(org.id, (await createUser()).id), new Date())).toBeNull();
			expect(await adapter().listMembers(org.id)).toHaveLength(1);
		});

		test('acceptInvitation writes nothing for an expired invitation, or when the user is already a member', async () => {
			if (!has()) return;
			const org = await organization();
			const now = new Date();
			const expired = invitation(org.id, { expires: new Date(now.getTime() - 1) });
			const atExpiry = invitation(org.id, { expires: now });
			await adapter().createInvitation(expired);
			await adapter().createInvitation(atExpiry);
			const user = await createUser();
			expect(await adapter().acceptInvitation(expired.id, newMember(org.id, user.id), now)).toBeNull();
			expect(await adapter().acceptInvitation(atExpiry.id, newMember(org.id, user.id), now)).toBeNull();
			expect((await adapter().getInvitation(expired.id))!.status).toBe('pending');
			expect(await adapter().getMembership(org.id, user.id)).toBeNull();

			const existing = await member(org.id, user.id, 'owner');
			const again = invitation(org.id);
			await adapter().createInvitation(again);
			expect(await adapter().acceptInvitation(again.id, newMember(org.id, user.id), now)).toBeNull();
			expect((await adapter().getInvitation(again.id))!.status).toBe('pending');
			expect((await adapter().getMembership(org.id, user.id))!.member).toEqual(existing);
			expect(await adapter().acceptInvitation(randomUUID(), newMember(org.id, user.id), now)).toBeNull();
		});

		test('concurrent accepts of one invitation: one member', async () => {
			if (!has()) return;
			const org = await organization();
			const sent = invitation(org.id);
			await adapter().createInvitation(sent);
			const people = [await createUser(), await createUser(), await createUser()];
			const answers = await Promise.all(people.map((person) => adapter().acceptInvitation(sent.id, newMember(org.id, person.id), new Date())));
			expect(answers.filter((answer) => answer !== null)).toHaveLength(1);
			expect(await adapter().listMembers(org.id)).toHaveLength(1);
		});

		test('teams: a name unique in its organization, listed by name then id; deleteTeam takes its members out', async () => {
			if (!has()) return;
			const [org, otherOrg] = [await organization(), await organization()];
			const design = await team_(org.id, 'design');
			await team_(org.id, 'Build');
			await team_(otherOrg.id, 'design');
			expect(isUniqueViolation(await rejection(team_(org.id, 'design')))).toBe(true);
			expect(await rejection(team_(randomUUID(), 'x'))).toBeInstanceOf(Error);
			expect((await adapter().listTeams(org.id)).map((team) => team.name)).toEqual(['Build', 'design']);

			const [first, second, outsider] = [await createUser(), await createUser(), await createUser()];
			await member(org.id, first.id);
			await member(org.id, second.id);
			const placeOf = (userId: string, at: number) => ({ teamId: design.id, userId, createdAt: new Date(at) });
			expect(await adapter().addTeamMember(placeOf(second.id, 1_800_000_000_200))).toEqual(placeOf(second.id, 1_800_000_000_200));
			await adapter().addTeamMember(placeOf(first.id, 1_800_000_000_100));
			expect(isUniqueViolation(await rejection(adapter().addTeamMember(placeOf(first.id, 1_800_000_000_300))))).toBe(true);
			expect(await rejection(adapter().addTeamMember(placeOf(outsider.id, 1)))).toBeInstanceOf(Error);
			expect(await adapter().listTeamMembers(design.id)).toEqual([placeOf(first.id, 1_800_000_000_100), placeOf(second.id, 1_800_000_000_200)]);
			expect(await adapter().removeTeamMember(design.id, second.id)).toBe(true);
			expect(await adapter().removeTeamMember(design.id, second.id)).toBe(false);

			await adapter().deleteTeam(design.id);
			expect((await adapter().listTeams(org.id)).map((team) => team.name)).toEqual(['Build']);
			expect(await adapter().listTeamMembers(design.id)).toEqual([]);
			await adapter().deleteTeam(randomUUID());
		});

		test('a session keeps its active organization through createSession, updateSession and the reads', async () => {
			if (!has()) return;
			const [org, user] = [await organization(), await createUser()];
			const expires = new Date(Date.now() + 86_400_000);
			const withOne = { sessionToken: randomUUID(), userId: user.id, expires, activeOrganizationId: org.id };
			expect((await adapter().createSession(withOne)).activeOrganizationId).toBe(org.id);
			expect((await adapter().getSessionAndUser(withOne.sessionToken))!.session.activeOrganizationId).toBe(org.id);

			const without = { sessionToken: randomUUID(), userId: user.id, expires };
			expect((await adapter().createSession(without)).activeOrganizationId ?? null).toBeNull();
			expect((await adapter().updateSession({ sessionToken: without.sessionToken, activeOrganizationId: org.id }))!.activeOrganizationId).toBe(org.id);
			expect((await adapter().getSessionAndUser(without.sessionToken))!.session.activeOrganizationId).toBe(org.id);
			// another change keeps it
			expect((await adapter().updateSession({ sessionToken: without.sessionToken, expires: new Date(expires.getTime() + 1000) }))!.activeOrganizationId).toBe(org.id);
			const listed = await adapter().listSessionsByUserId(user.id);
			expect(listed.map((session) => session.activeOrganizationId)).toEqual([org.id, org.id]);

			expect((await adapter().updateSession({ sessionToken: without.sessionToken, activeOrganizationId: null }))!.activeOrganizationId ?? null).toBeNull();
			expect((await adapter().getSessionAndUser(without.sessionToken))!.session.activeOrganizationId ?? null).toBeNull();
			expect(await adapter().updateSession({ sessionToken: randomUUID(), activeOrganizationId: org.id })).toBeNull();

			// a new session with the token of a deleted one does not inherit its active organization
			await adapter().deleteSession(withOne.sessionToken);
			await adapter().createSession({ sessionToken: withOne.sessionToken, userId: user.id, expires });
			expect((await adapter().getSessionAndUser(withOne.sessionToken))!.session.activeOrganizationId ?? null).toBeNull();
		});

		test('deleteOrganization deletes its members, invitations, teams and team places, and clears it on sessions', async () => {
			if (!has()) return;
			const [org, kept] = [await organization(), await organization()];
			const user = await createUser();
			await member(org.id, user.id, 'owner');
			await member(kept.id, user.id, 'owner');
			const team = await team_(org.id);
			await adapter().addTeamMember({ teamId: team.id, userId: user.id, createdAt: new Date() });
			const sent = invitation(org.id);
			await adapter().createInvitation(sent);
			const expires = new Date(Date.now() + 86_400_000);
			const active = { sessionToken: randomUUID(), userId: user.id, expires, activeOrganizationId: org.id };
			const other = { sessionToken: randomUUID(), userId: user.id, expires, activeOrganizationId: kept.id };
			await adapter().createSession(active);
			await adapter().createSession(other);

			await adapter().deleteOrganization(org.id);
			expect(await adapter().getOrganization(org.id)).toBeNull();
			expect(await adapter().getOrganizationBySlug(org.slug)).toBeNull();
			expect(await adapter().getMembership(org.id, user.id)).toBeNull();
			expect(await adapter().listMembers(org.id)).toEqual([]);
			expect(await adapter().listInvitations(org.id)).toEqual([]);
			expect(await adapter().getInvitation(sent.id)).toBeNull();
			expect(await adapter().listTeams(org.id)).toEqual([]);
			expect(await adapter().listTeamMembers(team.id)).toEqual([]);
			expect((await adapter().getSessionAndUser(active.sessionToken))!.session.activeOrganizationId ?? null).toBeNull();
			expect((await adapter().getSessionAndUser(other.sessionToken))!.session.activeOrganizationId).toBe(kept.id);
			expect((await adapter().listMemberships(user.id)).map((entry) => entry.organization.id)).toEqual([kept.id]);
			// the slug is free again
			expect((await organization({ slug: org.slug })).slug).toBe(org.slug);
			await adapter().deleteOrganization(randomUUID());
		});

		test('deleteUser removes their memberships and team places; the organization stays', async () => {
			if (!has()) return;
			const org = await organization();
			const [owner, user] = [await createUser(), await createUser()];
			await member(org.id, owner.id, 'owner');
			await member(org.id, user.id);
			const team = await team_(org.id);
			await adapter().addTeamMember({ teamId: team.id, userId: user.id, createdAt: new Date() });
			await adapter().createSession({ sessionToken: randomUUID(), userId: user.id, expires: new Date(Date.now() + 86_400_000), activeOrganizationId: org.id });
			await adapter().deleteUser(user.id);
			expect((await adapter().listMembers(org.id)).map((entry) => entry.userId)).toEqual([owner.id]);
			expect(await adapter().getMembership(org.id, user.id)).toBeNull();
			expect(await adapter().listTeamMembers(team.id)).toEqual([]);
			expect(await adapter().listMemberships(user.id)).toEqual([]);
			expect(await adapter().getOrganization(org.id)).toEqual(org);
		});
	});

	async function team_(organizationId: string, name = `team ${randomTag()}`) {
		return adapter().createTeam({ id: randomUUID(), organizationId, name, createdAt: new Date(1_800_000_000_000) });
	}
}

async function rejection(promise: unknown): Promise<unknown> {
	try {
		await promise;
	} catch (error) {
		return error;
	}
	throw new Error('expected a rejection');
}

function randomTag(): string {
	return `t${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

function randomUUID(): string {
	return crypto.randomUUID();
}

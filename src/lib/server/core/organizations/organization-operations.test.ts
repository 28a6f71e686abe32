// The organization operations (through organizationApi, which calls the same functions as the
// routes): who may create, read, change and delete; nobody grants a role above their own; the
// last owner stays; a non-member learns nothing. Runs on every adapter of `memoryAndSqliteAdapters`
// that stores organizations (memory now; SQLite once its adapter has the methods).

import { describe, expect, test } from 'vitest';
import { memoryAndSqliteAdapters } from '../test/stored-adapters.js';
import { TEST_SECRET } from '../test/client.js';
import type { Adapter, AuthConfig, OrganizationOptions } from '../types.js';
import { organizationApi } from './organization-api.js';
import { can } from './can.js';

const adapters = memoryAndSqliteAdapters('organization-operations').filter(([, make]) => typeof (make() as Adapter).createOrganization === 'function');

/** A custom role that may delete the organization: more than an admin may do. */
const ROLES: OrganizationOptions['roles'] = { superadmin: { organization: ['update', 'delete'], member: ['update', 'delete'] }, viewer: {} };

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	async function world(organizations: OrganizationOptions = { roles: ROLES }, adapter: Required<Adapter> = makeAdapter()) {
		const clock = { now: Date.UTC(2026, 5, 1, 12) };
		const changes: { action: string; actorId: string | null; organizationId: string; subjectUserId: string | null }[] = [];
		const config: AuthConfig = {
			providers: [],
			secret: TEST_SECRET,
			adapter,
			session: { strategy: 'jwt' },
			organizations,
			now: () => clock.now,
			events: { organizationChange: (message) => void changes.push(message) }
		};
		for (const id of ['olga', 'adam', 'mia', 'otto', 'stranger']) await adapter.createUser({ id, email: `${id}@example.com`, name: id, emailVerified: null });
		const as = (userId: string) => organizationApi(config, { userId });
		const system = organizationApi(config, { system: true });
		return { adapter, config, clock, changes, as, system };
	}

	/** Acme: olga owner, adam admin, mia member. */
	async function acme(organizations?: OrganizationOptions) {
		const w = await world(organizations);
		const org = await w.as('olga').create({ name: 'Acme' });
		const adam = await w.adapter.createMember({ id: 'm-adam', organizationId: org.id, userId: 'adam', role: 'admin', createdAt: new Date() });
		const mia = await w.adapter.createMember({ id: 'm-mia', organizationId: org.id, userId: 'mia', role: 'member', createdAt: new Date() });
		const olga = (await w.adapter.getMembership(org.id, 'olga'))!.member;
		return { ...w, org, olga, adam, mia };
	}

	describe('create', () => {
		test('the creator becomes owner; the slug is made from the name (ascii, lowercase, "-"); the change is an event', async () => {
			const { as, adapter, changes } = await world();
			const org = await as('olga').create({ name: '  Café Crème & Co  ' });
			expect(org).toMatchObject({ name: 'Café Crème & Co', slug: 'cafe-creme-co' });
			expect((await adapter.getMembership(org.id, 'olga'))?.member.role).toBe('owner');
			expect(changes).toEqual([expect.objectContaining({ action: 'create', actorId: 'olga', organizationId: org.id })]);
		});

		test('a chosen slug that is taken is OrganizationSlugTaken; a derived one gets a random ending', async () => {
			const { as } = await world();
			await as('olga').create({ name: 'Acme', slug: 'acme' });
			await expect(as('adam').create({ name: 'Other', slug: 'acme' })).rejects.toMatchObject({ type: 'OrganizationSlugTaken' });
			const second = await as('adam').create({ name: 'Acme' });
			expect(second.slug).toMatch(/^acme-[0-9a-f]{8}$/);
		});

		test('a name with nothing ascii gets a made-up slug; bad names, slugs, logos and metadata are InvalidRequest', async () => {
			const { as } = await world();
			expect((await as('olga').create({ name: '日本' })).slug).toMatch(/^org-[0-9a-f]{8}$/);
			for (const input of [
				{ name: '' },
				{ name: 'x'.repeat(10_000) },
				{ name: 'a\u0000b' },
				{ name: 'a\uD800b' },
				{ name: 'Ok', slug: 'Not A Slug' },
				{ name: 'Ok', slug: '-x' },
				{ name: 'Ok', logo: 'javascript:alert(1)' },
				{ name: 'Ok', logo: '//evil.example/logo.png' },
				{ name: 'Ok', logo: 'http://example.com/logo.png' },
				{ name: 'Ok', metadata: '[1,2]' },
				{ name: 'Ok', metadata: '{' },
				{ name: 42 as unknown as string }
			]) {
				await expect(as('olga').create(input), JSON.stringify(input).slice(0, 60)).rejects.toMatchObject({ type: 'InvalidRequest' });
			}
			expect(await as('olga').create({ name: 'Logo', logo: 'https://cdn.example.com/a.png', metadata: '{"plan":"pro"}' })).toMatchObject({ logo: 'https://cdn.example.com/a.png', metadata: '{"plan":"pro"}' });
		});

		test('allowCreate false or a function saying no: OrganizationForbidden; a script still creates for a named owner', async () => {
			const off = await world({ allowCreate: false });
			await expect(off.as('olga').create({ name: 'Acme' })).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			expect((await off.as('olga').list()).canCreate).toBe(false);
			const org = await off.system.create({ name: 'Acme', ownerId: 'olga' });
			expect((await off.adapter.getMembership(org.id, 'olga'))?.member.role).toBe('owner');
			await expect(off.system.create({ name: 'Acme 2' })).rejects.toMatchObject({ type: 'InvalidRequest' });
			const picky = await world({ allowCreate: ({ user }) => user.id === 'adam' });
			await expect(picky.as('olga').create({ name: 'A' })).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			await expect(picky.as('adam').create({ name: 'A' })).resolves.toMatchObject({ name: 'A' });
		});

		test('at most maxOrganizationsPerUser owned: the next one is refused, memberships elsewhere do not count', async () => {
			const { as, adapter } = await world({ maxOrganizationsPerUser: 2 });
			await as('olga').create({ name: 'One' });
			const two = await as('olga').create({ name: 'Two' });
			const elsewhere = await as('adam').create({ name: 'Adam' });
			await adapter.createMember({ id: 'm-x', organizationId: elsewhere.id, userId: 'olga', role: 'admin', createdAt: new Date() });
			await expect(as('olga').create({ name: 'Three' })).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			expect((await as('olga').list()).canCreate).toBe(false);
			await as('olga').delete(two.id);
			await expect(as('olga').create({ name: 'Three' })).resolves.toMatchObject({ name: 'Three' });
		});

		test('no half-written organization: when the owner cannot be stored, the organization is deleted again', async () => {
			const inner = makeAdapter();
			const failing: Required<Adapter> = Object.assign(Object.create(inner) as Required<Adapter>, {
				createMember: () => Promise.reject(new Error('disk full'))
			});
			const { as, adapter } = await world({}, failing);
			await expect(as('olga').create({ name: 'Acme', slug: 'acme' })).rejects.toThrow('disk full');
			expect(await adapter.getOrganizationBySlug('acme')).toBeNull();
			expect(await adapter.listMemberships('olga')).toEqual([]);
		});
	});

	describe('read', () => {
		test('list: the user\'s organizations with their role; pending unexpired invitations to their address', async () => {
			const { as, adapter, org, clock } = await acme();
			const other = await as('otto').create({ name: 'Otto Inc' });
			const expires = new Date(clock.now + 3600_000);
			await adapter.createInvitation({ id: 'inv-1', organizationId: other.id, email: 'mia@example.com', role: 'member', inviterId: 'otto', tokenHash: 'h1', teamId: null, status: 'pending', expires, createdAt: new Date(clock.now) });
			await adapter.createInvitation({ id: 'inv-2', organizationId: other.id, email: 'mia@example.com', role: 'admin', inviterId: 'otto', tokenHash: 'h2', teamId: null, status: 'pending', expires: new Date(clock.now - 1), createdAt: new Date(clock.now) });
			const list = await as('mia').list();
			expect(list.organizations).toEqual([{ id: org.id, name: 'Acme', slug: 'acme', logo: null, role: 'member' }]);
			expect(list.invitations).toEqual([expect.objectContaining({ id: 'inv-1', organizationName: 'Otto Inc', inviterName: 'otto' })]);
		});

		test('unknown id and another organization\'s id answer the same OrganizationNotFound, for reads and every change', async () => {
			const { as, org, mia } = await acme();
			const stranger = as('stranger');
			const refusals = await Promise.all(
				[
					stranger.get(org.id),
					stranger.get('no-such'),
					stranger.update(org.id, { name: 'Mine' }),
					stranger.delete(org.id),
					stranger.setRole(org.id, mia.id, 'admin'),
					stranger.removeMember(org.id, mia.id),
					stranger.leave(org.id),
					stranger.createTeam(org.id, 'T'),
					stranger.addTeamMember(org.id, 't', 'stranger')
				].map((call) => call.catch((error: unknown) => error))
			);
			for (const refusal of refusals) expect(refusal).toMatchObject({ type: 'OrganizationNotFound' });
			expect(new Set(refusals.map((refusal) => (refusal as Error).message)).size).toBe(1);
		});

		test('detail: permissions and grantable roles by role; per-member actions; invitations only for those who may invite', async () => {
			const { as, adapter, org, clock } = await acme();
			await adapter.createInvitation({ id: 'inv-old', organizationId: org.id, email: 'x@example.com', role: 'member', inviterId: 'olga', tokenHash: 'h', teamId: null, status: 'pending', expires: new Date(clock.now - 1000), createdAt: new Date(clock.now - 5000) });
			const owner = await as('olga').get(org.id);
			expect(owner.permissions.deleteOrganization).toBe(true);
			expect(owner.grantableRoles).toEqual(['owner', 'admin', 'member', 'superadmin', 'viewer']);
			expect(owner.invitations).toEqual([expect.objectContaining({ id: 'inv-old', status: 'expired', inviterName: 'olga' })]);
			const admin = await as('adam').get(org.id);
			expect(admin.permissions).toMatchObject({ updateOrganization: true, deleteOrganization: false, invite: true });
			expect(admin.grantableRoles).toEqual(['admin', 'member', 'viewer']);
			const byUser = Object.fromEntries(admin.members.map((member) => [member.userId, member]));
			expect(byUser.olga).toMatchObject({ canChangeRole: false, canRemove: false, you: false });
			expect(byUser.mia).toMatchObject({ canChangeRole: true, canRemove: true });
			expect(byUser.adam).toMatchObject({ you: true, canRemove: true });
			const member = await as('mia').get(org.id);
			expect(member.permissions).toEqual({ updateOrganization: false, deleteOrganization: false, invite: false, cancelInvitation: false, updateMembers: false, removeMembers: false, manageTeams: false });
			expect(member.invitations).toEqual([]);
			expect(member.members.filter((view) => view.canChangeRole || (view.canRemove && !view.you))).toEqual([]);
		});
		test('detail: the last owner is offered neither leaving nor a role change (both would be OrganizationLastOwner); with a second owner, both are', async () => {
			const { as, system, adapter, org } = await acme();
			const alone = await as('olga').get(org.id);
			expect(alone.members.find((member) => member.you)).toMatchObject({ role: 'owner', canRemove: false });
			await expect(as('olga').leave(org.id)).rejects.toMatchObject({ type: 'OrganizationLastOwner' });
			const bySystem = (await system.get(org.id)).members.find((member) => member.userId === 'olga');
			expect(bySystem).toMatchObject({ canRemove: false, canChangeRole: false });
			await adapter.updateMemberRole('m-adam', 'owner', { keepOne: 'owner' });
			const shared = await as('olga').get(org.id);
			expect(shared.members.find((member) => member.you)).toMatchObject({ canRemove: true });
			expect(shared.members.find((member) => member.userId === 'adam')).toMatchObject({ canChangeRole: true, canRemove: true });
		});
	});

	describe('update and delete', () => {
		test('update needs organization:update (admin yes, member no); a taken slug is OrganizationSlugTaken', async () => {
			const { as, org, changes } = await acme();
			await expect(as('mia').update(org.id, { name: 'Mine' })).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			await as('otto').create({ name: 'Taken', slug: 'taken' });
			await expect(as('adam').update(org.id, { slug: 'taken' })).rejects.toMatchObject({ type: 'OrganizationSlugTaken' });
			expect(await as('adam').update(org.id, { name: 'Acme Inc', metadata: '{"tier":1}' })).toMatchObject({ name: 'Acme Inc', slug: 'acme', metadata: '{"tier":1}' });
			expect(changes.at(-1)).toMatchObject({ action: 'update', actorId: 'adam' });
		});

		test('delete is the owner\'s: an admin is refused, the owner deletes, then nobody finds it', async () => {
			const { as, org } = await acme();
			await expect(as('adam').delete(org.id)).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			await as('olga').delete(org.id);
			await expect(as('olga').get(org.id)).rejects.toMatchObject({ type: 'OrganizationNotFound' });
		});
	});

	describe('roles: nobody grants a role above their own', () => {
		test('a member cannot promote themselves or anyone', async () => {
			const { as, org, mia, adam } = await acme();
			await expect(as('mia').setRole(org.id, mia.id, 'admin')).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			await expect(as('mia').setRole(org.id, mia.id, 'owner')).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			await expect(as('mia').setRole(org.id, adam.id, 'member')).rejects.toMatchObject({ type: 'OrganizationForbidden' });
		});

		test('an admin cannot make an owner (of others or themselves), nor give a custom role that may do more', async () => {
			const { as, org, mia, adam, olga } = await acme();
			await expect(as('adam').setRole(org.id, mia.id, 'owner')).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			await expect(as('adam').setRole(org.id, adam.id, 'owner')).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			await expect(as('adam').setRole(org.id, mia.id, 'superadmin')).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			await expect(as('adam').setRole(org.id, adam.id, 'superadmin')).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			await expect(as('adam').setRole(org.id, olga.id, 'member')).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			await expect(as('adam').removeMember(org.id, olga.id)).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			expect((await as('olga').get(org.id)).members.map((member) => member.role).sort()).toEqual(['admin', 'member', 'owner']);
		});

		test('an admin may give roles within their own; the owner may make owners', async () => {
			const { as, org, mia } = await acme();
			expect(await as('adam').setRole(org.id, mia.id, 'viewer')).toMatchObject({ role: 'viewer' });
			expect(await as('adam').setRole(org.id, mia.id, 'admin')).toMatchObject({ role: 'admin' });
			expect(await as('olga').setRole(org.id, mia.id, 'owner')).toMatchObject({ role: 'owner' });
		});

		test('an unknown role is InvalidRequest; a member id of another organization is OrganizationMemberNotFound', async () => {
			const { as, org, mia } = await acme();
			const other = await as('otto').create({ name: 'Other' });
			const otto = (await as('otto').get(other.id)).members[0];
			await expect(as('olga').setRole(org.id, mia.id, 'emperor')).rejects.toMatchObject({ type: 'InvalidRequest' });
			await expect(as('olga').setRole(org.id, otto.id, 'member')).rejects.toMatchObject({ type: 'OrganizationMemberNotFound' });
			await expect(as('olga').removeMember(org.id, otto.id)).rejects.toMatchObject({ type: 'OrganizationMemberNotFound' });
		});

		test('one\'s own role may go down, not up', async () => {
			const { as, org, adam } = await acme();
			expect(await as('adam').setRole(org.id, adam.id, 'member')).toMatchObject({ role: 'member' });
			await expect(as('adam').setRole(org.id, adam.id, 'admin')).rejects.toMatchObject({ type: 'OrganizationForbidden' });
		});
	});

	describe('the last owner stays', () => {
		test('the last owner can neither leave, nor demote themselves, nor be removed, even by a script', async () => {
			const { as, system, org, olga } = await acme();
			await expect(as('olga').leave(org.id)).rejects.toMatchObject({ type: 'OrganizationLastOwner' });
			await expect(as('olga').setRole(org.id, olga.id, 'admin')).rejects.toMatchObject({ type: 'OrganizationLastOwner' });
			await expect(as('olga').removeMember(org.id, olga.id)).rejects.toMatchObject({ type: 'OrganizationLastOwner' });
			await expect(system.removeMember(org.id, olga.id)).rejects.toMatchObject({ type: 'OrganizationLastOwner' });
			await expect(system.setRole(org.id, olga.id, 'member')).rejects.toMatchObject({ type: 'OrganizationLastOwner' });
		});

		test('with a second owner, the first may step down and leave', async () => {
			const { as, org, olga, mia } = await acme();
			await as('olga').setRole(org.id, mia.id, 'owner');
			expect(await as('olga').setRole(org.id, olga.id, 'admin')).toMatchObject({ role: 'admin' });
			await as('olga').leave(org.id);
			await expect(as('olga').get(org.id)).rejects.toMatchObject({ type: 'OrganizationNotFound' });
		});

		test('any member may leave; removing oneself is leaving; an admin removes a member', async () => {
			const { as, org, mia, adam, changes } = await acme();
			await as('mia').leave(org.id);
			expect(changes.at(-1)).toMatchObject({ action: 'leave', subjectUserId: 'mia' });
			await expect(as('mia').get(org.id)).rejects.toMatchObject({ type: 'OrganizationNotFound' });
			await as('adam').removeMember(org.id, adam.id);
			expect(changes.at(-1)).toMatchObject({ action: 'leave', subjectUserId: 'adam' });
			void mia;
		});
	});

	describe('teams', () => {
		test('team changes need team permissions; only members join; a team of another organization is refused', async () => {
			const { as, org } = await acme();
			await expect(as('mia').createTeam(org.id, 'Design')).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			const team = await as('adam').createTeam(org.id, 'Design');
			await expect(as('adam').createTeam(org.id, 'Design')).rejects.toMatchObject({ type: 'InvalidRequest' });
			await expect(as('adam').addTeamMember(org.id, team.id, 'stranger')).rejects.toMatchObject({ type: 'OrganizationMemberNotFound' });
			await as('adam').addTeamMember(org.id, team.id, 'mia');
			await as('adam').addTeamMember(org.id, team.id, 'mia');
			expect((await as('mia').get(org.id)).teams).toEqual([{ id: team.id, name: 'Design', memberUserIds: ['mia'] }]);
			await expect(as('mia').removeTeamMember(org.id, team.id, 'mia')).rejects.toMatchObject({ type: 'OrganizationForbidden' });
			const other = await as('otto').create({ name: 'Other' });
			const foreign = await as('otto').createTeam(other.id, 'Theirs');
			await expect(as('adam').deleteTeam(org.id, foreign.id)).rejects.toMatchObject({ type: 'InvalidRequest' });
			await as('adam').removeTeamMember(org.id, team.id, 'mia');
			await expect(as('adam').removeTeamMember(org.id, team.id, 'mia')).rejects.toMatchObject({ type: 'OrganizationMemberNotFound' });
			await as('adam').deleteTeam(org.id, team.id);
			expect((await as('adam').get(org.id)).teams).toEqual([]);
		});
	});

	test('can(): true only for an active organization whose role allows it', async () => {
		const { config } = await world();
		const session = (role: string) => ({ organization: { id: 'o', name: 'O', slug: 'o', logo: null, role } });
		expect(can(session('owner'), 'anything', 'at-all', config)).toBe(true);
		expect(can(session('superadmin'), 'organization', 'delete', config)).toBe(true);
		expect(can(session('admin'), 'organization', 'delete', config)).toBe(false);
		expect(can(session('viewer'), 'member', 'update', config)).toBe(false);
		expect(can({}, 'organization', 'update', config)).toBe(false);
		expect(can(null, 'organization', 'update', config)).toBe(false);
		expect(can(session('owner'), 'organization', 'update', { organizations: undefined })).toBe(false);
	});
});

// The organization methods of the memory adapter (docs/organizations.md): organizations, members,
// invitations and teams kept in maps, with the SQL adapters' rules (unique slug, one membership
// per user and organization, cascading deletes, one owner kept, an invitation accepted once).
import { AdapterError } from '../../core/errors.js';
import type {
	Adapter,
	AdapterInvitation,
	AdapterMember,
	AdapterOrganization,
	AdapterSession,
	AdapterTeam,
	AdapterTeamMember,
	AdapterUser
} from '../../core/types.js';
import { UniqueViolationError } from '../errors.js';
import type { ORGANIZATION_ADAPTER_METHODS } from '../../core/store/adapter-guard.js';

type OrganizationMethods = Required<Pick<Adapter, (typeof ORGANIZATION_ADAPTER_METHODS)[number]>>;

/**
 * The organization methods over the memory adapter's users and sessions. Methods never await
 * before writing, so a check and its write cannot interleave with another call.
 */
export function memoryOrganizations(users: Map<string, AdapterUser>, sessions: Map<string, AdapterSession>): OrganizationMethods & {
	/** Called by the adapter's `deleteUser`: removes the user's memberships and team places. */
	forgetUser(userId: string): void;
} {
	const organizations = new Map<string, AdapterOrganization>();
	const members = new Map<string, AdapterMember>();
	const invitations = new Map<string, AdapterInvitation>();
	const teams = new Map<string, AdapterTeam>();
	const teamMembers: AdapterTeamMember[] = [];

	function requireOrganization(id: string, operation: string): void {
		if (!organizations.has(id)) throw new AdapterError(`${operation}: no organization with id ${id}`);
	}
	function requireFreeSlug(slug: string, exceptId?: string): void {
		for (const organization of organizations.values()) {
			if (organization.slug === slug && organization.id !== exceptId) throw new UniqueViolationError('kitgate_organizations_slug_key', 'An organization with this slug already exists');
		}
	}
	function membershipOf(organizationId: string, userId: string): AdapterMember | undefined {
		for (const member of members.values()) if (member.organizationId === organizationId && member.userId === userId) return member;
		return undefined;
	}
	/** True when changing `member` away from `keepOne` would leave its organization without one. */
	function isLastOf(member: AdapterMember, keepOne: string): boolean {
		if (member.role !== keepOne) return false;
		for (const other of members.values()) if (other.organizationId === member.organizationId && other.id !== member.id && other.role === keepOne) return false;
		return true;
	}
	function removeTeamPlaces(matches: (place: AdapterTeamMember) => boolean): void {
		for (let index = teamMembers.length - 1; index >= 0; index--) if (matches(teamMembers[index])) teamMembers.splice(index, 1);
	}
	function storeMember(member: AdapterMember): AdapterMember {
		requireOrganization(member.organizationId, 'createMember');
		if (!users.has(member.userId)) throw new AdapterError(`createMember: no user with id ${member.userId}`);
		if (members.has(member.id)) throw new UniqueViolationError('kitgate_members_pkey', 'A member with this id already exists');
		if (membershipOf(member.organizationId, member.userId)) throw new UniqueViolationError('kitgate_members_organization_user_key', 'The user is already a member');
		const stored = copyMember(member);
		members.set(stored.id, stored);
		return copyMember(stored);
	}

	return {
		forgetUser(userId) {
			for (const [id, member] of members) if (member.userId === userId) members.delete(id);
			removeTeamPlaces((place) => place.userId === userId);
		},

		async createOrganization(organization) {
			if (organizations.has(organization.id)) throw new UniqueViolationError('kitgate_organizations_pkey', 'An organization with this id already exists');
			requireFreeSlug(organization.slug);
			const stored = copyOrganization(organization);
			organizations.set(stored.id, stored);
			return copyOrganization(stored);
		},
		async getOrganization(id) {
			const found = organizations.get(id);
			return found ? copyOrganization(found) : null;
		},
		async getOrganizationBySlug(slug) {
			for (const organization of organizations.values()) if (organization.slug === slug) return copyOrganization(organization);
			return null;
		},
		async updateOrganization(changes) {
			const current = organizations.get(changes.id);
			if (!current) return null;
			if (changes.slug !== undefined) requireFreeSlug(changes.slug, current.id);
			const next: AdapterOrganization = {
				...current,
				name: changes.name ?? current.name,
				slug: changes.slug ?? current.slug,
				logo: changes.logo !== undefined ? changes.logo : current.logo,
				metadata: changes.metadata !== undefined ? changes.metadata : current.metadata
			};
			organizations.set(next.id, next);
			return copyOrganization(next);
		},
		async deleteOrganization(id) {
			if (!organizations.delete(id)) return;
			const teamIds = new Set([...teams.values()].filter((team) => team.organizationId === id).map((team) => team.id));
			for (const [key, member] of members) if (member.organizationId === id) members.delete(key);
			for (const [key, invitation] of invitations) if (invitation.organizationId === id) invitations.delete(key);
			for (const teamId of teamIds) teams.delete(teamId);
			removeTeamPlaces((place) => teamIds.has(place.teamId));
			for (const session of sessions.values()) if (session.activeOrganizationId === id) session.activeOrganizationId = null;
		},

		async createMember(member) {
			return storeMember(member);
		},
		async getMembership(organizationId, userId) {
			const organization = organizations.get(organizationId);
			const member = organization && membershipOf(organizationId, userId);
			return organization && member ? { organization: copyOrganization(organization), member: copyMember(member) } : null;
		},
		async listMembers(organizationId) {
			return [...members.values()]
				.filter((member) => member.organizationId === organizationId && users.has(member.userId))
				.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || compareCodeUnits(a.id, b.id))
				.map((member) => ({ ...copyMember(member), user: structuredClone(users.get(member.userId)!) }));
		},
		async listMemberships(userId) {
			return [...members.values()]
				.filter((member) => member.userId === userId && organizations.has(member.organizationId))
				.map((member) => ({ organization: copyOrganization(organizations.get(member.organizationId)!), member: copyMember(member) }))
				.sort((a, b) => compareCodeUnits(a.organization.name, b.organization.name) || compareCodeUnits(a.organization.id, b.organization.id));
		},
		async updateMemberRole(memberId, role, { keepOne, expectedRole }) {
			const member = members.get(memberId);
			if (!member) return null;
			if (expectedRole !== undefined && member.role !== expectedRole) return 'stale';
			if (role !== keepOne && isLastOf(member, keepOne)) return 'last';
			const next = { ...member, role };
			members.set(memberId, next);
			return copyMember(next);
		},
		async deleteMember(memberId, { keepOne, expectedRole }) {
			const member = members.get(memberId);
			if (!member) return null;
			if (expectedRole !== undefined && member.role !== expectedRole) return 'stale';
			if (isLastOf(member, keepOne)) return 'last';
			members.delete(memberId);
			const teamIds = new Set([...teams.values()].filter((team) => team.organizationId === member.organizationId).map((team) => team.id));
			removeTeamPlaces((place) => place.userId === member.userId && teamIds.has(place.teamId));
			return 'deleted';
		},

		async createInvitation(invitation) {
			requireOrganization(invitation.organizationId, 'createInvitation');
			if (invitations.has(invitation.id)) throw new UniqueViolationError('kitgate_invitations_pkey', 'An invitation with this id already exists');
			const stored = copyInvitation(invitation);
			invitations.set(stored.id, stored);
			return copyInvitation(stored);
		},
		async getInvitation(id) {
			const found = invitations.get(id);
			return found ? copyInvitation(found) : null;
		},
		async listInvitations(organizationId) {
			return newestFirst([...invitations.values()].filter((invitation) => invitation.organizationId === organizationId));
		},
		async listInvitationsByEmail(email) {
			return newestFirst([...invitations.values()].filter((invitation) => invitation.email === email));
		},
		async revokeInvitation(id) {
			const invitation = invitations.get(id);
			if (!invitation || invitation.status !== 'pending') return false;
			invitations.set(id, { ...invitation, status: 'revoked' });
			return true;
		},
		async acceptInvitation(invitationId, member, now) {
			const invitation = invitations.get(invitationId);
			if (!invitation || invitation.status !== 'pending' || invitation.expires.getTime() <= now.getTime()) return null;
			if (member.organizationId !== invitation.organizationId) throw new AdapterError('acceptInvitation: the member is for another organization');
			if (membershipOf(member.organizationId, member.userId)) return null;
			const stored = storeMember(member);
			invitations.set(invitationId, { ...invitation, status: 'accepted' });
			if (invitation.teamId && teams.has(invitation.teamId)) teamMembers.push({ teamId: invitation.teamId, userId: member.userId, createdAt: new Date(now) });
			return stored;
		},

		async createTeam(team) {
			requireOrganization(team.organizationId, 'createTeam');
			if (teams.has(team.id)) throw new UniqueViolationError('kitgate_teams_pkey', 'A team with this id already exists');
			for (const other of teams.values()) {
				if (other.organizationId === team.organizationId && other.name === team.name) throw new UniqueViolationError('kitgate_teams_organization_name_key', 'A team with this name already exists');
			}
			const stored = { ...team, createdAt: new Date(team.createdAt) };
			teams.set(stored.id, stored);
			return structuredClone(stored);
		},
		async listTeams(organizationId) {
			return [...teams.values()]
				.filter((team) => team.organizationId === organizationId)
				.sort((a, b) => compareCodeUnits(a.name, b.name) || compareCodeUnits(a.id, b.id))
				.map((team) => structuredClone(team));
		},
		async deleteTeam(teamId) {
			teams.delete(teamId);
			removeTeamPlaces((place) => place.teamId === teamId);
		},
		async addTeamMember(place) {
			const team = teams.get(place.teamId);
			if (!team) throw new AdapterError(`addTeamMember: no team with id ${place.teamId}`);
			if (!membershipOf(team.organizationId, place.userId)) throw new AdapterError('addTeamMember: the user is not a member of the team\'s organization');
			if (teamMembers.some((other) => other.teamId === place.teamId && other.userId === place.userId)) throw new UniqueViolationError('kitgate_team_members_pkey', 'The user is already in the team');
			const stored = { teamId: place.teamId, userId: place.userId, createdAt: new Date(place.createdAt) };
			teamMembers.push(stored);
			return structuredClone(stored);
		},
		async removeTeamMember(teamId, userId) {
			const before = teamMembers.length;
			removeTeamPlaces((place) => place.teamId === teamId && place.userId === userId);
			return teamMembers.length < before;
		},
		async listTeamMembers(teamId) {
			return teamMembers
				.filter((place) => place.teamId === teamId)
				.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || compareCodeUnits(a.userId, b.userId))
				.map((place) => structuredClone(place));
		}
	};
}

function copyOrganization(organization: AdapterOrganization): AdapterOrganization {
	return {
		id: organization.id,
		name: organization.name,
		slug: organization.slug,
		logo: organization.logo ?? null,
		metadata: organization.metadata ?? null,
		createdAt: new Date(organization.createdAt)
	};
}

function copyMember(member: AdapterMember): AdapterMember {
	return { id: member.id, organizationId: member.organizationId, userId: member.userId, role: member.role, createdAt: new Date(member.createdAt) };
}

function copyInvitation(invitation: AdapterInvitation): AdapterInvitation {
	return { ...invitation, teamId: invitation.teamId ?? null, inviterId: invitation.inviterId ?? null, expires: new Date(invitation.expires), createdAt: new Date(invitation.createdAt) };
}

function newestFirst(list: AdapterInvitation[]): AdapterInvitation[] {
	return list.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || compareCodeUnits(b.id, a.id)).map(copyInvitation);
}

function compareCodeUnits(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

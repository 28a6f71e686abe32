// The organization operations (docs/organizations.md): the one place that decides who may list,
// read, create, change or delete an organization, its members and teams. The routes
// (actions/organization-changes.ts) and `organizationApi` both call these. Each checks membership
// (`OrganizationNotFound`: unknown and not-a-member answer the same), then the role through
// roles.ts (`OrganizationForbidden`), then the input, makes the change and fires
// `organizationChange`.

import { emitEvent } from '../config/events.js';
import type { RequestContext } from '../request/context.js';
import {
	InvalidRequest,
	OrganizationForbidden,
	OrganizationLastOwner,
	OrganizationMemberNotFound,
	OrganizationNotFound,
	OrganizationSlugTaken
} from '../errors.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import type { GuardedAdapter } from '../store/adapter-guard.js';
import type { AdapterInvitation, AdapterMember, AdapterOrganization, AdapterTeam, AdapterUser } from '../types.js';
import { isKnownRole, mayActOnMember, mayGrant, OWNER_ROLE, roleAllows, roleWithin } from './roles.js';
import type { ResolvedOrganizationOptions } from '../config/organization-options.js';
import { idField, organizationLogo, organizationMetadata, organizationName, organizationSlug, parsedMetadata, shownLogo, slugFromName } from './organization-input.js';
import type {
	OrganizationDetail,
	OrganizationInvitationView,
	OrganizationList,
	OrganizationMemberView,
	OrganizationPermissions,
	OrganizationTeamView,
	ReceivedInvitation
} from '../organization-types.js';

/**
 * Who performs an operation: a signed-in user (checked as that member), or null for a trusted
 * server script (no permission checks; the last owner still stays).
 */
export interface OrganizationCall {
	ctx: RequestContext;
	actor: AdapterUser | null;
}

/** Where the caller stands in an organization: its row and the role it acts with. */
interface Standing {
	organization: AdapterOrganization;
	/** The actor's membership; null for a script. */
	member: AdapterMember | null;
	/** The role the checks use: the member's, or the owner's for a script. */
	role: string;
}

function options(call: OrganizationCall): ResolvedOrganizationOptions {
	return call.ctx.config.organizations!;
}

function adapter(call: OrganizationCall): GuardedAdapter {
	return call.ctx.config.adapter!;
}

function actorOf(call: OrganizationCall, what: string): AdapterUser {
	if (!call.actor) throw new InvalidRequest(`${what} is done by a member: call organizationApi with { userId }.`);
	return call.actor;
}

/** The organization and the actor's role in it; `OrganizationNotFound` for an unknown id or a non-member alike. */
async function standing(call: OrganizationCall, organizationId: unknown): Promise<Standing> {
	const id = idField(organizationId, 'organizationId');
	if (!call.actor) {
		const organization = await adapter(call).getOrganization(id);
		if (!organization) throw new OrganizationNotFound('No such organization.');
		return { organization, member: null, role: OWNER_ROLE };
	}
	const membership = await adapter(call).getMembership(id, call.actor.id);
	if (!membership) throw new OrganizationNotFound('No such organization, or you are not its member.');
	return { organization: membership.organization, member: membership.member, role: membership.member.role };
}

function requirePermission(call: OrganizationCall, place: Standing, resource: string, action: string): void {
	if (!call.actor) return;
	if (!roleAllows(options(call).roles, place.role, resource, action)) {
		throw new OrganizationForbidden(`Your role "${place.role}" may not ${action} ${resource === 'organization' ? 'the organization' : `${resource}s`}.`);
	}
}

function changed(call: OrganizationCall, action: string, organizationId: string, subjectUserId: string | null, detail: Record<string, unknown> | null = null): Promise<void> | undefined {
	return emitEvent(call.ctx, 'organizationChange', { action, actorId: call.actor?.id ?? null, organizationId, subjectUserId, detail });
}

function iso(date: Date): string {
	return new Date(date).toISOString();
}

/** True when the user may create an organization now: `allowCreate`, then the per-user limit of owned ones. */
async function mayCreate(call: OrganizationCall, user: AdapterUser): Promise<{ allowed: true } | { allowed: false; reason: string }> {
	const { allowCreate, maxOrganizationsPerUser } = options(call);
	const allowed = typeof allowCreate === 'function' ? (await allowCreate({ user })) === true : allowCreate;
	if (!allowed) return { allowed: false, reason: 'This app does not let you create organizations.' };
	const owned = (await adapter(call).listMemberships(user.id)).filter((membership) => membership.member.role === OWNER_ROLE).length;
	if (owned >= maxOrganizationsPerUser) return { allowed: false, reason: `You own ${owned} organizations, the most one user may create.` };
	return { allowed: true };
}

/**
 * The actor's organizations, pending invitations to their address, and whether they may create one.
 *
 * @example
 * const list = await listOrganizations({ ctx, actor: user }, { activeOrganizationId: null, csrfToken });
 */
export async function listOrganizations(call: OrganizationCall, view: { activeOrganizationId: string | null; csrfToken: string }): Promise<OrganizationList> {
	const user = actorOf(call, 'Listing organizations');
	const memberships = await adapter(call).listMemberships(user.id);
	const organizations = memberships.map(({ organization, member }) => ({
		id: organization.id,
		name: organization.name,
		slug: organization.slug,
		logo: shownLogo(organization.logo),
		role: member.role
	}));
	const active = view.activeOrganizationId && organizations.some((organization) => organization.id === view.activeOrganizationId) ? view.activeOrganizationId : null;
	return {
		organizations,
		activeOrganizationId: active,
		invitations: user.email ? await receivedInvitations(call, user.email, new Set(organizations.map((organization) => organization.id))) : [],
		canCreate: (await mayCreate(call, user)).allowed,
		csrfToken: view.csrfToken
	};
}

async function receivedInvitations(call: OrganizationCall, email: string, joined: ReadonlySet<string>): Promise<ReceivedInvitation[]> {
	const now = call.ctx.config.now();
	// invitations are stored under the address as sign-in normalizes it, which is how the user's own is stored
	const pending = (await adapter(call).listInvitationsByEmail(email)).filter(
		(invitation) => invitation.status === 'pending' && new Date(invitation.expires).getTime() > now && !joined.has(invitation.organizationId)
	);
	const names = new Map<string, string | null>();
	const out: ReceivedInvitation[] = [];
	for (const invitation of pending) {
		const organization = await adapter(call).getOrganization(invitation.organizationId);
		if (!organization) continue;
		out.push({ id: invitation.id, organizationName: organization.name, role: invitation.role, inviterName: await userName(call, invitation.inviterId, names), expires: iso(invitation.expires) });
	}
	return out;
}

async function userName(call: OrganizationCall, userId: string | null, cache: Map<string, string | null>): Promise<string | null> {
	if (!userId) return null;
	if (!cache.has(userId)) {
		const user = await adapter(call).getUser(userId);
		cache.set(userId, user ? (user.name ?? user.email ?? null) : null);
	}
	return cache.get(userId) ?? null;
}

/**
 * What the role may do in the organization, by the one permission check.
 *
 * @example
 * permissionsOf(options.roles, 'admin').deleteOrganization; // false
 */
export function permissionsOf(table: ResolvedOrganizationOptions['roles'], role: string): OrganizationPermissions {
	const may = (resource: string, action: string) => roleAllows(table, role, resource, action);
	return {
		updateOrganization: may('organization', 'update'),
		deleteOrganization: may('organization', 'delete'),
		invite: may('invitation', 'create'),
		cancelInvitation: may('invitation', 'cancel'),
		updateMembers: may('member', 'update'),
		removeMembers: may('member', 'delete'),
		manageTeams: may('team', 'create') || may('team', 'update') || may('team', 'delete')
	};
}

/**
 * One organization as its member sees it: members with what the actor may do to each, the roles
 * they may give, teams, and invitations when they may invite or cancel them.
 *
 * @example
 * const detail = await getOrganizationDetail({ ctx, actor: user }, 'org-1', { activeOrganizationId: null, csrfToken });
 */
export async function getOrganizationDetail(
	call: OrganizationCall,
	organizationId: unknown,
	view: { activeOrganizationId: string | null; csrfToken: string }
): Promise<OrganizationDetail> {
	const place = await standing(call, organizationId);
	const { roles, roleNames } = options(call);
	const { organization, role } = place;
	const permissions = permissionsOf(roles, role);
	const names = new Map<string, string | null>();
	const stored = await adapter(call).listMembers(organization.id);
	// the last owner can neither leave, be removed nor be demoted (OrganizationLastOwner): not offered
	const lastOwner = stored.filter((member) => member.role === 'owner').length === 1;
	const members: OrganizationMemberView[] = stored.map((member) => {
		const you = member.userId === call.actor?.id;
		const keeps = lastOwner && member.role === 'owner';
		names.set(member.userId, member.user.name ?? member.user.email ?? null);
		return {
			id: member.id,
			userId: member.userId,
			name: member.user.name ?? null,
			email: member.user.email ?? null,
			image: member.user.image ?? null,
			role: member.role,
			joinedAt: iso(member.createdAt),
			you,
			canChangeRole: !keeps && !you && (call.actor === null || mayActOnMember(roles, role, member.role, 'update')),
			canRemove: !keeps && (you || call.actor === null || mayActOnMember(roles, role, member.role, 'delete'))
		};
	});
	const invitations: OrganizationInvitationView[] = [];
	if (permissions.invite || permissions.cancelInvitation) {
		for (const invitation of await adapter(call).listInvitations(organization.id)) invitations.push(await invitationView(call, invitation, names));
	}
	const teams: OrganizationTeamView[] = [];
	for (const team of await adapter(call).listTeams(organization.id)) {
		teams.push({ id: team.id, name: team.name, memberUserIds: (await adapter(call).listTeamMembers(team.id)).map((place) => place.userId) });
	}
	return {
		organization: {
			id: organization.id,
			name: organization.name,
			slug: organization.slug,
			logo: shownLogo(organization.logo),
			metadata: parsedMetadata(organization.metadata),
			createdAt: iso(organization.createdAt)
		},
		role,
		active: view.activeOrganizationId === organization.id,
		permissions,
		grantableRoles: roleNames.filter((name) => call.actor === null || mayGrant(roles, role, name)),
		members,
		invitations,
		teams,
		csrfToken: view.csrfToken
	};
}

async function invitationView(call: OrganizationCall, invitation: AdapterInvitation, names: Map<string, string | null>): Promise<OrganizationInvitationView> {
	const expired = invitation.status === 'pending' && new Date(invitation.expires).getTime() <= call.ctx.config.now();
	return {
		id: invitation.id,
		email: invitation.email,
		role: invitation.role,
		inviterName: await userName(call, invitation.inviterId, names),
		teamId: invitation.teamId,
		status: expired ? 'expired' : invitation.status,
		expires: iso(invitation.expires),
		createdAt: iso(invitation.createdAt)
	};
}

/** What `createOrganization` takes; `ownerId` only from a script (a user always owns what they create). */
export interface OrganizationInput {
	name?: unknown;
	slug?: unknown;
	logo?: unknown;
	metadata?: unknown;
	ownerId?: unknown;
}

/**
 * Creates an organization with the actor as its owner. `allowCreate` and the per-user limit apply
 * to users (not scripts, which name the owner in `ownerId`); an empty slug is made from the name.
 * The organization is deleted again when its owner cannot be stored: never half written.
 *
 * @example
 * const organization = await createOrganization({ ctx, actor: user }, { name: 'Acme' });
 */
export async function createOrganization(call: OrganizationCall, input: OrganizationInput): Promise<AdapterOrganization> {
	let owner: AdapterUser;
	if (call.actor) {
		owner = call.actor;
		const verdict = await mayCreate(call, owner);
		if (!verdict.allowed) throw new OrganizationForbidden(verdict.reason);
	} else {
		const ownerId = idField(input.ownerId, 'ownerId');
		const found = await adapter(call).getUser(ownerId);
		if (!found) throw new InvalidRequest('`ownerId` names no user.');
		owner = found;
	}
	const name = organizationName(input.name);
	const given = input.slug === undefined || input.slug === null || input.slug === '' ? undefined : organizationSlug(input.slug);
	const logo = organizationLogo(input.logo);
	const metadata = organizationMetadata(input.metadata);
	const store = adapter(call);
	const now = new Date(call.ctx.config.now());
	let organization: AdapterOrganization | undefined;
	// a derived slug that is taken gets a random ending once; a slug the user chose is theirs or refused
	const candidates = given ? [given] : [slugFromName(name) ?? `org-${randomSuffix()}`];
	if (!given) candidates.push(`${candidates[0].slice(0, 39)}-${randomSuffix()}`);
	for (const slug of candidates) {
		try {
			organization = await store.createOrganization({ id: crypto.randomUUID(), name, slug, logo, metadata, createdAt: now });
			break;
		} catch (error) {
			if (!isUniqueViolation(error)) throw error;
		}
	}
	if (!organization) throw new OrganizationSlugTaken('Another organization has this slug: choose another.');
	try {
		await store.createMember({ id: crypto.randomUUID(), organizationId: organization.id, userId: owner.id, role: OWNER_ROLE, createdAt: now });
	} catch (error) {
		await store.deleteOrganization(organization.id);
		throw error;
	}
	await changed(call, 'create', organization.id, owner.id, { slug: organization.slug });
	return organization;
}

function randomSuffix(): string {
	return crypto.randomUUID().replace(/-/g, '').slice(0, 8);
}

/**
 * Changes the name, slug, logo or metadata (fields left out stay). Needs `organization:update`.
 *
 * @example
 * await updateOrganization({ ctx, actor: user }, 'org-1', { name: 'Acme Inc.' });
 */
export async function updateOrganization(call: OrganizationCall, organizationId: unknown, input: OrganizationInput): Promise<AdapterOrganization> {
	const place = await standing(call, organizationId);
	requirePermission(call, place, 'organization', 'update');
	const changes: { id: string; name?: string; slug?: string; logo?: string | null; metadata?: string | null } = { id: place.organization.id };
	if (input.name !== undefined) changes.name = organizationName(input.name);
	if (input.slug !== undefined && input.slug !== '') changes.slug = organizationSlug(input.slug);
	if (input.logo !== undefined) changes.logo = organizationLogo(input.logo);
	if (input.metadata !== undefined) changes.metadata = organizationMetadata(input.metadata);
	let updated: AdapterOrganization | null;
	try {
		updated = await adapter(call).updateOrganization(changes);
	} catch (error) {
		if (isUniqueViolation(error)) throw new OrganizationSlugTaken('Another organization has this slug: choose another.');
		throw error;
	}
	if (!updated) throw new OrganizationNotFound('No such organization.');
	await changed(call, 'update', updated.id, null, { fields: Object.keys(changes).filter((key) => key !== 'id') });
	return updated;
}

/**
 * Deletes the organization with its members, invitations and teams. Needs `organization:delete`
 * (owners only, unless a custom role is given it).
 *
 * @example
 * await deleteOrganization({ ctx, actor: user }, 'org-1');
 */
export async function deleteOrganization(call: OrganizationCall, organizationId: unknown): Promise<void> {
	const place = await standing(call, organizationId);
	requirePermission(call, place, 'organization', 'delete');
	await adapter(call).deleteOrganization(place.organization.id);
	await changed(call, 'delete', place.organization.id, null);
}

async function memberOf(call: OrganizationCall, place: Standing, memberId: unknown): Promise<AdapterMember> {
	const id = idField(memberId, 'memberId');
	const member = (await adapter(call).listMembers(place.organization.id)).find((candidate) => candidate.id === id);
	if (!member) throw new OrganizationMemberNotFound('No such member in this organization.');
	return member;
}

/**
 * Gives a member another role. Others: needs the right to act on their role (`member:update`, a
 * target ranked no higher) and to grant the new one (only owners make owners; nobody grants more
 * than their own role may do). Oneself: only down (never raising one's own role). The last owner
 * keeps the role (`OrganizationLastOwner`).
 *
 * @example
 * await setMemberRole({ ctx, actor: user }, 'org-1', 'member-2', 'admin');
 */
export async function setMemberRole(call: OrganizationCall, organizationId: unknown, memberId: unknown, role: unknown): Promise<AdapterMember> {
	for (let attempt = 0; attempt < STALE_ATTEMPTS; attempt++) {
		const place = await standing(call, organizationId);
		const { roles } = options(call);
		const target = await memberOf(call, place, memberId);
		if (typeof role !== 'string' || !isKnownRole(roles, role)) throw new InvalidRequest('`role` must be one of the configured roles.');
		if (call.actor) {
			const self = target.userId === call.actor.id;
			const allowed = self ? roleWithin(roles, role, place.role) : mayActOnMember(roles, place.role, target.role, 'update') && mayGrant(roles, place.role, role);
			if (!allowed) throw new OrganizationForbidden(self ? 'Nobody raises their own role.' : `Your role "${place.role}" may not give this member the role "${role}".`);
		}
		// the decision holds only for the role read above: another change of this member meanwhile means deciding again
		const result = await adapter(call).updateMemberRole(target.id, role, { keepOne: OWNER_ROLE, expectedRole: target.role });
		if (result === 'stale') continue;
		if (result === 'last') throw new OrganizationLastOwner('The last owner keeps the owner role: make another member owner first.');
		if (!result) throw new OrganizationMemberNotFound('No such member in this organization.');
		await changed(call, 'set-role', place.organization.id, target.userId, { from: target.role, to: role });
		return result;
	}
	throw staleMember();
}

/** How many times a change of a member is decided again when the member's role changed under it. */
const STALE_ATTEMPTS = 3;

function staleMember(): OrganizationForbidden {
	return new OrganizationForbidden('This member\'s role keeps changing while you change it: reload and try again.');
}

/**
 * Removes a member (`member:delete` on a role ranked no higher than the actor's); removing
 * oneself is leaving. The last owner stays (`OrganizationLastOwner`).
 *
 * @example
 * await removeMember({ ctx, actor: user }, 'org-1', 'member-2');
 */
export async function removeMember(call: OrganizationCall, organizationId: unknown, memberId: unknown): Promise<void> {
	for (let attempt = 0; attempt < STALE_ATTEMPTS; attempt++) {
		const place = await standing(call, organizationId);
		const target = await memberOf(call, place, memberId);
		const self = call.actor !== null && target.userId === call.actor.id;
		if (call.actor && !self && !mayActOnMember(options(call).roles, place.role, target.role, 'delete')) {
			throw new OrganizationForbidden(`Your role "${place.role}" may not remove this member.`);
		}
		if (await deleteMembership(call, place, target, self ? 'leave' : 'remove-member')) return;
	}
	throw staleMember();
}

/**
 * The actor leaves the organization (any member); the last owner cannot (`OrganizationLastOwner`).
 *
 * @example
 * await leaveOrganization({ ctx, actor: user }, 'org-1');
 */
export async function leaveOrganization(call: OrganizationCall, organizationId: unknown): Promise<void> {
	actorOf(call, 'Leaving an organization');
	for (let attempt = 0; attempt < STALE_ATTEMPTS; attempt++) {
		const place = await standing(call, organizationId);
		if (await deleteMembership(call, place, place.member!, 'leave')) return;
	}
	throw staleMember();
}

/** Deletes the membership if `target` still has the role read; false when it changed meanwhile (decide again). */
async function deleteMembership(call: OrganizationCall, place: Standing, target: AdapterMember, action: 'leave' | 'remove-member'): Promise<boolean> {
	const result = await adapter(call).deleteMember(target.id, { keepOne: OWNER_ROLE, expectedRole: target.role });
	if (result === 'stale') return false;
	if (result === 'last') throw new OrganizationLastOwner('The last owner stays: make another member owner first, or delete the organization.');
	if (!result) throw new OrganizationMemberNotFound('No such member in this organization.');
	await changed(call, action, place.organization.id, target.userId, { role: target.role });
	return true;
}

async function teamOf(call: OrganizationCall, place: Standing, teamId: unknown): Promise<AdapterTeam> {
	const id = idField(teamId, 'teamId');
	const team = (await adapter(call).listTeams(place.organization.id)).find((candidate) => candidate.id === id);
	if (!team) throw new InvalidRequest('No such team in this organization.');
	return team;
}

/**
 * Creates a team (`team:create`); a name another team of the organization has is refused.
 *
 * @example
 * const team = await createTeam({ ctx, actor: user }, 'org-1', 'Design');
 */
export async function createTeam(call: OrganizationCall, organizationId: unknown, name: unknown): Promise<AdapterTeam> {
	const place = await standing(call, organizationId);
	requirePermission(call, place, 'team', 'create');
	const teamName = organizationName(name);
	try {
		const team = await adapter(call).createTeam({ id: crypto.randomUUID(), organizationId: place.organization.id, name: teamName, createdAt: new Date(call.ctx.config.now()) });
		await changed(call, 'create-team', place.organization.id, null, { teamId: team.id });
		return team;
	} catch (error) {
		if (isUniqueViolation(error)) throw new InvalidRequest('Another team of this organization has this name.');
		throw error;
	}
}

/**
 * Deletes a team of the organization (`team:delete`).
 *
 * @example
 * await deleteTeam({ ctx, actor: user }, 'org-1', 'team-1');
 */
export async function deleteTeam(call: OrganizationCall, organizationId: unknown, teamId: unknown): Promise<void> {
	const place = await standing(call, organizationId);
	requirePermission(call, place, 'team', 'delete');
	const team = await teamOf(call, place, teamId);
	await adapter(call).deleteTeam(team.id);
	await changed(call, 'delete-team', place.organization.id, null, { teamId: team.id });
}

/**
 * Puts a member of the organization in one of its teams (`team:update`); someone who is not a
 * member gets `OrganizationMemberNotFound`. Already in it: nothing changes.
 *
 * @example
 * await addTeamMember({ ctx, actor: user }, 'org-1', 'team-1', 'user-2');
 */
export async function addTeamMember(call: OrganizationCall, organizationId: unknown, teamId: unknown, userId: unknown): Promise<void> {
	const place = await standing(call, organizationId);
	requirePermission(call, place, 'team', 'update');
	const team = await teamOf(call, place, teamId);
	const id = idField(userId, 'userId');
	if (!(await adapter(call).getMembership(place.organization.id, id))) throw new OrganizationMemberNotFound('Only members of the organization join its teams.');
	try {
		await adapter(call).addTeamMember({ teamId: team.id, userId: id, createdAt: new Date(call.ctx.config.now()) });
	} catch (error) {
		if (isUniqueViolation(error)) return;
		throw error;
	}
	await changed(call, 'add-team-member', place.organization.id, id, { teamId: team.id });
}

/**
 * Takes a user out of a team of the organization (`team:update`); `OrganizationMemberNotFound`
 * when they were not in it.
 *
 * @example
 * await removeTeamMember({ ctx, actor: user }, 'org-1', 'team-1', 'user-2');
 */
export async function removeTeamMember(call: OrganizationCall, organizationId: unknown, teamId: unknown, userId: unknown): Promise<void> {
	const place = await standing(call, organizationId);
	requirePermission(call, place, 'team', 'update');
	const team = await teamOf(call, place, teamId);
	const id = idField(userId, 'userId');
	if (!(await adapter(call).removeTeamMember(team.id, id))) throw new OrganizationMemberNotFound('This user is not in the team.');
	await changed(call, 'remove-team-member', place.organization.id, id, { teamId: team.id });
}

// `organizationApi(config, actor)`, exported from `kitgate`: the organization operations for server
// code (an app's own pages, scripts). The same functions the routes call: a `{ userId }` actor is
// checked as that member on every call; `{ system: true }` skips the permission checks, but the
// last owner still stays.

import { resolveConfig } from '../config/resolve-config.js';
import { createContext } from '../request/context.js';
import { InvalidConfiguration, InvalidRequest } from '../errors.js';
import type { AdapterMember, AdapterOrganization, AdapterTeam, AuthConfig } from '../types.js';
import * as operations from './organization-operations.js';
import type { OrganizationCall, OrganizationInput } from './organization-operations.js';
import type { OrganizationDetail, OrganizationList } from '../organization-types.js';
import { acceptInvitation, inviteMember, revokeInvitation, type InviteInput, type SentInvitation } from './invitations.js';

/**
 * Who calls `organizationApi`: a user by id (acting as that member, with the same checks as the
 * routes), or a trusted server script (`system: true`: no permission checks; creating names the
 * owner with `ownerId`).
 *
 * @example
 * const actor: OrganizationActor = { userId: session.user.id };
 */
export type OrganizationActor = { userId: string; system?: undefined } | { system: true; userId?: undefined };

/**
 * The organization operations of `organizationApi`. Failures throw the routes' errors
 * (`OrganizationNotFound`, `OrganizationForbidden`, `OrganizationLastOwner`, …).
 *
 * @example
 * const api: OrganizationApi = organizationApi(authConfig, { userId: session.user.id });
 * const { organizations } = await api.list();
 */
export interface OrganizationApi {
	/** The actor's organizations and pending invitations (a user actor only). */
	list(): Promise<OrganizationList>;
	/** One organization with its members, teams and (for those who may invite) invitations. */
	get(organizationId: string): Promise<OrganizationDetail>;
	/** Creates an organization owned by the actor (a script names the owner: `ownerId`). */
	create(input: { name: string; slug?: string; logo?: string | null; metadata?: string | null; ownerId?: string }): Promise<AdapterOrganization>;
	/** Changes the name, slug, logo or metadata (JSON text of an object). */
	update(organizationId: string, changes: { name?: string; slug?: string; logo?: string | null; metadata?: string | null }): Promise<AdapterOrganization>;
	/** Deletes the organization with its members, invitations and teams. */
	delete(organizationId: string): Promise<void>;
	/** Gives a member (by membership id) another role. */
	setRole(organizationId: string, memberId: string, role: string): Promise<AdapterMember>;
	/** Removes a member (by membership id). */
	removeMember(organizationId: string, memberId: string): Promise<void>;
	/** The actor leaves the organization (a user actor only). */
	leave(organizationId: string): Promise<void>;
	/** Creates a team. */
	createTeam(organizationId: string, name: string): Promise<AdapterTeam>;
	/** Deletes a team. */
	deleteTeam(organizationId: string, teamId: string): Promise<void>;
	/** Puts a member of the organization in a team. */
	addTeamMember(organizationId: string, teamId: string, userId: string): Promise<void>;
	/** Takes a user out of a team. */
	removeTeamMember(organizationId: string, teamId: string, userId: string): Promise<void>;
	/**
	 * Invites an address and mails it the link (built from the configured `url`/AUTH_URL, which the
	 * server API needs for this). Never returns the link's secret.
	 */
	invite(input: InviteInput): Promise<SentInvitation>;
	/** Revokes a pending invitation. */
	revokeInvitation(organizationId: string, invitationId: string): Promise<void>;
	/** Accepts an invitation by its token as the actor (a user actor whose address is the invited one). */
	acceptInvitation(token: string): Promise<{ organizationId: string; member: AdapterMember }>;
}

/**
 * The organization operations for server code, acting as `actor`. Needs `organizations` in the
 * config (docs/organizations.md, "Server API").
 *
 * @example
 * import { organizationApi } from 'kitgate';
 * // an app's own page, as the signed-in member
 * const detail = await organizationApi(authConfig, { userId: session.user.id }).get(organizationId);
 * // a script: create an organization for a user
 * await organizationApi(authConfig, { system: true }).create({ name: 'Acme', ownerId: 'user-1' });
 */
export function organizationApi(config: AuthConfig, actor: OrganizationActor): OrganizationApi {
	if (!actor || typeof actor !== 'object' || (actor.system !== true && (typeof actor.userId !== 'string' || actor.userId === ''))) {
		throw new InvalidConfiguration('organizationApi needs an actor: { userId } of a member, or { system: true } for a trusted script.');
	}
	const begin = async (): Promise<OrganizationCall> => {
		const resolved = resolveConfig(config);
		if (!resolved.organizations) throw new InvalidConfiguration('organizationApi needs `organizations` in the config (docs/organizations.md).');
		const ctx = createContext(new Request(resolved.authUrl ?? `http://localhost${resolved.basePath}`), resolved, { requestUrlIsPublic: true });
		if (actor.system === true) return { ctx, actor: null };
		const user = await resolved.adapter!.getUser(actor.userId);
		// an unknown user is a member of nothing
		if (!user) throw new InvalidRequest('organizationApi: no user has this id.');
		return { ctx, actor: user };
	};
	const view = { activeOrganizationId: null, csrfToken: '' };
	return {
		list: async () => operations.listOrganizations(await begin(), view),
		get: async (organizationId) => operations.getOrganizationDetail(await begin(), organizationId, view),
		create: async (input) => operations.createOrganization(await begin(), (input ?? {}) as OrganizationInput),
		update: async (organizationId, changes) => operations.updateOrganization(await begin(), organizationId, (changes ?? {}) as OrganizationInput),
		delete: async (organizationId) => operations.deleteOrganization(await begin(), organizationId),
		setRole: async (organizationId, memberId, role) => operations.setMemberRole(await begin(), organizationId, memberId, role),
		removeMember: async (organizationId, memberId) => operations.removeMember(await begin(), organizationId, memberId),
		leave: async (organizationId) => operations.leaveOrganization(await begin(), organizationId),
		createTeam: async (organizationId, name) => operations.createTeam(await begin(), organizationId, name),
		deleteTeam: async (organizationId, teamId) => operations.deleteTeam(await begin(), organizationId, teamId),
		addTeamMember: async (organizationId, teamId, userId) => operations.addTeamMember(await begin(), organizationId, teamId, userId),
		removeTeamMember: async (organizationId, teamId, userId) => operations.removeTeamMember(await begin(), organizationId, teamId, userId),
		invite: async (input) => {
			const call = await begin();
			// a mailed link must point at the app, never at a placeholder host
			if (!call.ctx.config.authUrl) throw new InvalidConfiguration('organizationApi(...).invite needs the app\'s public URL: set `url` in the config or AUTH_URL.');
			return inviteMember(call.ctx, call.actor ? { userId: call.actor.id, user: call.actor } : { system: true }, input);
		},
		revokeInvitation: async (organizationId, invitationId) => {
			const call = await begin();
			return revokeInvitation(call.ctx, call.actor ? { userId: call.actor.id, user: call.actor } : { system: true }, { organizationId, invitationId });
		},
		acceptInvitation: async (token) => {
			const call = await begin();
			if (!call.actor) throw new InvalidRequest('organizationApi: accepting an invitation needs a user actor ({ userId }).');
			return acceptInvitation(call.ctx, { userId: call.actor.id, user: call.actor }, { token });
		}
	};
}

// What the organization routes answer as JSON and the components and built-in pages render
// (docs/organizations.md): plain data, dates as ISO strings, no secrets.

/**
 * One organization the user belongs to, with their role in it.
 *
 * @example
 * const acme: OrganizationSummary = { id: 'org-1', name: 'Acme', slug: 'acme', logo: null, role: 'owner' };
 */
export interface OrganizationSummary {
	id: string;
	name: string;
	slug: string;
	logo: string | null;
	/** The user's role in it. */
	role: string;
}

/**
 * An invitation as the invited user sees it (their own pending invitations; never the token).
 *
 * @example
 * const waiting = list.invitations.map((invitation: ReceivedInvitation) => `${invitation.organizationName} (${invitation.role})`);
 */
export interface ReceivedInvitation {
	id: string;
	organizationName: string;
	role: string;
	inviterName: string | null;
	/** ISO time. */
	expires: string;
}

/**
 * `GET {basePath}/organizations`: the user's organizations, the active one, and what they may do.
 *
 * @example
 * const list = (await (await fetch('/auth/organizations')).json()) as OrganizationList;
 */
export interface OrganizationList {
	organizations: OrganizationSummary[];
	/** The session's active organization, null for none. */
	activeOrganizationId: string | null;
	/** Pending, unexpired invitations to the user's address (accepted through their links). */
	invitations: ReceivedInvitation[];
	/** True when the user may create an organization now (`organizations.allowCreate`, the per-user limit). */
	canCreate: boolean;
	csrfToken: string;
}

/**
 * A member as the organization's page lists them.
 *
 * @example
 * const removable = detail.members.filter((member: OrganizationMemberView) => member.canRemove && !member.you);
 */
export interface OrganizationMemberView {
	/** The membership's id (what the member routes take). */
	id: string;
	userId: string;
	name: string | null;
	email: string | null;
	image: string | null;
	role: string;
	/** ISO time they joined. */
	joinedAt: string;
	/** True for the signed-in user's own membership. */
	you: boolean;
	/** True when the signed-in user may change this member's role (to one of `grantableRoles`); never for the last owner. */
	canChangeRole: boolean;
	/** True when the signed-in user may remove this member (for themselves: leave); never for the last owner. */
	canRemove: boolean;
}

/**
 * An invitation as the organization's page lists it (never the token).
 *
 * @example
 * const pending = detail.invitations.filter((invitation: OrganizationInvitationView) => invitation.status === 'pending');
 */
export interface OrganizationInvitationView {
	id: string;
	email: string;
	role: string;
	inviterName: string | null;
	teamId: string | null;
	/** `expired`: pending past its expiry. */
	status: 'pending' | 'accepted' | 'revoked' | 'expired';
	/** ISO times. */
	expires: string;
	createdAt: string;
}

/**
 * A team and the user ids in it.
 *
 * @example
 * const sizes = detail.teams.map((team: OrganizationTeamView) => [team.name, team.memberUserIds.length]);
 */
export interface OrganizationTeamView {
	id: string;
	name: string;
	memberUserIds: string[];
}

/**
 * What the signed-in member may do in the organization (from their role, by the one permission check).
 *
 * @example
 * if (detail.permissions.invite) showInviteForm();
 */
export interface OrganizationPermissions {
	updateOrganization: boolean;
	deleteOrganization: boolean;
	invite: boolean;
	cancelInvitation: boolean;
	updateMembers: boolean;
	removeMembers: boolean;
	manageTeams: boolean;
}

/**
 * `GET {basePath}/organizations/settings?id=`: one organization as its member sees it.
 *
 * @example
 * const detail = (await (await fetch(`/auth/organizations/settings?id=${id}`)).json()) as OrganizationDetail;
 */
export interface OrganizationDetail {
	organization: {
		id: string;
		name: string;
		slug: string;
		logo: string | null;
		/** The parsed metadata, null for none. */
		metadata: Record<string, unknown> | null;
		/** ISO time. */
		createdAt: string;
	};
	/** The signed-in user's role. */
	role: string;
	/** True when it is the session's active organization. */
	active: boolean;
	permissions: OrganizationPermissions;
	/** Roles the signed-in user may give (invitations, role changes), in the config's order. */
	grantableRoles: string[];
	members: OrganizationMemberView[];
	/** Every invitation when the user may invite or cancel, else none. */
	invitations: OrganizationInvitationView[];
	teams: OrganizationTeamView[];
	csrfToken: string;
}

/**
 * `GET {basePath}/organizations/invitation?token=`: an invitation as its link shows it, before it is
 * accepted. `signedInEmail` is the signed-in user's address (null: signed out), so the page can say
 * "sign in as <email>" or "join".
 *
 * @example
 * const invitation = (await (await fetch(`/auth/organizations/invitation?token=${token}`)).json()) as InvitationDetail;
 */
export interface InvitationDetail {
	organization: { name: string; slug: string; logo: string | null };
	email: string;
	role: string;
	inviterName: string | null;
	expires: string;
	signedInEmail: string | null;
	/** True when the signed-in user's address is the invited one and verified (then the Join form posts). */
	matchesSignedInUser: boolean;
	csrfToken: string;
}

/**
 * The outcome a change reports back to the page (`?organization=<result>`).
 *
 * @example
 * const result = page.url.searchParams.get('organization') as OrganizationResult | null;
 */
export type OrganizationResult =
	| 'created'
	| 'updated'
	| 'deleted'
	| 'switched'
	| 'invited'
	| 'invitation-revoked'
	| 'joined'
	| 'role-changed'
	| 'member-removed'
	| 'left'
	| 'team-created'
	| 'team-deleted'
	| 'team-member-added'
	| 'team-member-removed';

/**
 * The change routes, `POST {basePath}/organizations/<operation>`.
 *
 * @example
 * const operation: OrganizationOperation = 'set-role';
 */
export type OrganizationOperation =
	| 'create'
	| 'set-active'
	| 'update'
	| 'delete'
	| 'invite'
	| 'revoke-invitation'
	| 'accept-invitation'
	| 'set-role'
	| 'remove-member'
	| 'leave'
	| 'create-team'
	| 'delete-team'
	| 'add-team-member'
	| 'remove-team-member';

// Organization views (`GET /auth/organizations`, `/auth/organizations/settings?id=…`,
// `/auth/organizations/invitation?token=…`) in the states the organization components show: an
// owner's, an admin's and a member's view of one organization, a user with several organizations and
// none, and an invitation signed out, signed in as the invited address and as another one.
// Shared by the component tests, the page tests and the stories. Plain objects of the view types.

import type {
	InvitationDetail,
	OrganizationDetail,
	OrganizationInvitationView,
	OrganizationList,
	OrganizationMemberView,
	OrganizationPermissions
} from '../../server/core/organization-types.js';

const AT = (daysBefore: number) => new Date(Date.UTC(2026, 5, 1, 12) - daysBefore * 86_400_000).toISOString();
export const CSRF = 'csrf-token-1';
export const INVITATION_TOKEN = 'inv-1.c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA';

/** Two organizations (the first active) and a pending invitation. */
export const organizationList: OrganizationList = {
	organizations: [
		{ id: 'org-1', name: 'Acme Labs', slug: 'acme-labs', logo: null, role: 'owner' },
		{ id: 'org-2', name: 'Analytical Engines Society of London and Surroundings', slug: 'analytical-engines', logo: null, role: 'member' }
	],
	activeOrganizationId: 'org-1',
	invitations: [{ id: 'inv-9', organizationName: 'Difference Works', role: 'admin', inviterName: 'Charles Babbage', expires: AT(-6) }],
	canCreate: true,
	csrfToken: CSRF
};

/** A new user: no organization, no invitation. */
export const emptyOrganizationList: OrganizationList = { organizations: [], activeOrganizationId: null, invitations: [], canCreate: true, csrfToken: CSRF };

const member = (id: string, userId: string, name: string | null, email: string | null, role: string, more: Partial<OrganizationMemberView> = {}): OrganizationMemberView => ({
	id,
	userId,
	name,
	email,
	image: null,
	role,
	joinedAt: AT(30),
	you: false,
	canChangeRole: false,
	canRemove: false,
	...more
});

const invitation = (id: string, email: string, status: OrganizationInvitationView['status'], more: Partial<OrganizationInvitationView> = {}): OrganizationInvitationView => ({
	id,
	email,
	role: 'member',
	inviterName: 'Ada Lovelace',
	teamId: null,
	status,
	expires: status === 'expired' ? AT(2) : AT(-5),
	createdAt: AT(2),
	...more
});

const everything: OrganizationPermissions = {
	updateOrganization: true,
	deleteOrganization: true,
	invite: true,
	cancelInvitation: true,
	updateMembers: true,
	removeMembers: true,
	manageTeams: true
};
const nothing: OrganizationPermissions = {
	updateOrganization: false,
	deleteOrganization: false,
	invite: false,
	cancelInvitation: false,
	updateMembers: false,
	removeMembers: false,
	manageTeams: false
};

const invitations = [
	invitation('inv-1', 'grace@example.com', 'pending', { role: 'admin' }),
	invitation('inv-2', 'late@example.com', 'expired'),
	invitation('inv-3', 'withdrawn@example.com', 'revoked', { inviterName: null })
];

/** The owner's view: every permission, every member changeable, teams, invitations in each state. */
export const ownerDetail: OrganizationDetail = {
	organization: { id: 'org-1', name: 'Acme Labs', slug: 'acme-labs', logo: null, metadata: null, createdAt: AT(60) },
	role: 'owner',
	active: true,
	permissions: everything,
	grantableRoles: ['owner', 'admin', 'member'],
	members: [
		member('mem-1', 'user-1', 'Ada Lovelace', 'ada@example.com', 'owner', { you: true, canRemove: true }),
		member('mem-2', 'user-2', 'Charles Babbage', 'charles@example.com', 'admin', { canChangeRole: true, canRemove: true }),
		member('mem-3', 'user-3', null, 'nameless-member-with-a-long-address@example.com', 'member', { canChangeRole: true, canRemove: true })
	],
	invitations,
	teams: [
		{ id: 'team-1', name: 'Engines', memberUserIds: ['user-1', 'user-2'] },
		{ id: 'team-2', name: 'Empty team', memberUserIds: [] }
	],
	csrfToken: CSRF
};

/** An admin's view: may invite, cancel and change members, not delete, nor make owners or touch the owner. */
export const adminDetail: OrganizationDetail = {
	...ownerDetail,
	role: 'admin',
	active: false,
	permissions: { ...everything, deleteOrganization: false },
	grantableRoles: ['admin', 'member'],
	members: [
		member('mem-1', 'user-1', 'Ada Lovelace', 'ada@example.com', 'owner'),
		member('mem-2', 'user-2', 'Charles Babbage', 'charles@example.com', 'admin', { you: true, canRemove: true }),
		member('mem-3', 'user-3', null, 'nameless-member-with-a-long-address@example.com', 'member', { canChangeRole: true, canRemove: true })
	]
};

/** A member's view: nothing but leaving; no invitations listed. */
export const memberDetail: OrganizationDetail = {
	...ownerDetail,
	role: 'member',
	active: false,
	permissions: nothing,
	grantableRoles: [],
	members: [
		member('mem-1', 'user-1', 'Ada Lovelace', 'ada@example.com', 'owner'),
		member('mem-2', 'user-2', 'Charles Babbage', 'charles@example.com', 'admin'),
		member('mem-3', 'user-3', null, 'nameless-member-with-a-long-address@example.com', 'member', { you: true, canRemove: true })
	],
	invitations: [],
	teams: [{ id: 'team-1', name: 'Engines', memberUserIds: ['user-1', 'user-2'] }]
};

/** The invitation as its link shows it to a signed-out visitor. */
export const invitationSignedOut: InvitationDetail = {
	organization: { name: 'Acme Labs', slug: 'acme-labs', logo: null },
	email: 'grace@example.com',
	role: 'admin',
	inviterName: 'Ada Lovelace',
	expires: AT(-5),
	signedInEmail: null,
	matchesSignedInUser: false,
	csrfToken: CSRF
};

/** Signed in as the invited address: the Join form. */
export const invitationForYou: InvitationDetail = { ...invitationSignedOut, signedInEmail: 'grace@example.com', matchesSignedInUser: true };

/** Signed in as another address: cannot be accepted. */
export const invitationForSomeoneElse: InvitationDetail = { ...invitationSignedOut, signedInEmail: 'mallory@example.com', matchesSignedInUser: false };

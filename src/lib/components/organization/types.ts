// Props of the organization components. Export path: `kitgate/components` (`OrganizationSwitcherProps`,
// `CreateOrganizationProps`, `OrganizationMembersProps`, `OrganizationSettingsProps`, `OrganizationInvitationProps`).

import type { InvitationDetail, OrganizationDetail, OrganizationList } from '../../server/core/organization-types.js';
import type { Messages } from '../types.js';

/**
 * What every organization component takes besides its view.
 *
 * @example
 * const shared: OrganizationComponentProps = { basePath: '/auth', result: url.searchParams.get('organization'), error: url.searchParams.get('organizationError') };
 */
export interface OrganizationComponentProps {
	/** Where kitgate's routes are (default `/auth`). */
	basePath?: string;
	/** The `?organization=` of the page: the result of the last change, shown as a notice. */
	result?: string | null;
	/** The `?organizationError=` of the page: why the last change was refused, shown as an alert. */
	error?: string | null;
	/** Texts keyed by message id (`organization.*`), over English or what `setMessages` set. */
	messages?: Messages;
	/** The IANA time zone dates are written in (default `UTC`, the same on the server and in the browser). */
	timeZone?: string;
	/** Classes added to the component's root element. */
	class?: string;
}

/**
 * The props of `OrganizationSwitcher`.
 *
 * @example
 * const props: OrganizationSwitcherProps = { list: data.list, callbackUrl: '/dashboard', settingsPath: '/org/settings', createUrl: '/org/new' };
 */
export interface OrganizationSwitcherProps extends OrganizationComponentProps {
	/** The user's organizations, as `GET {basePath}/organizations` answers (loaded on the server). */
	list: OrganizationList;
	/** Where switching comes back to (default `{basePath}/organizations`). */
	callbackUrl?: string;
	/** The settings page each organization links to as `{settingsPath}?id=<id>` (default `{basePath}/organizations/settings`). */
	settingsPath?: string;
	/** Where "Create an organization" leads (default: `#create`, the `CreateOrganization` of the built-in page); empty hides it. */
	createUrl?: string;
}

/**
 * The props of `CreateOrganization`.
 *
 * @example
 * const props: CreateOrganizationProps = { csrfToken: data.list.csrfToken, callbackUrl: '/org/settings' };
 */
export interface CreateOrganizationProps extends OrganizationComponentProps {
	/** The CSRF token (`list.csrfToken`, or the session's). */
	csrfToken: string;
	/** Where creating comes back to (default: the engine's, the new organization's settings page). */
	callbackUrl?: string;
}

/**
 * The props of `OrganizationMembers`.
 *
 * @example
 * const props: OrganizationMembersProps = { detail: data.detail, callbackUrl: `/org/settings?id=${data.detail.organization.id}` };
 */
export interface OrganizationMembersProps extends OrganizationComponentProps {
	/** One organization, as `GET {basePath}/organizations/settings?id=<id>` answers a member (loaded on the server). */
	detail: OrganizationDetail;
	/** This page: every change comes back here with `?organization=<result>` or `?organizationError=<code>`. */
	callbackUrl: string;
	/** Where leaving goes (default `{basePath}/organizations`). */
	listUrl?: string;
}

/**
 * The props of `OrganizationSettings`.
 *
 * @example
 * const props: OrganizationSettingsProps = { detail: data.detail, callbackUrl: `/org/settings?id=${data.detail.organization.id}`, listUrl: '/org' };
 */
export interface OrganizationSettingsProps extends OrganizationMembersProps {
	/** The list of organizations: the link back, and where leaving or deleting goes (default `{basePath}/organizations`). */
	listUrl?: string;
}

/**
 * The props of `OrganizationInvitation`.
 *
 * @example
 * const props: OrganizationInvitationProps = { invitation: data.invitation, token: data.token, signInUrl: '/signin?callbackUrl=…', signOutUrl: '/signout' };
 */
export interface OrganizationInvitationProps extends OrganizationComponentProps {
	/** The invitation, as `GET {basePath}/organizations/invitation?token=` answers. */
	invitation: InvitationDetail;
	/** The invitation's token (from the link), posted back by the Join form; never shown or logged. */
	token: string;
	/** The sign-in page for a signed-out visitor, with a `callbackUrl` back to this page. */
	signInUrl: string;
	/** The sign-out page, for a visitor signed in with another address (default `{basePath}/signout`). */
	signOutUrl?: string;
	/** Where joining goes (default: the engine's, the organization's settings page). */
	callbackUrl?: string;
}

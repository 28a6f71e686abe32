// What the organization components show, as pure functions of the organization views and the message
// table: the texts, the form targets, the role names, the notice of a change, the links between
// pages. Framework-free: the built-in organization pages render the same components.

import { enOrganization } from '../../messages/en-organization.js';
import { format } from '../../messages/format.js';
import { accountTexts, changeNotice } from '../account/account-view.js';
import type { OrganizationMemberView } from '../../server/core/organization-types.js';

/** The texts the organization components ship: theirs, and the account components' (dates). */
export const organizationTexts: Readonly<Record<string, string>> = { ...accountTexts, ...enOrganization };

/**
 * The table a component reads: English, then what a layout set with `setMessages`, then its own `messages` prop.
 *
 * @example const t = organizationTable(inheritedMessages(), messages);
 */
export function organizationTable(
	inherited: Readonly<Record<string, string>> | undefined,
	messages: Readonly<Record<string, string>> | undefined
): Readonly<Record<string, string>> {
	return { ...organizationTexts, ...inherited, ...messages };
}

/** Where kitgate's routes are when no `basePath` is given. */
export const DEFAULT_BASE_PATH = '/auth';

/**
 * `basePath` without its trailing slashes (`/auth` when none is given).
 *
 * @example routesOf('/auth/') // '/auth'
 */
export function routesOf(basePath: string | undefined): string {
	return (basePath ?? DEFAULT_BASE_PATH).replace(/\/+$/, '');
}

/**
 * Where a change posts: `{basePath}/organizations/<operation>`.
 *
 * @example organizationAction('/auth', 'set-active') // '/auth/organizations/set-active'
 */
export function organizationAction(basePath: string, operation: string): string {
	return `${routesOf(basePath)}/organizations/${operation}`;
}

/**
 * An organization's settings page: `{settingsPath}?id=<id>`.
 *
 * @example settingsHref('/auth/organizations/settings', 'org 1') // '/auth/organizations/settings?id=org+1'
 */
export function settingsHref(settingsPath: string, id: string): string {
	return `${settingsPath}?${new URLSearchParams({ id })}`;
}

/**
 * A role in words: the built-in roles translated (`organization.role.<name>`), a custom role as named in the config.
 *
 * @example roleLabel('owner', t) // 'Owner'
 */
export function roleLabel(role: string, table: Readonly<Record<string, string>>): string {
	const id = `organization.role.${role}`;
	return Object.hasOwn(table, id) ? table[id] : role;
}

/**
 * How a member is named: their name, else their email address, else "No name".
 *
 * @example memberLabel({ name: null, email: 'ada@example.com' }, t) // 'ada@example.com'
 */
export function memberLabel(member: Pick<OrganizationMemberView, 'name' | 'email'>, table: Readonly<Record<string, string>>): string {
	return member.name || member.email || table['organization.members.noName'];
}

/** A notice to show: the text, and whether it reports a refusal (an alert) or a result (a status). */
export interface OrganizationNoticeText {
	text: string;
	alert: boolean;
}

/**
 * The notice of the last change, from the `?organization=` and `?organizationError=` of the page:
 * an error code gets its text (`organization.error.<code>`, else the generic one); a result its text, an unknown result none.
 *
 * @example organizationNotice('created', null, t) // { text: 'The organization was created.', alert: false }
 */
export function organizationNotice(
	result: string | null | undefined,
	error: string | null | undefined,
	table: Readonly<Record<string, string>>
): OrganizationNoticeText | null {
	return changeNotice('organization', result, error, table);
}

/**
 * The line under an invitation: "Member, invited by Ada" (or the role alone when nobody is named).
 *
 * @example invitationLine({ role: 'admin', inviterName: 'Ada' }, t) // 'Admin, invited by Ada'
 */
export function invitationLine(invitation: { role: string; inviterName: string | null }, table: Readonly<Record<string, string>>): string {
	const role = roleLabel(invitation.role, table);
	return invitation.inviterName
		? format(table['organization.invitations.item'], { role, inviter: invitation.inviterName })
		: format(table['organization.invitations.itemNoInviter'], { role });
}

/** The pattern a slug must match (the routes check the same), for the `pattern` attribute of its field. */
export const SLUG_PATTERN = '[a-z0-9](?:[a-z0-9\\-]{0,46}[a-z0-9])?';

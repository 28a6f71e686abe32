// The `organizations` option resolved (docs/organizations.md): the role table, who may create,
// how long invitations last. Contract of issue 33: the engine branch adds the start-up checks.

import type { AdapterUser, Awaitable, OrganizationOptions } from '../types.js';
import { roleTable, type RoleTable } from './roles.js';

/** Default seconds an invitation can be accepted: 7 days. */
export const DEFAULT_INVITATION_MAX_AGE = 7 * 24 * 60 * 60;
/** Default number of organizations one user may create. */
export const DEFAULT_MAX_ORGANIZATIONS_PER_USER = 20;

/** `organizations` with defaults filled in. */
export interface ResolvedOrganizationOptions {
	/** Every role and what it may do (built-in statements merged with the configured ones). */
	roles: RoleTable;
	/** The role names in the config's order: `owner`, `admin`, `member`, then custom roles. */
	roleNames: readonly string[];
	allowCreate: boolean | ((params: { user: AdapterUser }) => Awaitable<boolean>);
	invitationMaxAge: number;
	maxOrganizationsPerUser: number;
	/** The id of the email provider that sends invitations, when the config names one. */
	emailProvider?: string;
}

/**
 * Fills in the defaults of `organizations`; undefined when the option is not set (the routes are off).
 *
 * @example
 * const resolved = resolveOrganizationOptions({ roles: { member: { project: ['create'] } } });
 */
export function resolveOrganizationOptions(options: OrganizationOptions | undefined): ResolvedOrganizationOptions | undefined {
	if (options === undefined) return undefined;
	const roles = roleTable(options);
	return {
		roles,
		roleNames: [...roles.keys()],
		allowCreate: options.allowCreate ?? true,
		invitationMaxAge: options.invitationMaxAge ?? DEFAULT_INVITATION_MAX_AGE,
		maxOrganizationsPerUser: options.maxOrganizationsPerUser ?? DEFAULT_MAX_ORGANIZATIONS_PER_USER,
		emailProvider: options.emailProvider
	};
}

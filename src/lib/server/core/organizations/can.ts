// `can(session, resource, action, config)`, exported from `kitgate`: what the signed-in user may
// do in their active organization, for an app's loads, actions and routes. The same decision as
// the organization routes (roles.ts).

import type { AuthConfig, OrganizationOptions, Session } from '../types.js';
import { roleAllows, roleTable, type RoleTable } from './roles.js';

/** One role table per `organizations` object: `can` runs on every request that asks. */
const tables = new WeakMap<OrganizationOptions, RoleTable>();

function tableOf(options: OrganizationOptions): RoleTable {
	let table = tables.get(options);
	if (!table) {
		table = roleTable(options);
		tables.set(options, table);
	}
	return table;
}

/**
 * True when the session has an active organization (`session.organization`, checked against the
 * membership on every session read) and the user's role there may do `action` on `resource`.
 * False without a session, without an active organization, or without `organizations` in the
 * config. The owner may do everything.
 *
 * @example
 * import { can } from 'kitgate';
 * const session = await event.locals.auth();
 * if (!can(session, 'project', 'delete', authConfig)) error(403, 'Not allowed');
 */
export function can(session: Pick<Session, 'organization'> | null | undefined, resource: string, action: string, config: Pick<AuthConfig, 'organizations'>): boolean {
	const organization = session?.organization;
	if (!organization || typeof organization.role !== 'string' || !config.organizations) return false;
	return roleAllows(tableOf(config.organizations), organization.role, resource, action);
}

// Roles and permissions of organizations (docs/organizations.md, "Roles and permissions"): the one
// place that decides what a role may do, whom it may grant which role, and whom it may act on.
// Pure: the routes, the server API and the app-facing `can` all ask these functions.
import type { OrganizationOptions, RoleStatements } from '../types.js';

/** The role every organization keeps at least one of, which may do everything. */
export const OWNER_ROLE = 'owner';

/** What the built-in roles may do on kitgate's own resources (`owner` may do everything). */
export const BUILT_IN_STATEMENTS: Readonly<Record<'owner' | 'admin' | 'member', RoleStatements>> = {
	owner: {
		organization: ['update', 'delete'],
		member: ['update', 'delete'],
		invitation: ['create', 'cancel'],
		team: ['create', 'update', 'delete']
	},
	admin: {
		organization: ['update'],
		member: ['update', 'delete'],
		invitation: ['create', 'cancel'],
		team: ['create', 'update', 'delete']
	},
	member: {}
};

/** Every role of the config: the built-in ones (with the config's additions) and the custom ones. */
export type RoleTable = ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;

/**
 * The role table of `options`: built-in statements merged with the configured ones.
 *
 * @example
 * const table = roleTable({ roles: { member: { project: ['create'] } } });
 */
export function roleTable(options: OrganizationOptions | undefined): RoleTable {
	const table = new Map<string, Map<string, Set<string>>>();
	const add = (role: string, statements: RoleStatements) => {
		const resources = table.get(role) ?? new Map<string, Set<string>>();
		for (const [resource, actions] of Object.entries(statements)) {
			const known = resources.get(resource) ?? new Set<string>();
			for (const action of actions) known.add(action);
			resources.set(resource, known);
		}
		table.set(role, resources);
	};
	for (const [role, statements] of Object.entries(BUILT_IN_STATEMENTS)) add(role, statements);
	for (const [role, statements] of Object.entries(options?.roles ?? {})) add(role, statements);
	return table;
}

/** True when `role` is a role of the table. */
export function isKnownRole(table: RoleTable, role: string): boolean {
	return table.has(role);
}

/**
 * True when `role` may do `action` on `resource`: the owner may do everything; an unknown role
 * nothing.
 *
 * @example
 * roleAllows(roleTable(undefined), 'admin', 'member', 'delete'); // true
 */
export function roleAllows(table: RoleTable, role: string, resource: string, action: string): boolean {
	if (role === OWNER_ROLE) return true;
	return table.get(role)?.get(resource)?.has(action) === true;
}

/** True when everything `lower` may do, `upper` may do too (every role is within the owner). */
export function roleWithin(table: RoleTable, lower: string, upper: string): boolean {
	if (upper === OWNER_ROLE) return true;
	if (lower === OWNER_ROLE) return false;
	const upperStatements = table.get(upper);
	for (const [resource, actions] of table.get(lower) ?? []) {
		for (const action of actions) if (!upperStatements?.get(resource)?.has(action)) return false;
	}
	return true;
}

/**
 * True when a member with role `actor` may give role `role`: only an owner makes owners, and
 * nobody grants a role that may do something their own may not.
 *
 * @example
 * mayGrant(table, 'admin', 'owner'); // false
 */
export function mayGrant(table: RoleTable, actor: string, role: string): boolean {
	if (!isKnownRole(table, role)) return false;
	if (role === OWNER_ROLE) return actor === OWNER_ROLE;
	return roleWithin(table, role, actor);
}

/**
 * True when a member with role `actor` may change or remove a member whose role is `target`: the
 * permission to do so, and a target ranked no higher than the actor.
 *
 * @example
 * mayActOnMember(table, 'admin', 'owner', 'delete'); // false
 */
export function mayActOnMember(table: RoleTable, actor: string, target: string, action: 'update' | 'delete'): boolean {
	return roleAllows(table, actor, 'member', action) && roleWithin(table, target, actor);
}

// The `admin` option resolved (the admin routes and `adminApi`: docs/admin.md): who is an admin,
// the page size, how long an impersonation lasts, and the adapter methods they need, checked at
// start-up with messages that say what to change.

import { hasAdapterMethod, type AdapterMethod } from '../store/adapter-guard.js';
import { InvalidConfiguration, MissingAdapter, MissingAdapterMethod } from '../errors.js';
import { describeUnknownKeys, exactKeys, unknownKeys } from './option-keys.js';
import type { Adapter, AdminOptions } from '../types.js';

/** Default users per page of the admin list. */
export const DEFAULT_ADMIN_PAGE_SIZE = 20;
/** Largest page of the admin list. */
export const MAX_ADMIN_PAGE_SIZE = 100;
/** Default seconds an impersonation lasts at most. */
export const DEFAULT_IMPERSONATION_MAX_AGE = 3600;
/** Default roles that make an admin under `admins: "role"`. */
export const DEFAULT_ADMIN_ROLES: readonly string[] = ['admin'];

/** `admin` with defaults filled in; the decision itself stays the app's (`admins` is read on every check). */
export interface ResolvedAdminOptions {
	admins: NonNullable<AdminOptions['admins']>;
	adminRoles: readonly string[];
	impersonationMaxAge: number;
	pageSize: number;
}

/** Every key `admin` may have (a misspelt one is refused, naming the key it most likely meant). */
const ADMIN_OPTION_KEYS = exactKeys<AdminOptions>()(['admins', 'adminRoles', 'impersonationMaxAge', 'pageSize']);

/** What every admin route and `adminApi` call may use: users, their admin records, the audit trail. */
const ADMIN_METHODS: AdapterMethod[] = [
	'getUser',
	'getUserByEmail',
	'createUser',
	'deleteUser',
	'listAccountsByUserId',
	'listUsers',
	'getUserAdmin',
	'setUserAdmin',
	'createAuditEntry',
	'listAuditEntries'
];

/** Database sessions: listing, ending one, ending all (a ban). */
const DATABASE_SESSION_METHODS: AdapterMethod[] = ['listSessionsByUserId', 'deleteSessionOfUser', 'deleteSessionsByUserId'];

/**
 * The adapter methods the admin routes need with `strategy` sessions. The second factor's and the
 * passkeys' are checked when those operations run (an adapter without them has nothing to reset).
 * Pure.
 *
 * @example
 * adminMethods('jwt').includes('listUsers') // true
 */
export function adminMethods(strategy: 'jwt' | 'database'): AdapterMethod[] {
	return strategy === 'database' ? [...ADMIN_METHODS, ...DATABASE_SESSION_METHODS] : [...ADMIN_METHODS];
}

/**
 * Resolves `config.admin`: undefined when it is not set (no admin routes). Throws at start-up for a
 * bad `admins`, `adminRoles`, `pageSize` (a whole number from 1 to 100), `impersonationMaxAge`
 * (seconds above 0), and for a missing adapter or adapter method, naming it.
 *
 * @example
 * resolveAdminOptions({ admins: ['user-1'] }, { adapter, strategy: 'jwt' })?.pageSize // 20
 */
export function resolveAdminOptions(
	option: AdminOptions | undefined,
	facts: { adapter?: Adapter; strategy: 'jwt' | 'database' }
): ResolvedAdminOptions | undefined {
	if (option === undefined) return undefined;
	if (option === null || typeof option !== 'object' || Array.isArray(option)) {
		throw new InvalidConfiguration('admin must be an object such as { admins: "role" } or { admins: ["user-1"] } (docs/admin.md).');
	}
	const unknown = unknownKeys(option, ADMIN_OPTION_KEYS);
	if (unknown.length > 0) throw new InvalidConfiguration(`admin: ${describeUnknownKeys(unknown)}.`);
	const admins = checkAdmins(option.admins ?? 'role');
	const adminRoles = checkAdminRoles(option.adminRoles ?? DEFAULT_ADMIN_ROLES);
	const pageSize = option.pageSize ?? DEFAULT_ADMIN_PAGE_SIZE;
	if (typeof pageSize !== 'number' || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_ADMIN_PAGE_SIZE) {
		throw new InvalidConfiguration(`admin.pageSize must be a whole number from 1 to ${MAX_ADMIN_PAGE_SIZE}; got ${JSON.stringify(pageSize)}.`);
	}
	const maxAge = option.impersonationMaxAge ?? DEFAULT_IMPERSONATION_MAX_AGE;
	if (typeof maxAge !== 'number' || !Number.isFinite(maxAge) || maxAge <= 0) {
		throw new InvalidConfiguration(`admin.impersonationMaxAge must be a number of seconds above 0; got ${JSON.stringify(maxAge)}.`);
	}
	checkAdapter(facts.adapter, facts.strategy);
	return { admins, adminRoles, impersonationMaxAge: maxAge, pageSize };
}

function checkAdmins(admins: unknown): ResolvedAdminOptions['admins'] {
	if (admins === 'role' || typeof admins === 'function') return admins as ResolvedAdminOptions['admins'];
	if (Array.isArray(admins)) {
		// an empty list is allowed: no admin in the browser, bans still enforced, scripts use adminApi({ system: true })
		const bad = admins.find((id) => typeof id !== 'string' || id.length === 0);
		if (bad !== undefined) {
			throw new InvalidConfiguration(`admin.admins as a list must hold the ids of the admin users (non-empty strings); got ${JSON.stringify(bad)}.`);
		}
		// the app's own array, not a copy: a list the app changes at run time is read as it is on every check
		return admins as string[];
	}
	throw new InvalidConfiguration(
		`admin.admins must be "role" (a stored role in admin.adminRoles), a list of user ids, or a function ({ user, role }) => boolean; got ${JSON.stringify(admins)}.`
	);
}

function checkAdminRoles(roles: unknown): readonly string[] {
	if (!Array.isArray(roles) || roles.length === 0 || roles.some((role) => typeof role !== 'string' || role.length === 0)) {
		throw new InvalidConfiguration(`admin.adminRoles must be a non-empty list of role names such as ["admin"]; got ${JSON.stringify(roles)}.`);
	}
	return [...(roles as string[])];
}

function checkAdapter(adapter: Adapter | undefined, strategy: 'jwt' | 'database'): void {
	if (!adapter) {
		throw new MissingAdapter('`admin` (the admin routes) reads and changes stored users and needs an adapter: pass `adapter`, or leave `admin` out.');
	}
	const lacking = adminMethods(strategy).find((method) => !hasAdapterMethod(adapter, method));
	if (lacking) {
		throw new MissingAdapterMethod(
			`The adapter has no \`${lacking}\` method, which the admin routes need. Use an adapter that stores admin records and the audit trail (docs/adapters.md), or leave \`admin\` out.`
		);
	}
}

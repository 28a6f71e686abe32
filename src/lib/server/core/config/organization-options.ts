// The `organizations` option resolved (docs/organizations.md): the role table, who may create,
// how long invitations last, which email provider sends them, and the adapter methods the routes
// need, checked at start-up with messages that say what to change.

import { hasAdapterMethod, ORGANIZATION_ADAPTER_METHODS, type AdapterMethod } from '../store/adapter-guard.js';
import { InvalidConfiguration, MissingAdapter, MissingAdapterMethod } from '../errors.js';
import { describeUnknownKeys, exactKeys, unknownKeys } from './option-keys.js';
import type { Adapter, AdapterUser, Awaitable, OrganizationOptions } from '../types.js';
import { roleTable, type RoleTable } from '../organizations/roles.js';

/** Default seconds an invitation can be accepted: 7 days. */
export const DEFAULT_INVITATION_MAX_AGE = 7 * 24 * 60 * 60;
/** Shortest invitation lifetime: one minute. */
export const MIN_INVITATION_MAX_AGE = 60;
/** Longest invitation lifetime: 30 days. */
export const MAX_INVITATION_MAX_AGE = 30 * 24 * 60 * 60;
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

/** Every key `organizations` may have (a misspelt one is refused, naming the key it most likely meant). */
const ORGANIZATION_OPTION_KEYS = exactKeys<OrganizationOptions>()(['roles', 'allowCreate', 'invitationMaxAge', 'maxOrganizationsPerUser', 'emailProvider']);

/** Role, resource and action names: they travel in forms, URLs and JSON, so plain words only. */
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** What the organization routes, `organizationApi` and the session's active organization use. */
export const ORGANIZATION_METHODS: readonly AdapterMethod[] = ['getUser', 'getUserByEmail', ...ORGANIZATION_ADAPTER_METHODS];

/** What the start-up check knows of the rest of the config. */
export interface OrganizationFacts {
	adapter?: Adapter;
	/** The resolved providers (to find the email provider that sends invitations). */
	providers?: readonly { id: string; type: string; sendAccountEmail?: unknown }[];
}

/**
 * Resolves `config.organizations`: undefined when it is not set (the routes are off). Throws at
 * start-up for an unknown key, a badly named role or statement, an `invitationMaxAge` outside one
 * minute to 30 days, a `maxOrganizationsPerUser` that is not a whole number above 0, an
 * `emailProvider` naming no email provider that sends account mails, and a missing adapter or
 * adapter method (organizations are stored, whatever the session strategy).
 *
 * @example
 * const resolved = resolveOrganizationOptions({ roles: { member: { project: ['create'] } } }, { adapter });
 */
export function resolveOrganizationOptions(options: OrganizationOptions | undefined, facts: OrganizationFacts = {}): ResolvedOrganizationOptions | undefined {
	if (options === undefined) return undefined;
	if (options === null || typeof options !== 'object' || Array.isArray(options)) {
		throw new InvalidConfiguration('organizations must be an object such as {} or { roles: { member: { project: ["create"] } } } (docs/organizations.md).');
	}
	const unknown = unknownKeys(options, ORGANIZATION_OPTION_KEYS);
	if (unknown.length > 0) throw new InvalidConfiguration(`organizations: ${describeUnknownKeys(unknown)}.`);
	checkRoles(options.roles);
	const allowCreate = options.allowCreate ?? true;
	if (typeof allowCreate !== 'boolean' && typeof allowCreate !== 'function') {
		throw new InvalidConfiguration(`organizations.allowCreate must be true, false or a function ({ user }) => boolean; got ${JSON.stringify(allowCreate)}.`);
	}
	const invitationMaxAge = options.invitationMaxAge ?? DEFAULT_INVITATION_MAX_AGE;
	if (typeof invitationMaxAge !== 'number' || !Number.isFinite(invitationMaxAge) || invitationMaxAge < MIN_INVITATION_MAX_AGE || invitationMaxAge > MAX_INVITATION_MAX_AGE) {
		throw new InvalidConfiguration(
			`organizations.invitationMaxAge must be a number of seconds from ${MIN_INVITATION_MAX_AGE} (one minute) to ${MAX_INVITATION_MAX_AGE} (30 days); got ${JSON.stringify(invitationMaxAge)}.`
		);
	}
	const maxOrganizationsPerUser = options.maxOrganizationsPerUser ?? DEFAULT_MAX_ORGANIZATIONS_PER_USER;
	if (typeof maxOrganizationsPerUser !== 'number' || !Number.isInteger(maxOrganizationsPerUser) || maxOrganizationsPerUser < 1) {
		throw new InvalidConfiguration(`organizations.maxOrganizationsPerUser must be a whole number above 0; got ${JSON.stringify(maxOrganizationsPerUser)}.`);
	}
	const emailProvider = checkEmailProvider(options.emailProvider, facts.providers);
	checkAdapter(facts.adapter);
	const roles = roleTable(options);
	return { roles, roleNames: [...roles.keys()], allowCreate, invitationMaxAge, maxOrganizationsPerUser, emailProvider };
}

function checkRoles(roles: unknown): void {
	if (roles === undefined) return;
	if (roles === null || typeof roles !== 'object' || Array.isArray(roles)) {
		throw new InvalidConfiguration('organizations.roles must be an object of role name → { resource: ["action", …] }, such as { billing: { invoice: ["pay"] } }.');
	}
	for (const [role, statements] of Object.entries(roles)) {
		if (!NAME.test(role)) {
			throw new InvalidConfiguration(`organizations.roles: the role name ${JSON.stringify(role)} must start with a letter and hold only letters, digits, "_" and "-" (at most 64).`);
		}
		if (statements === null || typeof statements !== 'object' || Array.isArray(statements)) {
			throw new InvalidConfiguration(`organizations.roles.${role} must be an object of resource → list of actions, such as { project: ["create", "delete"] }; got ${JSON.stringify(statements)}.`);
		}
		for (const [resource, actions] of Object.entries(statements as Record<string, unknown>)) {
			if (!NAME.test(resource)) {
				throw new InvalidConfiguration(`organizations.roles.${role}: the resource name ${JSON.stringify(resource)} must start with a letter and hold only letters, digits, "_" and "-".`);
			}
			if (!Array.isArray(actions) || actions.some((action) => typeof action !== 'string' || !NAME.test(action))) {
				throw new InvalidConfiguration(
					`organizations.roles.${role}.${resource} must be a list of action names (letters, digits, "_", "-"), such as ["create", "delete"]; got ${JSON.stringify(actions)}.`
				);
			}
		}
	}
}

function checkEmailProvider(id: unknown, providers: OrganizationFacts['providers']): string | undefined {
	const senders = (providers ?? []).filter((provider) => provider.type === 'email' && typeof provider.sendAccountEmail === 'function');
	if (id === undefined) {
		// none: organizations work without invitations (inviting answers a Configuration error); several: which one is the app's to say
		if (senders.length > 1) {
			throw new InvalidConfiguration(
				`Several email providers can send the organization invitations (${senders.map((provider) => `"${provider.id}"`).join(', ')}): name one in organizations.emailProvider.`
			);
		}
		return undefined;
	}
	if (typeof id !== 'string' || !senders.some((provider) => provider.id === id)) {
		const known = senders.map((provider) => `"${provider.id}"`).join(', ');
		throw new InvalidConfiguration(
			`organizations.emailProvider must be the id of an email provider with \`sendAccountEmail\` (it sends the invitations); got ${JSON.stringify(id)}. ` +
				(known ? `Configured: ${known}.` : 'None is configured: add an email provider with `sendAccountEmail`, or leave emailProvider out.')
		);
	}
	return id;
}

function checkAdapter(adapter: Adapter | undefined): void {
	if (!adapter) {
		throw new MissingAdapter('`organizations` stores organizations, members and invitations and needs an adapter (also with JWT sessions): pass `adapter`, or leave `organizations` out.');
	}
	const lacking = ORGANIZATION_METHODS.find((method) => !hasAdapterMethod(adapter, method));
	if (lacking) {
		throw new MissingAdapterMethod(
			`The adapter has no \`${lacking}\` method, which organizations need. Use an adapter that stores organizations (docs/adapters.md), or leave \`organizations\` out.`
		);
	}
}

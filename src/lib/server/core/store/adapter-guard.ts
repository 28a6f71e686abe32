// The only way the engine reaches the adapter: missing methods become `MissingAdapterMethod`
// errors naming the method, and flows can check all the methods they need before writing anything.

import { MissingAdapterMethod } from '../errors.js';
import type { Adapter } from '../types.js';

/** Adapter methods after which something must run, and what (see `guardAdapter`). */
export interface AfterWrite {
	methods: ReadonlySet<string>;
	/** Runs after `method` returned `result` for `args`. */
	run(method: string, args: unknown[], result: unknown): Promise<void>;
}

/** Names of the adapter's methods. */
export type AdapterMethod = keyof Adapter;

/** The adapter methods that store organizations, members, invitations and teams (docs/organizations.md). */
export const ORGANIZATION_ADAPTER_METHODS = [
	'createOrganization', 'getOrganization', 'getOrganizationBySlug', 'updateOrganization', 'deleteOrganization',
	'createMember', 'getMembership', 'listMembers', 'listMemberships', 'updateMemberRole', 'deleteMember',
	'createInvitation', 'getInvitation', 'listInvitations', 'listInvitationsByEmail', 'revokeInvitation', 'acceptInvitation',
	'createTeam', 'listTeams', 'deleteTeam', 'addTeamMember', 'removeTeamMember', 'listTeamMembers'
] as const satisfies readonly AdapterMethod[];

/** An adapter whose every method exists (calling one the user did not write throws `MissingAdapterMethod`). */
export type GuardedAdapter = Required<Adapter>;

const ADAPTER_METHODS = new Set<string>([
	'createUser', 'getUser', 'getUserByEmail', 'getUserByAccount', 'updateUser', 'deleteUser',
	'linkAccount', 'unlinkAccount', 'getAccount', 'listAccountsByUserId', 'createSession', 'getSessionAndUser',
	'updateSession', 'deleteSession', 'createVerificationToken', 'useVerificationToken',
	'createAuthenticator', 'getAuthenticator', 'listAuthenticatorsByUserId', 'updateAuthenticatorCounter',
	'deleteAuthenticator', 'deleteSessionsByUserId', 'listSessionsByUserId', 'deleteSessionOfUser', 'updateAuthenticator',
	'getTwoFactor', 'setTwoFactor', 'deleteTwoFactor', 'useTotpStep', 'useRecoveryCode',
	'listUsers', 'getUserAdmin', 'setUserAdmin', 'createAuditEntry', 'listAuditEntries',
	...ORGANIZATION_ADAPTER_METHODS
] satisfies AdapterMethod[]);

const rawAdapters = new WeakMap<object, Adapter>();

function missing(name: string): never {
	throw new MissingAdapterMethod(
		`The adapter has no \`${name}\` method, which this flow needs. Add it to your adapter (see docs/adapters.md).`
	);
}

/**
 * Wraps `adapter` so calling a method it lacks throws `MissingAdapterMethod`. `afterWrite`, when
 * given, runs after each of its methods that returned (the session cache drops the copies a write
 * made wrong, session-cache.ts).
 */
export function guardAdapter(adapter: Adapter, afterWrite?: AfterWrite): GuardedAdapter {
	// each method bound once, not on every call
	const bound = new Map<PropertyKey, { source: unknown; method: unknown }>();
	const guarded = new Proxy(adapter, {
		get(target, property, receiver) {
			const value = Reflect.get(target, property, receiver);
			if (typeof value === 'function') {
				const known = bound.get(property);
				if (known !== undefined && known.source === value) return known.method;
				const method = afterWrite && typeof property === 'string' && afterWrite.methods.has(property) ? notifying(value, target, property, afterWrite.run) : value.bind(target);
				bound.set(property, { source: value, method });
				return method;
			}
			if (typeof property === 'string' && ADAPTER_METHODS.has(property)) return () => missing(property);
			return value;
		}
	}) as GuardedAdapter;
	rawAdapters.set(guarded, adapter);
	return guarded;
}

/** `method` of `target`, then `afterWrite` once it returned (not when it threw). */
function notifying(
	method: (...args: unknown[]) => unknown,
	target: object,
	name: string,
	afterWrite: AfterWrite['run']
): (...args: unknown[]) => Promise<unknown> {
	return async (...args) => {
		const result = await method.apply(target, args);
		await afterWrite(name, args, result);
		return result;
	};
}

/** Throws `MissingAdapterMethod` naming the first of `methods` the adapter lacks; call it before any write. */
export function assertAdapterMethods(adapter: Adapter, methods: readonly AdapterMethod[]): void {
	const raw = rawAdapters.get(adapter) ?? adapter;
	for (const method of methods) if (typeof raw[method] !== 'function') missing(method);
}

/**
 * True when the adapter has the optional method `name` (without calling it).
 *
 * @example if (hasAdapterMethod(adapter, 'updateAuthenticator')) await adapter.updateAuthenticator(id, { lastUsedAt });
 */
export function hasAdapterMethod(adapter: Adapter, name: AdapterMethod): boolean {
	const raw = rawAdapters.get(adapter) ?? adapter;
	return typeof raw[name] === 'function';
}

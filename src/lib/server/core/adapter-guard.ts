// The only way the engine reaches the adapter: missing methods become `MissingAdapterMethod`
// errors naming the method, and flows can check all the methods they need before writing anything.

import { MissingAdapterMethod } from './errors.js';
import type { Adapter } from './types.js';

/** Names of the adapter's methods. */
export type AdapterMethod = keyof Adapter;

/** An adapter whose every method exists (calling one the user did not write throws `MissingAdapterMethod`). */
export type GuardedAdapter = Required<Adapter>;

const ADAPTER_METHODS = new Set<string>([
	'createUser', 'getUser', 'getUserByEmail', 'getUserByAccount', 'updateUser', 'deleteUser',
	'linkAccount', 'unlinkAccount', 'getAccount', 'listAccountsByUserId', 'createSession', 'getSessionAndUser',
	'updateSession', 'deleteSession', 'createVerificationToken', 'useVerificationToken',
	'createAuthenticator', 'getAuthenticator', 'listAuthenticatorsByUserId', 'updateAuthenticatorCounter',
	'deleteAuthenticator', 'deleteSessionsByUserId', 'listSessionsByUserId', 'deleteSessionOfUser', 'updateAuthenticator',
	'getTwoFactor', 'setTwoFactor', 'deleteTwoFactor', 'useTotpStep', 'useRecoveryCode'
] satisfies AdapterMethod[]);

const rawAdapters = new WeakMap<object, Adapter>();

function missing(name: string): never {
	throw new MissingAdapterMethod(
		`The adapter has no \`${name}\` method, which this flow needs. Add it to your adapter (see docs/adapters.md).`
	);
}

/** Wraps `adapter` so calling a method it lacks throws `MissingAdapterMethod`. */
export function guardAdapter(adapter: Adapter): GuardedAdapter {
	const guarded = new Proxy(adapter, {
		get(target, property, receiver) {
			const value = Reflect.get(target, property, receiver);
			if (typeof value === 'function') return value.bind(target);
			if (typeof property === 'string' && ADAPTER_METHODS.has(property)) return () => missing(property);
			return value;
		}
	}) as GuardedAdapter;
	rawAdapters.set(guarded, adapter);
	return guarded;
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

import { describe, test, expect } from 'vitest';
import { assertAdapterMethods, guardAdapter } from './adapter-guard.js';
import { MissingAdapterMethod } from '../errors.js';
import type { Adapter, AdapterUser } from '../types.js';

const user: AdapterUser = { id: 'u1', email: 'ada@example.com', emailVerified: null };

/** An adapter whose methods need `this` and count their calls. */
class CountingAdapter implements Adapter {
	calls: string[] = [];
	#users = new Map<string, AdapterUser>([[user.id, user]]);

	getUser(id: string) {
		this.calls.push('getUser');
		return this.#users.get(id) ?? null;
	}

	async getUserByEmail(email: string) {
		this.calls.push('getUserByEmail');
		return [...this.#users.values()].find((u) => u.email === email) ?? null;
	}
}

function caught(fn: () => unknown): unknown {
	try {
		fn();
	} catch (error) {
		return error;
	}
	return undefined;
}

describe('guardAdapter', () => {
	test('calling a missing method throws MissingAdapterMethod naming it', () => {
		const guarded = guardAdapter({});
		const error = caught(() => guarded.createSession({ sessionToken: 't', userId: 'u', expires: new Date() }));
		expect(error).toBeInstanceOf(MissingAdapterMethod);
		expect((error as MissingAdapterMethod).type).toBe('MissingAdapterMethod');
		expect((error as Error).message).toContain('`createSession`');
	});

	test('every adapter method name gets a stub when missing', () => {
		const guarded = guardAdapter({});
		for (const name of ['createUser', 'getSessionAndUser', 'useVerificationToken', 'updateAuthenticatorCounter'] as const) {
			expect(typeof guarded[name]).toBe('function');
			expect((caught(() => (guarded[name] as () => unknown)()) as Error).message).toContain(`\`${name}\``);
		}
	});

	test('an awaited missing method rejects with MissingAdapterMethod', async () => {
		const guarded = guardAdapter({});
		await expect((async () => guarded.getUser('x'))()).rejects.toBeInstanceOf(MissingAdapterMethod);
	});

	test('existing methods are called with `this` bound to the adapter, even detached', async () => {
		const adapter = new CountingAdapter();
		const guarded = guardAdapter(adapter);
		const { getUser, getUserByEmail } = guarded;
		expect(getUser('u1')).toEqual(user);
		expect(await getUserByEmail('ada@example.com')).toEqual(user);
		expect(await guarded.getUser('missing')).toBeNull();
		expect(adapter.calls).toEqual(['getUser', 'getUserByEmail', 'getUser']);
	});

	test('passes arguments and return values through unchanged', async () => {
		const seen: unknown[] = [];
		const guarded = guardAdapter({
			getAccount: (providerAccountId, provider) => {
				seen.push(providerAccountId, provider);
				return null;
			}
		});
		expect(await guarded.getAccount('123', 'github')).toBeNull();
		expect(seen).toEqual(['123', 'github']);
	});

	test('non-method properties are undefined, so awaiting the adapter does not throw', async () => {
		const guarded = guardAdapter({});
		expect((guarded as unknown as { then?: unknown }).then).toBeUndefined();
		expect((guarded as unknown as { somethingElse?: unknown }).somethingElse).toBeUndefined();
		const awaited: unknown = await guarded;
		expect(awaited).toBe(guarded);
	});

	test('non-method data on the adapter is passed through as it is', () => {
		const guarded = guardAdapter({ name: 'custom' } as unknown as Adapter);
		expect((guarded as unknown as { name: string }).name).toBe('custom');
	});
});

describe('assertAdapterMethods', () => {
	test('passes when every method exists', () => {
		const adapter = new CountingAdapter();
		expect(() => assertAdapterMethods(guardAdapter(adapter), ['getUser', 'getUserByEmail'])).not.toThrow();
		expect(() => assertAdapterMethods(adapter, ['getUser'])).not.toThrow();
		expect(() => assertAdapterMethods(adapter, [])).not.toThrow();
	});

	test('throws for the first missing method, before anything is called', () => {
		const adapter = new CountingAdapter();
		const guarded = guardAdapter(adapter);
		const error = caught(() => assertAdapterMethods(guarded, ['getUser', 'createUser', 'linkAccount']));
		expect(error).toBeInstanceOf(MissingAdapterMethod);
		expect((error as Error).message).toContain('`createUser`');
		expect((error as Error).message).not.toContain('`linkAccount`');
		expect(adapter.calls).toEqual([]);
	});

	test('sees through the guard: its stubs do not count as methods', () => {
		const guarded = guardAdapter({});
		expect(typeof guarded.deleteSession).toBe('function');
		const error = caught(() => assertAdapterMethods(guarded, ['deleteSession']));
		expect(error).toBeInstanceOf(MissingAdapterMethod);
		expect((error as Error).message).toContain('`deleteSession`');
	});

	test('works on a raw adapter too', () => {
		const error = caught(() => assertAdapterMethods({ getUser: () => null }, ['getUser', 'updateUser']));
		expect(error).toBeInstanceOf(MissingAdapterMethod);
		expect((error as Error).message).toContain('`updateUser`');
	});

	test('a property that is not a function counts as missing', () => {
		const adapter = { getUser: 'nope' } as unknown as Adapter;
		expect(caught(() => assertAdapterMethods(adapter, ['getUser']))).toBeInstanceOf(MissingAdapterMethod);
	});
});

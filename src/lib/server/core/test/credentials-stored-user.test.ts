// Which stored user a credentials sign-in is, with an adapter (flows/credentials/stored-user.ts,
// credentials-user.ts; docs/security.md row C1 and "who is signed in"): the `credentials` account
// is the key; authorize()'s id is taken as a stored user's id only when that user is safely the
// same one. Under JWT sessions the same rule decides whether a credentials session is "signed in"
// as a stored user when a new account is connected (complete-sign-in.ts, `signedInUser`).
// On the memory adapter, with `createUser` numbering users as a SERIAL column does.

import { describe, expect, test, vi } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import Credentials from '../../providers/credentials.js';
import { completeSignIn, signedInUser } from '../flows/complete-sign-in.js';
import { resolveConfig } from '../config/resolve-config.js';
import { createContext } from '../request/context.js';
import { SUBJECT_CLAIM } from '../session/session-subject.js';
import type { Adapter, AdapterUser, AuthConfig, JWT, OAuthConfig, User } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';

const ORIGIN = 'http://localhost:3000';
const idp: OAuthConfig = { id: 'idp', name: 'IdP', type: 'oidc', issuer: 'https://idp.example.com', clientId: 'app' };

/** The memory adapter, with users numbered 1, 2, … whatever id `createUser` is given (as @auth/pg-adapter's SERIAL). */
function numberedAdapter() {
	const adapter = MemoryAdapter();
	let next = 1;
	return { ...adapter, createUser: (user: AdapterUser) => adapter.createUser({ ...user, id: String(next++) }) } satisfies Required<Adapter>;
}

function quietLog() {
	const errors: Error[] = [];
	return { errors, logger: { error: (_code: string, error?: unknown) => void errors.push(error as Error), warn: () => {}, debug: () => {} } };
}

/** A config whose Credentials provider answers with `members[username]`. */
function setup(members: Record<string, User>, options: { strategy?: 'jwt' | 'database'; adapter?: Required<Adapter>; jwt?: AuthConfig['callbacks'] } = {}) {
	const adapter = options.adapter ?? numberedAdapter();
	const log = quietLog();
	const events: string[] = [];
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		adapter,
		session: { strategy: options.strategy ?? 'database' },
		rateLimit: false,
		logger: log.logger,
		callbacks: options.jwt,
		events: { createUser: () => void events.push('createUser'), linkAccount: ({ account }) => void events.push(`linkAccount:${account.provider}`) },
		providers: [Credentials({ minFailureMs: 0, authorize: ({ username }) => members[String(username)] ?? null }), idp]
	};
	return { adapter, config, log, events };
}

async function signIn(config: AuthConfig, username: string) {
	const client = testClient(config);
	const response = await client.request('/auth/callback/credentials', { form: { csrfToken: await client.csrfToken(), username, password: 'x' } });
	const session = (await (await client.request('/auth/session')).json()) as { user?: { email?: string | null; name?: string | null } } | null;
	return { client, response, session };
}

/** The session cookie header of a client, for a request built by hand. */
function cookieHeader(client: ReturnType<typeof testClient>): string {
	return [...client.jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

/**
 * What the OAuth callback does when the browser of `client` comes back from the IdP as `login`,
 * having started the flow signed in (the check cookie carries who was signed in then).
 */
async function connect(config: AuthConfig, client: ReturnType<typeof testClient> | null, login: string) {
	const resolved = resolveConfig(config);
	const request = () => new Request(`${ORIGIN}/auth/callback/idp`, { headers: client ? { cookie: cookieHeader(client) } : {} });
	const linkRequestedBy = (await signedInUser(createContext(request(), resolved), resolved.adapter!))?.id;
	const ctx = createContext(request(), resolved);
	await completeSignIn(ctx, {
		provider: resolved.providerById.get('idp') as OAuthConfig,
		profile: { sub: login },
		user: { id: login, name: login, email: null, image: null },
		account: { provider: 'idp', type: 'oidc', providerAccountId: login },
		callbackUrl: `${ORIGIN}/`,
		linkRequestedBy
	});
	// the browser keeps the session the sign-in wrote (the one it replaced is signed out)
	for (const cookie of ctx.setCookies) {
		if (!client) break;
		if (cookie.value === '' || cookie.options.maxAge === 0) client.jar.delete(cookie.name);
		else client.jar.set(cookie.name, cookie.value);
	}
	return linkRequestedBy;
}

describe('database sessions', () => {
	test('a member whose id is another user\'s number gets a user of their own, keyed by a credentials account; the second sign-in finds it', async () => {
		const { adapter, config, events } = setup({ mallory: { id: '1', name: 'Mallory', email: 'mallory@example.com' } });
		const alice = await adapter.createUser({ id: '', name: 'Alice', email: 'alice@example.com', emailVerified: new Date() });
		expect(alice.id).toBe('1');
		const first = await signIn(config, 'mallory');
		expect(first.session?.user?.email).toBe('mallory@example.com');
		const mallory = await adapter.getUserByAccount({ provider: 'credentials', providerAccountId: '1' });
		expect(mallory).toMatchObject({ id: '2', email: 'mallory@example.com', emailVerified: null });
		expect(events).toEqual(['createUser', 'linkAccount:credentials']);
		expect((await signIn(config, 'mallory')).session?.user?.email).toBe('mallory@example.com');
		expect(await adapter.listAccountsByUserId('1')).toEqual([]);
		expect(events).toHaveLength(2);
	});

	test('authorize() reading the users table (its id and address): the same user, given a credentials account on the first sign-in', async () => {
		const { adapter, config, events } = setup({ ada: { id: '1', name: 'Ada', email: 'Ada@Example.com' } });
		await adapter.createUser({ id: '', name: 'Ada', email: 'ada@example.com', emailVerified: null });
		await adapter.linkAccount({ userId: '1', type: 'oidc', provider: 'google', providerAccountId: 'g-ada' });
		expect((await signIn(config, 'ada')).session?.user?.email).toBe('ada@example.com');
		expect((await adapter.getUserByAccount({ provider: 'credentials', providerAccountId: '1' }))?.id).toBe('1');
		expect(events).toEqual(['linkAccount:credentials']);
		expect((await signIn(config, 'ada')).session?.user?.email).toBe('ada@example.com');
		expect(events).toHaveLength(1);
	});

	test('without addresses, the user with that id is the member only when no sign-in made it (no accounts): a passkey or X user is never joined', async () => {
		const { adapter, config } = setup({ mallory: { id: '1', name: 'Mallory' }, bob: { id: '2', name: 'Bob' } });
		// user 1 signed up with a passkey (no address); user 2 was stored by the app itself
		await adapter.createUser({ id: '', name: 'alice@example.com', email: '', emailVerified: null });
		await adapter.linkAccount({ userId: '1', type: 'webauthn', provider: 'passkey', providerAccountId: 'cred-1' });
		await adapter.createUser({ id: '', name: 'Bob', email: '', emailVerified: null });
		expect((await signIn(config, 'mallory')).session?.user?.name).toBe('Mallory');
		expect((await adapter.getUserByAccount({ provider: 'credentials', providerAccountId: '1' }))?.id).toBe('3');
		expect((await signIn(config, 'bob')).session?.user?.name).toBe('Bob');
		expect((await adapter.getUserByAccount({ provider: 'credentials', providerAccountId: '2' }))?.id).toBe('2');
	});

	test('the user with that id already has a credentials account under another id: it is someone else', async () => {
		const { adapter, config } = setup({ eve: { id: '1', name: 'Eve', email: 'ada@example.com' } });
		await adapter.createUser({ id: '', name: 'Ada', email: 'ada@example.com', emailVerified: null });
		await adapter.linkAccount({ userId: '1', type: 'credentials', provider: 'credentials', providerAccountId: 'member-ada' });
		const eve = await signIn(config, 'eve');
		expect(eve.session).toBeNull();
		expect(eve.response.headers.get('location')).toContain('error=CallbackRouteError');
		expect(await adapter.getUserByAccount({ provider: 'credentials', providerAccountId: '1' })).toBeNull();
	});

	test('an address another stored user has is refused (a password proves no address): CallbackRouteError naming the fix, nothing written', async () => {
		const { adapter, config, log } = setup({ mallory: { id: 'member-9', name: 'Mallory', email: 'alice@example.com' } });
		await adapter.createUser({ id: '', name: 'Alice', email: 'alice@example.com', emailVerified: new Date() });
		const { session, response } = await signIn(config, 'mallory');
		expect(session).toBeNull();
		expect(response.headers.get('location')).toContain('error=CallbackRouteError');
		expect(log.errors.map((error) => error.message).join('\n')).toContain('Its email belongs to another stored user');
		expect(await adapter.getUserByAccount({ provider: 'credentials', providerAccountId: 'member-9' })).toBeNull();
		expect(await adapter.getUser('2')).toBeNull();
	});

	test('a database keeping the id it is given (kitgate\'s tables) stores the member under authorize()\'s id, as before', async () => {
		const { adapter, config } = setup({ ada: { id: 'member-ada', name: 'Ada', email: 'ada@example.com' } }, { adapter: MemoryAdapter() });
		await signIn(config, 'ada');
		expect((await adapter.getUserByAccount({ provider: 'credentials', providerAccountId: 'member-ada' }))?.id).toBe('member-ada');
	});

	test('a failing linkAccount leaves no user behind; the next sign-in works', async () => {
		const memory = numberedAdapter();
		let fail = true;
		const adapter: Required<Adapter> = {
			...memory,
			linkAccount: async (account) => {
				if (fail) {
					fail = false;
					throw new Error('linkAccount failed (injected)');
				}
				return memory.linkAccount(account);
			}
		};
		const { config } = setup({ bob: { id: 'member-bob', name: 'Bob', email: 'bob@example.com' } }, { adapter });
		expect((await signIn(config, 'bob')).session).toBeNull();
		expect(await memory.getUserByEmail('bob@example.com')).toBeNull();
		expect((await signIn(config, 'bob')).session?.user?.email).toBe('bob@example.com');
	});

	const bob = { id: 'member-bob', name: 'Bob', email: 'bob@example.com' };
	test.each([
		['numbering users (SERIAL)', numberedAdapter, bob, false],
		['numbering users (SERIAL), the second reading between the first one\'s createUser and linkAccount', numberedAdapter, bob, true],
		['keeping the id it is given', MemoryAdapter, bob, false],
		['keeping the id it is given, the second reading between the first one\'s createUser and linkAccount', MemoryAdapter, bob, true],
		['keeping the id it is given, no address, the second reading between the first one\'s writes', MemoryAdapter, { ...bob, email: null }, true]
	])('first sign-ins of one member on two servers at once, on a database %s: both signed in, one user', async (_label, makeAdapter, bob, between) => {
		const memory = makeAdapter();
		// `between`: the first server's linkAccount waits until the other server has written (or given up)
		let links = 0;
		let secondDone = () => {};
		const second = new Promise<void>((resolve) => (secondDone = resolve));
		const adapter: Required<Adapter> = {
			...memory,
			createUser: async (user) => {
				await new Promise((resolve) => setTimeout(resolve, 5));
				return memory.createUser(user);
			},
			linkAccount: async (account) => {
				if (!between) await new Promise((resolve) => setTimeout(resolve, 5));
				else if (links++ === 0) await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 300))]);
				else return Promise.resolve(memory.linkAccount(account)).finally(secondDone);
				return memory.linkAccount(account);
			}
		};
		const { config, log } = setup({ bob }, { adapter });
		// each server has its own engine (module instances), so the in-process queue does not apply
		const servers = [];
		for (let index = 0; index < 2; index++) {
			vi.resetModules();
			servers.push(((await import('../auth.js')) as typeof import('../auth.js')).Auth);
		}
		const results = await Promise.all(
			servers.map(async (Auth, index) => {
				// the second server starts once the first has stored its user
				if (between && index) while (!(await memory.getUserByEmail('bob@example.com')) && !(await memory.getUser('member-bob'))) await new Promise((resolve) => setTimeout(resolve, 1));
				const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config);
				const cookie = csrf.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
				const { csrfToken } = (await csrf.json()) as { csrfToken: string };
				const body = new URLSearchParams({ csrfToken, username: 'bob', password: 'x' });
				const headers = { cookie, 'content-type': 'application/x-www-form-urlencoded' };
				const answer = await Auth(new Request(`${ORIGIN}/auth/callback/credentials`, { method: 'POST', headers, body }), config);
				const token = answer.headers.getSetCookie().find((line) => line.startsWith('kitgate.session-token='))?.split(';')[0].split('=')[1];
				return token ? (await memory.getSessionAndUser(token))?.user.id : undefined;
			})
		);
		expect(log.errors.map((error) => error.message)).toEqual([]);
		const owner = await memory.getUserByAccount({ provider: 'credentials', providerAccountId: 'member-bob' });
		expect(results).toEqual([owner!.id, owner!.id]);
		expect(await memory.listAccountsByUserId(owner!.id)).toHaveLength(1);
	});

	test('concurrent first sign-ins of one member end with one user', async () => {
		const { adapter, config } = setup({ bob: { id: 'member-bob', name: 'Bob', email: null } });
		const sessions = await Promise.all(Array.from({ length: 5 }, () => signIn(config, 'bob')));
		expect(sessions.map((s) => s.session?.user?.name)).toEqual(['Bob', 'Bob', 'Bob', 'Bob', 'Bob']);
		const owner = await adapter.getUserByAccount({ provider: 'credentials', providerAccountId: 'member-bob' });
		expect(await adapter.getUser(String(Number(owner!.id) + 1))).toBeNull();
	});
});

describe('JWT sessions: connecting an account while signed in with a password', () => {
	test('`sub` stays authorize()\'s id, recorded as such in the token', async () => {
		const { config } = setup({ mallory: { id: '1', name: 'Mallory', email: 'mallory@example.com' } }, { strategy: 'jwt' });
		const resolved = resolveConfig(config);
		const { client } = await signIn(config, 'mallory');
		const token = await resolved.jwt.decode({ token: client.jar.get('kitgate.session-token'), secret: resolved.secrets, salt: 'kitgate.session-token' });
		expect(token).toMatchObject({ sub: '1', [SUBJECT_CLAIM]: { credentials: 'credentials' } });
	});

	test('a member whose id is another user\'s number is not signed in as that user: the new account gets a user of its own', async () => {
		const { adapter, config } = setup({ mallory: { id: '1', name: 'Mallory', email: 'mallory@example.com' } }, { strategy: 'jwt' });
		const alice = await adapter.createUser({ id: '', name: 'Alice', email: 'alice@example.com', emailVerified: new Date() });
		const { client } = await signIn(config, 'mallory');
		expect(await connect(config, client, 'mallory-at-idp')).toBeUndefined();
		expect((await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'mallory-at-idp' }))?.id).not.toBe(alice.id);
		expect(await adapter.listAccountsByUserId(alice.id)).toEqual([]);
	});

	test('a jwt callback that rebuilds the token cannot make the credentials id a stored user\'s', async () => {
		const { adapter, config } = setup(
			{ mallory: { id: '1', name: 'Mallory', email: 'mallory@example.com' } },
			{ strategy: 'jwt', jwt: { jwt: ({ token }) => ({ sub: token.sub, name: token.name, email: token.email, [SUBJECT_CLAIM]: 'user' }) } }
		);
		const alice = await adapter.createUser({ id: '', name: 'Alice', email: 'alice@example.com', emailVerified: new Date() });
		const { client } = await signIn(config, 'mallory');
		await client.request('/auth/session');
		expect(await connect(config, client, 'mallory-at-idp')).toBeUndefined();
		expect(await adapter.listAccountsByUserId(alice.id)).toEqual([]);
	});

	test('authorize() reading the users table: the account joins that user, and the credentials account pins the mapping for later connections', async () => {
		const { adapter, config, events } = setup({ bob: { id: '1', name: 'Bob' } }, { strategy: 'jwt' });
		await adapter.createUser({ id: '', name: 'Bob', email: '', emailVerified: null });
		const { client } = await signIn(config, 'bob');
		expect(await connect(config, client, 'bob-at-idp')).toBe('1');
		expect((await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'bob-at-idp' }))?.id).toBe('1');
		expect((await adapter.getUserByAccount({ provider: 'credentials', providerAccountId: '1' }))?.id).toBe('1');
		expect(events).toEqual(['linkAccount:credentials', 'linkAccount:idp']);
		// user 1 now has accounts, so without the pin an address-less id would no longer be trusted
		expect(await connect(config, client, 'bob-second-login')).toBe('1');
		expect((await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'bob-second-login' }))?.id).toBe('1');
	});

	test('a token without the record (issued before it, or adopted from Auth.js) names the user with its id only when the addresses match', async () => {
		const { adapter, config } = setup({}, { strategy: 'jwt' });
		const alice = await adapter.createUser({ id: '', name: 'Alice', email: 'alice@example.com', emailVerified: new Date() });
		const resolved = resolveConfig(config);
		const withToken = async (token: JWT) => {
			const value = await resolved.jwt.encode({ token, secret: resolved.secrets, salt: 'kitgate.session-token', maxAge: 3600 });
			const ctx = createContext(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `kitgate.session-token=${value}` } }), resolved);
			return signedInUser(ctx, resolved.adapter!);
		};
		expect(await withToken({ sub: alice.id, email: 'mallory@example.com' })).toBeNull();
		expect(await withToken({ sub: alice.id })).toBeNull();
		expect((await withToken({ sub: alice.id, email: 'ALICE@example.com' }))?.id).toBe(alice.id);
		expect((await withToken({ sub: alice.id, [SUBJECT_CLAIM]: 'user' }))?.id).toBe(alice.id);
	});
});

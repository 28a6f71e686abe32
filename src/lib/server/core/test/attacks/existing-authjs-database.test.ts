// Attacks: the engine on an existing Auth.js database (`tables: authjsPgAdapterTables`), whose
// schema has no unique or foreign keys and numbers its users (SERIAL). Sign-ins of one identity in
// separate server processes at once, credentials sign-ins with database sessions (whose user is looked
// up by the id authorize() returned), addresses Auth.js stored twice; and cloned passkeys on Drizzle's
// 32-bit `counter` column (authjsDrizzlePostgresTables). Tests named "(fails before
// the fix)" performed an attack that worked when they were written; the others pin a defence that held.

import pg from 'pg';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { authjsDrizzlePostgresTables, authjsPgAdapterTables, PostgresAdapter } from '../../../adapters/postgres.js';
import { postgresFromDdl } from '../../../adapters/test/authjs-databases.js';
import Credentials from '../../../providers/credentials.js';
import { completeSignIn } from '../../flows/complete-sign-in.js';
import { resolveConfig } from '../../config/resolve-config.js';
import { createContext } from '../../request/context.js';
import type { AdapterUser, AuthConfig, OAuthConfig } from '../../types.js';
import { TEST_SECRET, testClient } from '../client.js';
import { idpProvider, ORIGIN, quietLogger, signInThroughIdp, startTestIdp } from '../oauth-fixtures.js';
import { optionsUserId, passkeyWorld } from '../webauthn-fixture.js';

const serverUrl = inject('databaseUrl');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A database made by @auth/pg-adapter's schema.sql, kitgate's adapter on it, and a raw pool (the Auth.js app). */
async function pgAdapterDatabase() {
	const { connectionString, drop } = await postgresFromDdl(serverUrl, 'pg-adapter');
	const pool = new pg.Pool({ connectionString, max: 20 });
	pool.on('error', () => undefined);
	const adapter = PostgresAdapter({ pool, tables: authjsPgAdapterTables });
	await adapter.migrate();
	const authjs = new pg.Pool({ connectionString, max: 2 });
	authjs.on('error', () => undefined);
	cleanups.push(async () => {
		await pool.end();
		await authjs.end();
		await drop();
	});
	return { adapter, authjs };
}

const idp: OAuthConfig = { id: 'idp', name: 'IdP', type: 'oidc', issuer: 'https://idp.example.com', clientId: 'app' };

type CompleteSignIn = typeof completeSignIn;

/** `completeSignIn` as separate server processes run it: a module instance each, so the in-process queue does not apply. */
async function separateProcesses(count: number): Promise<CompleteSignIn[]> {
	return Promise.all(
		Array.from({ length: count }, async (_, index) => {
			const module = (await import(/* @vite-ignore */ `../../flows/complete-sign-in.js?review3-process=${index}`)) as { completeSignIn: CompleteSignIn };
			return module.completeSignIn;
		})
	);
}

describe('first sign-ins of one identity in separate processes on @auth/pg-adapter tables', () => {
	test.each([
		['with an email (createUser races on the address)', 'racer@example.com'],
		['without an email, as X profiles come (linkAccount races; losers remove their user)', null]
	])('30 at once, %s, database sessions: one user, one account, every session on that user', async (_label, email) => {
		const { adapter, authjs } = await pgAdapterDatabase();
		const log = quietLogger();
		const config: AuthConfig = { secret: TEST_SECRET, trustHost: true, adapter, providers: [idp], session: { strategy: 'database' }, logger: log.logger };
		const resolved = resolveConfig(config);
		const provider = resolved.providerById.get('idp') as OAuthConfig;
		const signIns = await separateProcesses(30);
		const outcomes = await Promise.all(
			signIns.map((signIn) => {
				const ctx = createContext(new Request(`${ORIGIN}/auth/callback/idp`), resolved);
				return signIn(ctx, {
					provider,
					profile: { sub: 'racer', email },
					user: { id: 'racer', name: 'Racer', email, image: null },
					account: { provider: 'idp', type: 'oidc', providerAccountId: 'racer', access_token: 'token' },
					callbackUrl: `${ORIGIN}/`
				}).then(
					() => ({ ctx, error: undefined as unknown }),
					(error: unknown) => ({ ctx, error })
				);
			})
		);
		expect(outcomes.filter((o) => o.error !== undefined).map((o) => String(o.error))).toEqual([]);
		const owner = (await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'racer' })) as AdapterUser;
		expect(owner).not.toBeNull();
		const counts = await authjs.query(
			`select (select count(*)::int from users) as users, (select count(*)::int from accounts) as accounts,
			        (select count(distinct "userId")::int from sessions) as session_users, (select min("userId")::text from sessions) as session_user,
			        (select count(*)::int from sessions) as sessions`
		);
		expect(counts.rows[0]).toEqual({ users: 1, accounts: 1, session_users: 1, session_user: owner.id, sessions: 30 });
		for (const { ctx } of outcomes) {
			const token = ctx.setCookies.find((cookie) => cookie.name === 'kitgate.session-token')?.value;
			expect((await adapter.getSessionAndUser(token!))?.user.id).toBe(owner.id);
		}
	});
});

describe('credentials sign-ins with database sessions on SERIAL user ids', () => {
	// ensureStoredUser looks the user up by the id authorize() returned and creates it "when the
	// adapter does not know it yet"; on @auth/pg-adapter's tables createUser cannot keep that id (the
	// database numbers users), so the id authorize() returns next time means whoever holds that number.

	function credentialsConfig(adapter: ReturnType<typeof PostgresAdapter>, members: Record<string, { id: string; name: string; email: string }>) {
		const log = quietLogger();
		const config: AuthConfig = {
			secret: TEST_SECRET,
			trustHost: true,
			adapter,
			session: { strategy: 'database' },
			logger: log.logger,
			// the app's own member table, numbered from 1 like the Credentials() example (`{ id: "1", … }`)
			providers: [Credentials({ authorize: ({ username }) => members[String(username)] ?? null })]
		};
		return { config, log };
	}

	async function signInWithPassword(config: AuthConfig, username: string) {
		const client = testClient(config);
		const csrfToken = await client.csrfToken();
		const response = await client.request('/auth/callback/credentials', { form: { csrfToken, username, password: 'x' } });
		const session = (await (await client.request('/auth/session')).json()) as { user?: { email?: string; name?: string } } | null;
		return { response, session };
	}

	test('a member whose authorize() id is the number of another user in `users` is not signed in as that user (fails before the fix)', async () => {
		const { adapter } = await pgAdapterDatabase();
		// Alice signed up with an OAuth provider (through Auth.js or kitgate): users.id 1
		const alice = await adapter.createUser({ id: 'ignored', name: 'Alice', email: 'alice@example.com', emailVerified: new Date() });
		await adapter.linkAccount({ userId: alice.id, type: 'oidc', provider: 'google', providerAccountId: 'g-alice' });
		expect(alice.id).toBe('1');
		// Mallory is member 1 of the app's own password table
		const { config } = credentialsConfig(adapter, { mallory: { id: '1', name: 'Mallory', email: 'mallory@example.com' } });
		const { session } = await signInWithPassword(config, 'mallory');
		expect(session?.user?.email, "Mallory's password sign-in opened Alice's session").not.toBe('alice@example.com');
	});

	test('a member signs in a second time and gets the user the first sign-in stored (fails before the fix)', async () => {
		const { adapter, authjs } = await pgAdapterDatabase();
		const { config, log } = credentialsConfig(adapter, { bob: { id: 'member-bob', name: 'Bob', email: 'bob@example.com' } });
		const first = await signInWithPassword(config, 'bob');
		expect(first.session?.user?.email).toBe('bob@example.com');
		const second = await signInWithPassword(config, 'bob');
		expect(log.errors.map((error) => error.message)).toEqual([]);
		expect(second.response.headers.get('location')).toBe(`${ORIGIN}/`);
		expect(second.session?.user?.email).toBe('bob@example.com');
		expect((await authjs.query('select count(*)::int as n from users')).rows).toEqual([{ n: 1 }]);
	});

	test('with JWT sessions (the default), a member whose authorize() id is another user\'s number connects their own IdP account to that user, then signs in as them (fails before the fix)', async () => {
		const { adapter } = await pgAdapterDatabase();
		const alice = await adapter.createUser({ id: 'ignored', name: 'Alice', email: 'alice@example.com', emailVerified: new Date() });
		expect(alice.id).toBe('1');
		const issuer = await startTestIdp();
		cleanups.push(() => issuer.close());
		const config: AuthConfig = {
			secret: TEST_SECRET,
			trustHost: true,
			adapter,
			logger: quietLogger().logger,
			providers: [
				Credentials({ authorize: ({ username }) => (username === 'mallory' ? { id: '1', name: 'Mallory', email: 'mallory@example.com' } : null) }),
				idpProvider(issuer.issuer)
			]
		};
		// Mallory signs in with her password (JWT sub "1"), then "connects" her own IdP account
		const mallory = testClient(config);
		await mallory.request('/auth/callback/credentials', { form: { csrfToken: await mallory.csrfToken(), username: 'mallory', password: 'x' } });
		await signInThroughIdp(mallory, 'idp', { login: 'mallory-at-idp' });
		const linkedTo = await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'mallory-at-idp' });
		expect.soft(linkedTo?.id, "Mallory's IdP account was linked to Alice").not.toBe(alice.id);
		// … after which that IdP account opens Alice's user anywhere
		const elsewhere = testClient(config);
		await signInThroughIdp(elsewhere, 'idp', { login: 'mallory-at-idp' });
		const session = (await (await elsewhere.request('/auth/session')).json()) as { user?: { email?: string } } | null;
		expect(session?.user?.email, "Mallory's IdP account signs in as Alice").not.toBe('alice@example.com');
	});
});

describe('an address Auth.js stored twice (its schema has no unique key)', () => {
	test('a sign-in through a provider trusted to verify addresses joins the user who proved the address, whatever the rows\' physical order (fails before the fix)', async () => {
		const { adapter, authjs } = await pgAdapterDatabase();
		// Auth.js wrote the owner (proved by an email sign-in) and, in a race it cannot refuse, a second,
		// unproven user of the same address (what its createUser does: no unique key to stop it)
		const owner = await authjs.query(
			`insert into users (name, email, "emailVerified") values ('Owner', 'owner@example.com', now()) returning id::text`
		);
		await authjs.query(`insert into users (name, email, "emailVerified") values (null, 'owner@example.com', null)`);
		// Auth.js later updates the owner (its updateUser after a profile change): the row moves
		await authjs.query(`update users set name = 'Owner Renamed' where id = $1`, [Number(owner.rows[0].id)]);

		const log = quietLogger();
		const trusted: OAuthConfig = { ...idp, allowDangerousEmailAccountLinking: true } as OAuthConfig;
		const resolved = resolveConfig({ secret: TEST_SECRET, trustHost: true, adapter, providers: [trusted], logger: log.logger });
		const ctx = createContext(new Request(`${ORIGIN}/auth/callback/idp`), resolved);
		await completeSignIn(ctx, {
			provider: resolved.providerById.get('idp') as OAuthConfig,
			profile: { sub: 'owner-at-idp', email: 'owner@example.com', email_verified: true },
			user: { id: 'owner-at-idp', name: 'Owner', email: 'owner@example.com', image: null },
			account: { provider: 'idp', type: 'oidc', providerAccountId: 'owner-at-idp' },
			callbackUrl: `${ORIGIN}/`
		}).catch(() => undefined);
		const linked = await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'owner-at-idp' });
		expect(linked?.id, 'the owner\'s new account went to the unproven duplicate').toBe(owner.rows[0].id);
	});
});

describe("passkey counters in Drizzle's 32-bit `counter` column", () => {
	test('past 2^31 the counter is stored negative, yet a cloned authenticator replaying or lowering it is refused and the real one goes on up to 2^32 - 1', async () => {
		const { connectionString, drop } = await postgresFromDdl(serverUrl, 'drizzle-postgres');
		const pool = new pg.Pool({ connectionString, max: 5 });
		pool.on('error', () => undefined);
		cleanups.push(async () => {
			await pool.end();
			await drop();
		});
		const adapter = PostgresAdapter({ pool, tables: authjsDrizzlePostgresTables });
		const world = passkeyWorld({ adapter });
		const registration = await world.options({ email: 'owner@example.com' });
		const attestation = world.device.register(registration.body.options);
		expect((await world.callback({ action: 'register', data: attestation })).status).toBe(200);
		const owner = optionsUserId(registration.body.options);

		const use = async (counter: number) => {
			const browser = world.browser();
			const login = await browser.options({ action: 'authenticate' });
			const answer = await browser.callback({ data: world.device.authenticate(login.body.options, { counter }) });
			return { status: answer.status, user: (await browser.session())?.user?.name };
		};
		const stored = async () => Number((await pool.query('select counter from authenticator')).rows[0].counter);

		expect(await use(2 ** 31 + 10)).toEqual({ status: 200, user: 'owner@example.com' });
		expect(await stored()).toBeLessThan(0);
		// the clone, copied when the counter was 2^31 + 10: the same value, and a low one (what a signed reading would accept)
		expect(await use(2 ** 31 + 10)).toMatchObject({ status: 400, user: undefined });
		expect(await use(5)).toMatchObject({ status: 400, user: undefined });
		expect(world.warnings.filter((w) => w.code === 'webauthn-counter-regression')).toHaveLength(2);
		// the real authenticator goes on, to the largest counter WebAuthn has
		expect(await use(2 ** 31 + 11)).toEqual({ status: 200, user: 'owner@example.com' });
		expect(await use(2 ** 32 - 1)).toEqual({ status: 200, user: 'owner@example.com' });
		expect(await stored()).toBe(-1);
		expect(await use(2 ** 32 - 1)).toMatchObject({ status: 400 });
		expect((await adapter.getAuthenticator(attestation.id))?.counter).toBe(2 ** 32 - 1);
		expect((await adapter.getUser(owner))?.name).toBe('owner@example.com');
	});
});

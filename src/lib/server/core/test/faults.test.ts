// Fault injection: adapter methods that throw or time out, the database down mid-flow (SQLite
// locked by another connection; PostgreSQL cut off, its connections terminated, or unreachable),
// SMTP down or silent, the identity provider down, slow or answering malformed JSON/JWKS. Each
// ends on a clear error page and log line, leaves no half-written user/account/session, and the
// app keeps serving: a normal sign-in right after (or during) succeeds.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { PostgresAdapter } from '../../adapters/postgres.js';
import { SQLiteAdapter } from '../../adapters/sqlite.js';
import Credentials from '../../providers/credentials.js';
import Email from '../../providers/email.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import type { Adapter, AuthConfig, OAuthConfig } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { closedPort, startCuttableProxy } from './cuttable-proxy.js';
import { startFaultyIssuer, type FaultyIssuer } from './faulty-issuer.js';
import { expectErrorRedirect, quietLogger, setsSession, type TestClient } from './oauth-fixtures.js';

const directory = mkdtempSync(join(tmpdir(), 'kitgate-faults-'));
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
	rmSync(directory, { recursive: true, force: true });
});

/** A TCP server that accepts connections and never says a word (a hung SMTP server). */
async function silentServer(): Promise<number> {
	const sockets = new Set<Socket>();
	const server: Server = createServer((socket) => {
		sockets.add(socket);
		socket.on('error', () => undefined);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	cleanups.push(() => new Promise<void>((resolve) => {
		for (const socket of sockets) socket.destroy();
		server.close(() => resolve());
	}));
	return (server.address() as AddressInfo).port;
}

/** A fresh identity provider per test: discovery and JWKS are cached per issuer. */
async function freshIdp(): Promise<FaultyIssuer> {
	const idp = await startFaultyIssuer();
	cleanups.push(idp.close);
	return idp;
}

/** Row counts that show what a flow left behind. */
type Rows = { users: number; accounts: number; sessions: number; tokens: number };

/** A SQLite file with the adapter on a handle of our own (short busy timeout) and a second connection to lock it. */
async function sqliteWorld() {
	const filename = join(directory, `${randomBytes(4).toString('hex')}.sqlite`);
	const database = new Database(filename);
	database.pragma('journal_mode = WAL');
	// writes blocked by another connection fail fast with SQLITE_BUSY
	database.pragma('busy_timeout = 100');
	const adapter = SQLiteAdapter({ database });
	await adapter.migrate();
	const locker = new Database(filename);
	cleanups.push(() => {
		if (locker.inTransaction) locker.exec('ROLLBACK');
		locker.close();
		database.close();
	});
	const count = (table: string) => (database.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
	return {
		adapter,
		lock: () => locker.exec('BEGIN EXCLUSIVE'),
		unlock: () => locker.exec('ROLLBACK'),
		rows: async (): Promise<Rows> => ({ users: count('users'), accounts: count('accounts'), sessions: count('sessions'), tokens: count('verification_tokens') })
	};
}

/** One config with every flow: credentials (ada), the faulty OIDC issuer, email through `smtpPort`. */
function worldConfig(adapter: Adapter, idp: { issuer: string }, options: { smtpPort?: number; oidc?: Partial<OAuthConfig> } = {}) {
	const log = quietLogger();
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		adapter,
		logger: log.logger,
		rateLimit: { store: MemoryRateLimitStore() },
		providers: [
			Credentials({
				minFailureMs: 0,
				authorize: ({ username }) => (username === 'ada' ? { id: 'u-ada', name: 'Ada', email: 'ada@example.com' } : null)
			}),
			// no nonce: this issuer signs a token for any code, without seeing the authorization request
			{ id: 'faulty', name: 'Faulty IdP', type: 'oidc', issuer: idp.issuer, clientId: 'kitgate', clientSecret: 'faulty-secret', timeout: 400, checks: ['pkce', 'state'], ...options.oidc },
			Email({
				server: { host: '127.0.0.1', port: options.smtpPort ?? 1, secure: false, ignoreTLS: true, connectionTimeout: 400, greetingTimeout: 400, socketTimeout: 400 },
				from: 'no-reply@kitgate.test'
			})
		]
	};
	return { config, log };
}

async function credentialsSignIn(config: AuthConfig, client: TestClient = testClient(config)): Promise<Response> {
	const csrfToken = await client.csrfToken();
	return client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada' } });
}

/** Starts an OIDC sign-in and returns the callback URL the IdP would redirect to (its login is not needed). */
async function startOidc(client: TestClient): Promise<Response | string> {
	const csrfToken = await client.csrfToken();
	const started = await client.request('/auth/signin/faulty', { form: { csrfToken, callbackUrl: '/home' } });
	const location = started.headers.get('location') ?? '';
	if (!location.includes('/authorize')) return started;
	const state = new URL(location).searchParams.get('state');
	return `/auth/callback/faulty?code=any-code${state ? `&state=${state}` : ''}`;
}

/** A whole OIDC sign-in against the faulty issuer. */
async function oidcSignIn(config: AuthConfig): Promise<Response> {
	const client = testClient(config);
	const callback = await startOidc(client);
	return typeof callback === 'string' ? client.request(callback) : callback;
}

/** `adapter` with `method` failing on its first call only (a transient fault): throw at once, or reject after a delay (a driver's timeout). */
function failingOnce(adapter: Adapter, method: keyof Adapter, mode: 'throw' | 'timeout'): Adapter {
	let failed = false;
	const original = (adapter[method] as (...args: unknown[]) => unknown).bind(adapter);
	return {
		...adapter,
		[method]: async (...args: unknown[]) => {
			if (failed) return original(...args);
			failed = true;
			if (mode === 'timeout') {
				await new Promise((resolve) => setTimeout(resolve, 150));
				throw new Error(`${method} timed out after 150 ms (injected)`);
			}
			throw new Error(`${method} failed (injected)`);
		}
	};
}

/** Asserts a user never exists without its account, and no session was left by the failure. */
function expectNothingHalfWritten(rows: Rows, before: Rows): void {
	expect(rows.users - before.users, 'users and accounts come in pairs').toBe(rows.accounts - before.accounts);
	expect(rows.sessions).toBe(before.sessions);
}

describe('adapter methods that throw or time out (OIDC sign-in, database sessions)', () => {
	const methods = ['getUserByAccount', 'getUserByEmail', 'createUser', 'linkAccount', 'createSession'] as const;
	for (const method of methods) {
		for (const mode of ['throw', 'timeout'] as const) {
			test(`${method} that ${mode === 'throw' ? 'throws' : 'times out'}: CallbackRouteError, logged, nothing half-written; the next sign-ins work`, async () => {
				const world = await sqliteWorld();
				const idp = await freshIdp();
				const { config, log } = worldConfig(failingOnce(world.adapter, method, mode), idp);
				const before = await world.rows();
				const failed = await oidcSignIn(config);
				expectErrorRedirect(failed, 'CallbackRouteError');
				expect(log.text()).toContain(`${method} ${mode === 'throw' ? 'failed' : 'timed out after 150 ms'} (injected)`);
				expectNothingHalfWritten(await world.rows(), before);

				expect(setsSession(await credentialsSignIn(config))).toBe(true);
				expect(setsSession(await oidcSignIn(config))).toBe(true);
				// the credentials user has a `credentials` account, the OIDC user its `oidc` account
				expect(await world.rows()).toMatchObject({ users: 2, accounts: 2, sessions: 2 });
			});
		}
	}

	test('a failing session read: the session route answers 503 with the cause logged, never a session', async () => {
		const world = await sqliteWorld();
		const { config, log } = worldConfig(failingOnce(world.adapter, 'getSessionAndUser', 'throw'), { issuer: 'http://127.0.0.1:1' });
		const client = testClient(config);
		expect(setsSession(await credentialsSignIn(config, client))).toBe(true);
		const failed = await client.request('/auth/session');
		expect(failed.status).toBe(503);
		expect(await failed.json()).toEqual({ error: 'Configuration' });
		expect(log.text()).toContain('getSessionAndUser failed (injected)');
		// the cookie is kept: the session may well be valid, the store just could not say
		expect(client.jar.has('kitgate.session-token')).toBe(true);
		expect(((await (await client.request('/auth/session')).json()) as { user: { name: string } }).user.name).toBe('Ada');
	});
});

describe('SQLite locked by another connection', () => {
	test('a credentials sign-in while writes are locked: CallbackRouteError with SQLITE_BUSY logged, nothing written; afterwards it works', async () => {
		const world = await sqliteWorld();
		const { config, log } = worldConfig(world.adapter, { issuer: 'http://127.0.0.1:1' });
		world.lock();
		const failed = await credentialsSignIn(config);
		expectErrorRedirect(failed, 'CallbackRouteError');
		expect(log.text()).toMatch(/SQLITE_BUSY|database is locked/);
		expect(await world.rows()).toEqual({ users: 0, accounts: 0, sessions: 0, tokens: 0 });
		world.unlock();
		expect(setsSession(await credentialsSignIn(config))).toBe(true);
	});

	test('existing sessions are still read while writes are locked (WAL)', async () => {
		const world = await sqliteWorld();
		const { config } = worldConfig(world.adapter, { issuer: 'http://127.0.0.1:1' });
		const client = testClient(config);
		await credentialsSignIn(config, client);
		world.lock();
		try {
			const read = await client.request('/auth/session');
			expect(read.status).toBe(200);
			expect(((await read.json()) as { user: { name: string } }).user.name).toBe('Ada');
		} finally {
			world.unlock();
		}
	});

	test('locked in the middle of an OIDC callback (after the reads, before the writes): nothing written; a retry works', async () => {
		const world = await sqliteWorld();
		const idp = await freshIdp();
		let lockNow = true;
		const adapter: Adapter = {
			...world.adapter,
			getUserByEmail: async (email) => {
				const found = await world.adapter.getUserByEmail(email);
				if (lockNow) world.lock();
				return found;
			}
		};
		const { config, log } = worldConfig(adapter, idp);
		const failed = await oidcSignIn(config);
		world.unlock();
		lockNow = false;
		expectErrorRedirect(failed, 'CallbackRouteError');
		expect(log.text()).toMatch(/Storing the user or account failed.*(SQLITE_BUSY|database is locked)/s);
		expect(await world.rows()).toEqual({ users: 0, accounts: 0, sessions: 0, tokens: 0 });
		expect(setsSession(await oidcSignIn(config))).toBe(true);
		expect(await world.rows()).toMatchObject({ users: 1, accounts: 1, sessions: 1 });
	});
});

describe('PostgreSQL stopped, its connections terminated, or unreachable', () => {
	const databaseUrl = new URL(inject('databaseUrl'));
	const admin = new pg.Pool({ connectionString: databaseUrl.href, max: 2 });
	const schemas: string[] = [];
	afterAll(async () => {
		for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
		await admin.end();
	});

	/** An adapter reaching the test cluster through a proxy that can be cut, in a schema of its own. */
	async function postgresWorld() {
		const proxy = await startCuttableProxy(databaseUrl.hostname, Number(databaseUrl.port));
		const schema = `f_${randomBytes(5).toString('hex')}`;
		schemas.push(schema);
		const url = new URL(databaseUrl.href);
		url.port = String(proxy.port);
		url.searchParams.set('application_name', schema);
		const adapter = PostgresAdapter({ connectionString: url.href, schema });
		await adapter.migrate();
		cleanups.push(async () => {
			await proxy.close();
			await adapter.close().catch(() => undefined);
		});
		const count = async (table: string) => Number((await admin.query(`select count(*) as n from ${schema}.${table}`)).rows[0].n);
		return {
			adapter,
			proxy,
			schema,
			rows: async (): Promise<Rows> => ({ users: await count('users'), accounts: await count('accounts'), sessions: await count('sessions'), tokens: await count('verification_tokens') })
		};
	}

	test('stopped in the middle of an OIDC callback: CallbackRouteError logged, nothing written; after a restart a retry works', async () => {
		const world = await postgresWorld();
		const idp = await freshIdp();
		let cutNow = true;
		const adapter: Adapter = {
			...world.adapter,
			getUserByEmail: async (email) => {
				const found = await world.adapter.getUserByEmail(email);
				if (cutNow) await world.proxy.cut();
				return found;
			}
		};
		const { config, log } = worldConfig(adapter, idp);
		const failed = await oidcSignIn(config);
		expectErrorRedirect(failed, 'CallbackRouteError');
		expect(log.text()).toContain('Storing the user or account failed.');
		expect(await world.rows()).toEqual({ users: 0, accounts: 0, sessions: 0, tokens: 0 });

		cutNow = false;
		await world.proxy.restore();
		expect(setsSession(await oidcSignIn(config))).toBe(true);
		expect(setsSession(await credentialsSignIn(config))).toBe(true);
		expect(await world.rows()).toMatchObject({ users: 2, accounts: 2, sessions: 2 });
	});

	test('while stopped: session checks answer 503 and sign-ins fail cleanly; once back, both work', async () => {
		const world = await postgresWorld();
		const { config, log } = worldConfig(world.adapter, { issuer: 'http://127.0.0.1:1' });
		const client = testClient(config);
		expect(setsSession(await credentialsSignIn(config, client))).toBe(true);
		await world.proxy.cut();
		const check = await client.request('/auth/session');
		expect(check.status).toBe(503);
		expect(log.errors.length).toBeGreaterThan(0);
		expectErrorRedirect(await credentialsSignIn(config), 'CallbackRouteError');
		await world.proxy.restore();
		expect(((await (await client.request('/auth/session')).json()) as { user: { name: string } }).user.name).toBe('Ada');
		expect(setsSession(await credentialsSignIn(config))).toBe(true);
		expect((await world.rows()).sessions).toBe(2);
	});

	test('connections terminated by the server (pg_terminate_backend): every attempt ends cleanly, and the pool recovers', async () => {
		const world = await postgresWorld();
		const { config } = worldConfig(world.adapter, { issuer: 'http://127.0.0.1:1' });
		expect(setsSession(await credentialsSignIn(config))).toBe(true);
		const killed = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [world.schema]);
		expect(killed.rowCount).toBeGreaterThan(0);
		// the first attempt may meet a dead connection; it fails cleanly or succeeds, never a 5xx
		const attempts = [await credentialsSignIn(config), await credentialsSignIn(config), await credentialsSignIn(config)];
		for (const response of attempts) expect(response.status).toBe(302);
		expect(setsSession(attempts[2])).toBe(true);
		const rows = await world.rows();
		expect(rows.users).toBe(1);
		expect(rows.sessions).toBe(1 + attempts.filter(setsSession).length);
	});

	test('unreachable from the start: sign-ins fail with the connection error logged', async () => {
		const port = await closedPort();
		const adapter = PostgresAdapter({ connectionString: `postgres://postgres@127.0.0.1:${port}/none` });
		cleanups.push(() => adapter.close());
		const { config, log } = worldConfig(adapter, { issuer: 'http://127.0.0.1:1' });
		expectErrorRedirect(await credentialsSignIn(config), 'CallbackRouteError');
		expect(log.text()).toMatch(/ECONNREFUSED/);
	});
});

describe('SMTP down or silent', () => {
	async function requestLink(config: AuthConfig): Promise<Response> {
		const client = testClient(config);
		const csrfToken = await client.csrfToken();
		return client.request('/auth/signin/email', { form: { csrfToken, email: 'ada@example.com' } });
	}

	test('no server on the port: EmailSignin logged with the cause, the token deleted, no user', async () => {
		const world = await sqliteWorld();
		const { config, log } = worldConfig(world.adapter, { issuer: 'http://127.0.0.1:1' }, { smtpPort: await closedPort() });
		expectErrorRedirect(await requestLink(config), 'EmailSignin');
		expect(log.text()).toMatch(/its one-time token was deleted again.*ECONNREFUSED/s);
		expect(await world.rows()).toEqual({ users: 0, accounts: 0, sessions: 0, tokens: 0 });
	});

	test('a server that accepts and never greets: EmailSignin after the time limit; other sign-ins go on meanwhile', async () => {
		const world = await sqliteWorld();
		const { config, log } = worldConfig(world.adapter, { issuer: 'http://127.0.0.1:1' }, { smtpPort: await silentServer() });
		const pending = requestLink(config);
		expect(setsSession(await credentialsSignIn(config))).toBe(true);
		expectErrorRedirect(await pending, 'EmailSignin');
		expect(log.text()).toMatch(/Sending the sign-in email of provider "email" failed.*(Greeting never received|Timeout|ETIMEDOUT)/is);
		expect((await world.rows()).tokens).toBe(0);
	});
});

describe('identity provider down, slow or malformed', () => {
	test('down (nothing on its port): OAuthSignin, logged as unreachable; credentials still work', async () => {
		const world = await sqliteWorld();
		const { config, log } = worldConfig(world.adapter, { issuer: `http://127.0.0.1:${await closedPort()}` });
		expectErrorRedirect(await oidcSignIn(config), 'OAuthSignin');
		expect(log.text()).toContain('Could not reach the identity provider');
		expect(setsSession(await credentialsSignIn(config))).toBe(true);
	});

	for (const [mode, expected] of [
		['hang', /no answer within 400 ms/],
		['malformed', /metadata/],
		['error', /metadata/]
	] as const) {
		test(`discovery that ${mode === 'hang' ? 'never answers' : mode === 'error' ? 'answers 500' : 'answers malformed JSON'}: OAuthSignin, logged; other sign-ins go on meanwhile`, async () => {
			const world = await sqliteWorld();
			const idp = await freshIdp();
			idp.modes.discovery = mode;
			const { config, log } = worldConfig(world.adapter, idp);
			const pending = oidcSignIn(config);
			expect(setsSession(await credentialsSignIn(config))).toBe(true);
			expectErrorRedirect(await pending, 'OAuthSignin');
			expect(log.text()).toMatch(expected);
			// only ada's credentials sign-in: her user and its `credentials` account
			expect(await world.rows()).toMatchObject({ users: 1, accounts: 1, sessions: 1 });
		});
	}

	for (const [endpoint, mode] of [
		['token', 'hang'],
		['token', 'malformed'],
		['token', 'error'],
		['jwks', 'hang'],
		['jwks', 'malformed'],
		['jwks', 'error']
	] as const) {
		test(`the ${endpoint} endpoint ${mode === 'hang' ? 'never answers' : mode === 'error' ? 'answers 500' : 'answers malformed JSON'} during the callback: OAuthCallbackError, nothing written; a retry works`, async () => {
			const world = await sqliteWorld();
			const idp = await freshIdp();
			const { config, log } = worldConfig(world.adapter, idp);
			const client = testClient(config);
			const callback = await startOidc(client);
			expect(typeof callback).toBe('string');
			idp.modes[endpoint] = mode;
			const pending = client.request(callback as string);
			expect(setsSession(await credentialsSignIn(config))).toBe(true);
			expectErrorRedirect(await pending, 'OAuthCallbackError');
			expect(log.text()).toMatch(/OAuthCallbackError: Provider "faulty"/);
			expect(await world.rows()).toMatchObject({ users: 1, accounts: 1, sessions: 1 });

			idp.modes[endpoint] = 'ok';
			expect(setsSession(await oidcSignIn(config))).toBe(true);
			expect(await world.rows()).toMatchObject({ users: 2, accounts: 2, sessions: 2 });
		});
	}
});

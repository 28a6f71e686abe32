// Users signed in by the real Auth.js stay signed in when the app switches to kitgate
// (`migrateSessionsFrom: "authjs"`), on Express and SvelteKit: JWT cookies made by @auth/core and by
// sign-ins on @auth/express, database sessions written by @auth/pg-adapter (PostgreSQL) and @auth/drizzle-adapter (SQLite).

import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { authjsPgAdapterTables, PostgresAdapter } from '../../adapters/postgres.js';
import { authjsDrizzleSqliteTables, SQLiteAdapter } from '../../adapters/sqlite.js';
import { postgresFromDdl, sqliteFromDdl } from '../../adapters/test/authjs-databases.js';
import Credentials from '../../providers/credentials.js';
import { decodeJwt } from '../crypto/jwt.js';
import type { AuthConfig, CallbacksOptions, Session } from '../types.js';
import {
	authjsCookies,
	authjsCredentialsSignIn,
	authjsEmailProvider,
	authjsEmailSignIn,
	carrySessionCookies,
	loadAuthjs,
	type AuthjsReference
} from './authjs-reference.js';
import { TEST_SECRET } from './client.js';
import { Browser, INTEGRATIONS, startApps, type AppServer } from './integrations.js';
import { quietLogger } from './oauth-fixtures.js';

const OLD_SECRET = 'old-secret-old-secret-old-secret-0123456789';
const OTHER_SECRET = 'someone-elses-secret-someone-elses-secret-01';
const PLAIN = 'authjs.session-token';
const SECURE = '__Secure-authjs.session-token';
const ADA = { name: 'Ada', email: 'ada@example.com', picture: 'https://example.com/ada.png', sub: 'user-ada' };

let authjs: AuthjsReference;
let apps: Awaited<ReturnType<typeof startApps>>;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
	// the first run installs bench/reference (npm, a minute at most)
	[authjs, apps] = await Promise.all([loadAuthjs(), startApps()]);
}, 300_000);
afterAll(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
	await apps?.closeAll();
});

/** The callbacks of an Auth.js app, written once and used as they are by both libraries. */
const jwtAppCallbacks = {
	jwt: ({ token, user }: { token: Record<string, unknown>; user?: unknown }) => (user ? { ...token, role: 'editor' } : token),
	session: ({ session, token }: { session: Session; token?: Record<string, unknown> }) => ({ ...session, role: token?.role, userId: token?.sub })
};

function kitgateConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
	return {
		secret: TEST_SECRET,
		trustHost: true,
		logger: quietLogger().logger,
		providers: [Credentials({ minFailureMs: 0, authorize: ({ username }) => (username ? { id: String(username), name: String(username) } : null) })],
		migrateSessionsFrom: 'authjs',
		...overrides
	};
}

/** A browser that holds exactly `cookies` for `origin`. */
function browserWith(origin: string, cookies: Record<string, string>): Browser {
	const browser = new Browser();
	browser.jar.set(new URL(origin).host, new Map(Object.entries(cookies)));
	return browser;
}

/** The names in `response`'s Set-Cookie lines that it sets to a value, and those it removes. */
function cookieChanges(response: Response): { set: string[]; cleared: string[] } {
	const lines = response.headers.getSetCookie();
	const name = (line: string) => line.slice(0, line.indexOf('='));
	const removes = (line: string) => /max-age=0/i.test(line) || /^[^=]+=;/.test(line);
	return { set: lines.filter((line) => !removes(line)).map(name).sort(), cleared: lines.filter(removes).map(name).sort() };
}

/** The session the app's own page sees (`getSession` / `locals.auth()`), and the cookie changes of that answer. */
async function pageSession(browser: Browser, app: AppServer) {
	const response = await browser.request(`${app.origin}/`);
	const changes = cookieChanges(response);
	return { session: ((await response.json()) as { session: Session | null }).session, ...changes, status: response.status };
}

/** Names of the cookies `browser` holds for `app`. */
function jarNames(browser: Browser, app: AppServer): string[] {
	return [...(browser.jar.get(new URL(app.origin).host)?.keys() ?? [])].sort();
}

const withoutExpires = ({ expires: _expires, ...rest }: Session) => rest;

describe.each(INTEGRATIONS)('%s: JWT cookies made by @auth/core', (integration) => {
	const app = () => apps[integration];

	test('authjs.session-token (HTTP) is a session; kitgate\'s cookie replaces it, with Auth.js\'s claims as they were', async () => {
		app().use(kitgateConfig({ callbacks: jwtAppCallbacks as Partial<CallbacksOptions> }));
		const jwe = await authjs.encode({ token: { ...ADA, role: 'admin', nested: { team: 7 } }, secret: TEST_SECRET, salt: PLAIN });
		const browser = browserWith(app().origin, { [PLAIN]: jwe });
		const first = await pageSession(browser, app());
		expect(first.session).toMatchObject({ user: { name: 'Ada', email: ADA.email, image: ADA.picture }, role: 'admin', userId: 'user-ada' });
		expect(first).toMatchObject({ set: ['kitgate.session-token'], cleared: [PLAIN] });
		expect(jarNames(browser, app())).toEqual(['kitgate.session-token']);

		// the kitgate token holds what Auth.js's held (name, email, picture, sub, custom claims), with its own iat, exp and jti
		const kitgateToken = await decodeJwt({ token: browser.cookie(app().origin, 'kitgate.session-token'), secret: TEST_SECRET, salt: 'kitgate.session-token' });
		const authjsToken = await authjs.decode({ token: jwe, secret: TEST_SECRET, salt: PLAIN });
		const { iat: _a, exp: _b, jti: _c, ...claims } = authjsToken!;
		expect(kitgateToken).toMatchObject(claims);
		expect(kitgateToken?.jti).not.toBe(authjsToken?.jti);

		// the next request carries kitgate's cookie only, and needs no new one
		const second = await pageSession(browser, app());
		expect(withoutExpires(second.session!)).toEqual(withoutExpires(first.session!));
		expect(second).toMatchObject({ set: [], cleared: [] });
	});

	test('__Secure-authjs.session-token (HTTPS) is a session; an unprefixed cookie is not read there', async () => {
		// the test apps listen on plain HTTP: useSecureCookies gives them the names an HTTPS site has
		app().use(kitgateConfig({ useSecureCookies: true }));
		const secure = await pageSession(browserWith(app().origin, { [SECURE]: await authjs.encode({ token: ADA, secret: TEST_SECRET, salt: SECURE }) }), app());
		expect(secure.session?.user).toMatchObject({ name: 'Ada' });
		expect(secure).toMatchObject({ set: ['__Secure-kitgate.session-token'], cleared: [SECURE] });

		const plain = await pageSession(browserWith(app().origin, { [PLAIN]: await authjs.encode({ token: ADA, secret: TEST_SECRET, salt: PLAIN }) }), app());
		expect(plain).toMatchObject({ session: null, set: [], cleared: [] });
	});

	test('a large token, chunked as Auth.js chunks it, is joined; every chunk is cleared', async () => {
		app().use(kitgateConfig());
		const jwe = await authjs.encode({ token: { ...ADA, groups: Array.from({ length: 400 }, (_, index) => `group-${index}`) }, secret: TEST_SECRET, salt: PLAIN });
		const chunks = authjsCookies(PLAIN, jwe);
		expect(Object.keys(chunks).length).toBeGreaterThan(1);
		const browser = browserWith(app().origin, chunks);
		const read = await pageSession(browser, app());
		expect(read.session?.user).toMatchObject({ name: 'Ada' });
		expect(read.cleared).toEqual(Object.keys(chunks).sort());
		expect(jarNames(browser, app()).every((name) => name.startsWith('kitgate.session-token'))).toBe(true);
		expect((await pageSession(browser, app())).session?.user).toMatchObject({ name: 'Ada' });
	});

	test('a cookie made with the second secret of the rotation is a session', async () => {
		app().use(kitgateConfig({ secret: [TEST_SECRET, OLD_SECRET] }));
		const read = await pageSession(browserWith(app().origin, { [PLAIN]: await authjs.encode({ token: ADA, secret: OLD_SECRET, salt: PLAIN }) }), app());
		expect(read.session?.user).toMatchObject({ name: 'Ada' });
		expect(read.cleared).toEqual([PLAIN]);
	});

	test('tampered, expired or foreign cookies: no session, no 5xx, the Auth.js cookie cleared', async () => {
		app().use(kitgateConfig({ secret: [TEST_SECRET, OLD_SECRET] }));
		const jwe = await authjs.encode({ token: ADA, secret: TEST_SECRET, salt: PLAIN });
		const parts = jwe.split('.');
		parts[3] = `${parts[3].slice(0, 20)}${parts[3][20] === 'A' ? 'B' : 'A'}${parts[3].slice(21)}`;
		const bad = {
			tampered: parts.join('.'),
			expired: await authjs.encode({ token: ADA, secret: TEST_SECRET, salt: PLAIN, maxAge: -60 }),
			'another secret': await authjs.encode({ token: ADA, secret: OTHER_SECRET, salt: PLAIN }),
			'another cookie name': await authjs.encode({ token: ADA, secret: TEST_SECRET, salt: 'authjs.pkce.code_verifier' })
		};
		for (const [label, value] of Object.entries(bad)) {
			const read = await pageSession(browserWith(app().origin, { [PLAIN]: value }), app());
			expect(read.status, label).toBe(200);
			expect(read.session, label).toBeNull();
			expect(read.cleared, label).toContain(PLAIN);
			expect(read.set, label).toEqual([]);
		}
	});

	test('a kitgate cookie wins over an Auth.js cookie beside it (which is cleared)', async () => {
		app().use(kitgateConfig());
		const browser = browserWith(app().origin, { [PLAIN]: await authjs.encode({ token: ADA, secret: TEST_SECRET, salt: PLAIN }) });
		expect((await pageSession(browser, app())).session?.user).toMatchObject({ name: 'Ada' });
		// an older Auth.js cookie for another user comes back (tossed, or a stale tab)
		browser.jar.get(new URL(app().origin).host)!.set(PLAIN, await authjs.encode({ token: { ...ADA, sub: 'eve', name: 'Eve' }, secret: TEST_SECRET, salt: PLAIN }));
		const read = await pageSession(browser, app());
		expect(read.session?.user).toMatchObject({ name: 'Ada' });
		expect(read.cleared).toEqual([PLAIN]);
	});

	test('the session route reads it too', async () => {
		app().use(kitgateConfig());
		const browser = browserWith(app().origin, { [PLAIN]: await authjs.encode({ token: ADA, secret: TEST_SECRET, salt: PLAIN }) });
		const response = await browser.request(`${app().origin}/auth/session`);
		expect(await response.json()).toMatchObject({ user: { name: 'Ada' } });
		expect(cookieChanges(response)).toEqual({ set: ['kitgate.session-token'], cleared: [PLAIN] });
	});

	test('sign-out clears the Auth.js cookie with kitgate\'s', async () => {
		app().use(kitgateConfig());
		const browser = browserWith(app().origin, { [PLAIN]: await authjs.encode({ token: ADA, secret: TEST_SECRET, salt: PLAIN }) });
		const csrfToken = await browser.csrfToken(app().origin);
		const response = await browser.request(`${app().origin}/auth/signout`, { form: { csrfToken } });
		expect(response.status).toBe(302);
		expect(cookieChanges(response).cleared).toEqual(expect.arrayContaining([PLAIN, 'kitgate.session-token']));
		expect(jarNames(browser, app()).filter((name) => name.includes('session-token'))).toEqual([]);
		expect((await pageSession(browser, app())).session).toBeNull();
	});

	test('without migrateSessionsFrom the Auth.js cookie is ignored and left alone', async () => {
		app().use(kitgateConfig({ migrateSessionsFrom: undefined }));
		const browser = browserWith(app().origin, { [PLAIN]: await authjs.encode({ token: ADA, secret: TEST_SECRET, salt: PLAIN }) });
		const read = await pageSession(browser, app());
		expect(read).toMatchObject({ session: null, set: [], cleared: [] });
		expect(jarNames(browser, app())).toEqual([PLAIN]);
		const csrfToken = await browser.csrfToken(app().origin);
		const signOut = await browser.request(`${app().origin}/auth/signout`, { form: { csrfToken } });
		expect(cookieChanges(signOut).cleared).not.toContain(PLAIN);
	});
});

test('sveltekit: the signOut form action clears the Auth.js cookie', async () => {
	const app = apps.sveltekit;
	app.use(kitgateConfig());
	const browser = browserWith(app.origin, { [PLAIN]: await authjs.encode({ token: ADA, secret: TEST_SECRET, salt: PLAIN }) });
	const response = await browser.request(`${app.origin}/signout`, { form: {}, headers: { accept: 'text/html' } });
	expect(response.status).toBe(303);
	expect(cookieChanges(response).cleared).toContain(PLAIN);
	expect(jarNames(browser, app)).toEqual([]);
});

describe.each(INTEGRATIONS)('%s: users signed in on @auth/express (JWT)', (integration) => {
	const app = () => apps[integration];

	test('a credentials sign-in keeps its session and its custom fields (set by the Auth.js jwt callback) after the switch', async () => {
		const authjsApp = await authjs.startAuthjsExpress({
			secret: TEST_SECRET,
			trustHost: true,
			basePath: '/auth',
			providers: [authjs.Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: `id-${String(username)}`, name: String(username), email: `${String(username)}@example.com` }) })],
			callbacks: jwtAppCallbacks
		});
		cleanups.push(authjsApp.close);
		const browser = new Browser();
		await authjsCredentialsSignIn(browser, authjsApp.origin, 'ada');
		const before = (await (await browser.request(`${authjsApp.origin}/auth/session`)).json()) as Session;
		expect(before).toMatchObject({ user: { name: 'ada' }, role: 'editor', userId: 'id-ada' });

		carrySessionCookies(browser, authjsApp.origin, app().origin);
		app().use(kitgateConfig({ callbacks: jwtAppCallbacks as Partial<CallbacksOptions> }));
		const after = await pageSession(browser, app());
		expect(withoutExpires(after.session!)).toEqual(withoutExpires(before));
		expect(after.cleared).toEqual([PLAIN]);
	});

	test('a session Auth.js had to chunk keeps working', async () => {
		const authjsApp = await authjs.startAuthjsExpress({
			secret: TEST_SECRET,
			trustHost: true,
			basePath: '/auth',
			providers: [authjs.Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: String(username), name: String(username) }) })],
			callbacks: { jwt: ({ token, user }: { token: Record<string, unknown>; user?: unknown }) => (user ? { ...token, permissions: 'p'.repeat(6000) } : token) }
		});
		cleanups.push(authjsApp.close);
		const browser = new Browser();
		await authjsCredentialsSignIn(browser, authjsApp.origin, 'ada');
		const carried = carrySessionCookies(browser, authjsApp.origin, app().origin);
		expect(Object.keys(carried)).toEqual(expect.arrayContaining([`${PLAIN}.0`, `${PLAIN}.1`]));

		app().use(kitgateConfig({ callbacks: { session: ({ session, token }) => ({ ...session, permissions: String(token?.permissions).length }) } }));
		const read = await pageSession(browser, app());
		expect(read.session).toMatchObject({ user: { name: 'ada' }, permissions: 6000 });
		expect(read.cleared).toEqual(Object.keys(carried).sort());
	});
});

/**
 * The session callback of a database app. It picks its fields: Auth.js 0.41 hands it the stored row
 * and the whole user as `session` (the session token included), kitgate the fields a client may see
 * (docs/decisions.md). Auth.js's pg adapter gives numeric user ids, kitgate decimal strings.
 */
const databaseAppCallbacks = {
	session: ({ session, user }: { session: Session; user?: { id: string | number } }) => ({
		user: { name: session.user.name, email: session.user.email, image: session.user.image },
		expires: session.expires,
		userId: String(user?.id)
	})
};

describe.each(INTEGRATIONS)('%s: database sessions written by Auth.js', (integration) => {
	const app = () => apps[integration];

	/** An @auth/express app with database sessions on `adapter`, signing users in by email. */
	async function authjsDatabaseApp(adapter: unknown) {
		const links: string[] = [];
		const authjsApp = await authjs.startAuthjsExpress({
			secret: TEST_SECRET,
			trustHost: true,
			basePath: '/auth',
			adapter,
			session: { strategy: 'database' },
			providers: [authjsEmailProvider(links)],
			callbacks: databaseAppCallbacks
		});
		cleanups.push(authjsApp.close);
		const browser = new Browser();
		await authjsEmailSignIn(browser, authjsApp.origin, 'ada@example.com', links);
		const before = (await (await browser.request(`${authjsApp.origin}/auth/session`)).json()) as Session;
		expect(before).toMatchObject({ user: { email: 'ada@example.com' } });
		const token = carrySessionCookies(browser, authjsApp.origin, app().origin)[PLAIN];
		return { browser, before, token };
	}

	async function checkTakeOver(kitgate: AuthConfig, signedIn: Awaited<ReturnType<typeof authjsDatabaseApp>>, rowExists: () => Promise<boolean>) {
		const { browser, before, token } = signedIn;
		app().use(kitgate);
		const read = await pageSession(browser, app());
		expect(read.session).toEqual(before);
		expect(read).toMatchObject({ set: ['kitgate.session-token'], cleared: [PLAIN] });
		// the same row, under kitgate's cookie
		expect(browser.cookie(app().origin, 'kitgate.session-token')).toBe(token);
		expect((await pageSession(browser, app())).session).toEqual(before);

		const csrfToken = await browser.csrfToken(app().origin);
		await browser.request(`${app().origin}/auth/signout`, { form: { csrfToken } });
		expect(await rowExists()).toBe(false);
		expect((await pageSession(browser, app())).session).toBeNull();
	}

	test('PostgreSQL: a session of @auth/pg-adapter is found in its sessions table, and sign-out deletes it', async () => {
		const { connectionString, drop } = await postgresFromDdl(inject('databaseUrl'), 'pg-adapter');
		const pool = new pg.Pool({ connectionString, max: 2 });
		pool.on('error', () => undefined);
		const adapter = PostgresAdapter({ connectionString, tables: authjsPgAdapterTables });
		cleanups.push(drop, () => pool.end(), () => adapter.close());
		const signedIn = await authjsDatabaseApp(authjs.PostgresAdapter(pool));
		const rowExists = async () => (await pool.query('select 1 from sessions where "sessionToken" = $1', [signedIn.token])).rowCount === 1;
		expect(await rowExists()).toBe(true);
		await checkTakeOver(kitgateConfig({ adapter, session: { strategy: 'database' }, callbacks: databaseAppCallbacks as Partial<CallbacksOptions> }), signedIn, rowExists);
	});

	test('SQLite: a session of @auth/drizzle-adapter is found in its session table, and sign-out deletes it', async () => {
		const { filename, remove } = sqliteFromDdl('drizzle-sqlite');
		const database = new Database(filename);
		const adapter = SQLiteAdapter({ filename, tables: authjsDrizzleSqliteTables });
		cleanups.push(remove, () => void database.close(), () => adapter.close());
		const signedIn = await authjsDatabaseApp(authjs.DrizzleSqliteAdapter(database));
		const rowExists = async () => database.prepare('select 1 from session where sessionToken = ?').get(signedIn.token) !== undefined;
		expect(await rowExists()).toBe(true);
		await checkTakeOver(kitgateConfig({ adapter, session: { strategy: 'database' }, callbacks: databaseAppCallbacks as Partial<CallbacksOptions> }), signedIn, rowExists);
	});
});

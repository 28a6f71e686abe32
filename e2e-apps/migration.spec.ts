// docs/migrating-from-authjs.md, as a test: an Auth.js app signs a user in on the real Auth.js
// (@auth/sveltekit 1.11.3, @auth/express 0.12.3, as bench/reference pins them); the app is ported
// the way the guide says (its import table, its adapter table, `migrateSessionsFrom: 'authjs'`;
// e2e-apps/authjs-port.ts did it in the set-up) and restarted on kitgate with the same secret and
// database; the same browser is still signed in as the same user with the same session fields.
// Both integrations, both session strategies: JWT, and database sessions in the tables of
// @auth/pg-adapter (PostgreSQL) and @auth/drizzle-adapter (SQLite).

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { loginAtIdp } from './apps.js';
import { portRules } from './authjs-port.js';
import { migrationApps, startApp, svelteCheckErrors, type MigrationApp, type RunningApp } from './migration-apps.js';

const apps = migrationApps();
const GUIDE = readFileSync(resolve(import.meta.dirname, '../docs/migrating-from-authjs.md'), 'utf8');

type Kind = 'sveltekit' | 'express';
type Fields = Record<'name' | 'email' | 'role' | 'id', string | null>;

/** What the protected page shows of the signed-in user (the app's own view of the session). */
async function protectedFields(page: Page, app: MigrationApp): Promise<Fields> {
	await page.goto(`${app.origin}/protected`);
	await expect(page).toHaveURL(`${app.origin}/protected`);
	const text = (id: string) => page.getByTestId(id).textContent();
	return { name: await text('user-name'), email: await text('user-email'), role: await text('user-role'), id: await text('user-id') };
}

/** `GET /auth/session` with the browser's cookies (both libraries serve it). */
async function sessionJson(page: Page, app: MigrationApp): Promise<Record<string, unknown> & { user: Record<string, unknown> }> {
	const response = await page.request.get(`${app.origin}/auth/session`);
	expect(response.status()).toBe(200);
	return (await response.json()) as Record<string, unknown> & { user: Record<string, unknown> };
}

/** The browser's cookies for the app, by name. */
async function cookies(context: BrowserContext, app: MigrationApp): Promise<Map<string, string>> {
	return new Map((await context.cookies(app.origin)).map((cookie) => [cookie.name, cookie.value]));
}

const SESSION_COOKIES = ['authjs.session-token', 'kitgate.session-token'];
const sessionCookieNames = (jar: Map<string, string>) => [...jar.keys()].filter((name) => SESSION_COOKIES.includes(name.replace(/\.\d+$/, ''))).sort();

/** Signs in with the credentials provider on the app's sign-in page (the app's own form, or the built-in page). */
async function signInWithPassword(page: Page, app: MigrationApp, kind: Kind): Promise<void> {
	if (kind === 'sveltekit') {
		await page.goto(`${app.origin}/protected`);
		await expect(page).toHaveURL(`${app.origin}/signin`);
		await page.getByLabel('Email').fill('linus@example.com');
		await page.getByLabel('Password').fill('penguins');
		await page.getByRole('button', { name: 'Sign in with password' }).click();
	} else {
		await page.goto(`${app.origin}/auth/signin?callbackUrl=%2Fprotected`);
		await page.getByLabel('Email').fill('linus@example.com');
		await page.getByLabel('Password').fill('penguins');
		await page.getByRole('button', { name: 'Sign in with Credentials' }).click();
	}
	await expect(page).toHaveURL(`${app.origin}/protected`);
}

/** Signs in through the local identity provider (Auth.js's Keycloak provider, then kitgate's). */
async function signInWithKeycloak(page: Page, app: MigrationApp, kind: Kind): Promise<void> {
	await page.goto(kind === 'sveltekit' ? `${app.origin}/signin` : `${app.origin}/auth/signin?callbackUrl=%2Fprotected`);
	await page.getByRole('button', { name: 'Sign in with Keycloak' }).click();
	await loginAtIdp(page, apps.idpUser.login);
	await expect(page).toHaveURL(`${app.origin}/protected`);
}

/** Signs out with the app's sign-out button (SvelteKit: the `SignOut` component; Express: the built-in page). */
async function signOut(page: Page, app: MigrationApp, kind: Kind): Promise<void> {
	await page.goto(kind === 'sveltekit' ? `${app.origin}/` : `${app.origin}/auth/signout`);
	// CSS written for Auth.js's forms keeps applying: kitgate's form carries Auth.js's class too
	if (kind === 'sveltekit') await expect(page.locator('form.signOutButton')).toHaveCount(1);
	await page.getByRole('button', { name: /sign out/i }).click();
	if (kind === 'express') await page.goto(`${app.origin}/`);
	await expect(page.getByText('You are not signed in')).toBeVisible();
}

/** The database session row of `token`, or undefined (Auth.js's own table, read directly). */
async function sessionRow(app: MigrationApp, token: string): Promise<Record<string, unknown> | undefined> {
	if ('skipped' in app.database) throw new Error('no database');
	if (app.database.kind === 'sqlite') {
		const database = new Database(app.database.url, { readonly: true });
		try {
			return database.prepare('SELECT * FROM session WHERE sessionToken = ?').get(token) as Record<string, unknown> | undefined;
		} finally {
			database.close();
		}
	}
	const client = new pg.Client({ connectionString: app.database.url });
	await client.connect();
	try {
		return (await client.query('SELECT * FROM sessions WHERE "sessionToken" = $1', [token])).rows[0] as Record<string, unknown> | undefined;
	} finally {
		await client.end();
	}
}

/** Runs `body` with the app's `library` version started, and stops it afterwards (its log goes into the failure). */
async function withApp<T>(app: MigrationApp, library: 'authjs' | 'kitgate', env: Record<string, string>, body: (server: RunningApp) => Promise<T>): Promise<T> {
	const server = await startApp(app, library, env);
	try {
		return await body(server);
	} catch (error) {
		throw new Error(`${(error as Error).message}\n--- ${library} server output ---\n${server.output()}`, { cause: error });
	} finally {
		await server.stop();
	}
}

const LABEL: Record<Kind, string> = { sveltekit: 'SvelteKit (@auth/sveltekit → kitgate/sveltekit)', express: 'Express (@auth/express → kitgate/express)' };

for (const kind of ['sveltekit', 'express'] as const) {
	const app = apps[kind];

	test.describe(LABEL[kind], () => {
		test('JWT sessions: signed in with a password on Auth.js, still signed in on kitgate with the same session, then signed out', async ({ page, context }) => {
			test.setTimeout(90_000);
			const before = await withApp(app, 'authjs', {}, async () => {
				await signInWithPassword(page, app, kind);
				const fields = await protectedFields(page, app);
				await page.goto(`${app.origin}/`);
				const signOutForm = await page.locator('form.signOutButton').count();
				return { fields, signOutForm, session: await sessionJson(page, app), cookies: sessionCookieNames(await cookies(context, app)) };
			});
			expect(before.fields).toEqual({ name: 'Linus', email: 'linus@example.com', role: 'admin', id: '(none)' });
			expect(before.signOutForm).toBe(kind === 'sveltekit' ? 1 : 0);
			expect(before.cookies).toEqual(['authjs.session-token']);

			await withApp(app, 'kitgate', {}, async () => {
				expect(await protectedFields(page, app)).toEqual(before.fields);
				// the page's own session read (SvelteKit's hook; Express's getSession(req, authConfig), Auth.js's form) replaced it
				expect(sessionCookieNames(await cookies(context, app))).toEqual(['kitgate.session-token']);
				const after = await sessionJson(page, app);
				expect(after.user).toEqual(before.session.user);
				expect(Object.keys(after).sort()).toEqual(Object.keys(before.session).sort());
				expect(sessionCookieNames(await cookies(context, app))).toEqual(['kitgate.session-token']);
				// read from kitgate's cookie alone now
				expect(await protectedFields(page, app)).toEqual(before.fields);
				await signOut(page, app, kind);
				expect(sessionCookieNames(await cookies(context, app))).toEqual([]);
				await page.goto(`${app.origin}/protected`);
				await expect(page).not.toHaveURL(`${app.origin}/protected`);
			});
		});

		test(`database sessions (${app.database && 'kind' in app.database ? app.database.kind : 'no database'}, Auth.js's tables): signed in with the identity provider on Auth.js, still signed in on kitgate, then signed out`, async ({
			page,
			context
		}) => {
			// npm test needs PostgreSQL (README): without it this test fails and says why
			if ('skipped' in app.database) throw new Error(`This test needs PostgreSQL (apt-get install postgresql): ${app.database.skipped}`);
			test.setTimeout(90_000);
			const database = app.database;
			const { env } = database;
			const before = await withApp(app, 'authjs', env, async () => {
				await signInWithKeycloak(page, app, kind);
				return { fields: await protectedFields(page, app), session: await sessionJson(page, app), cookies: await cookies(context, app) };
			});
			expect(before.fields).toEqual({ name: 'Grace Hopper', email: apps.idpUser.email, role: 'member', id: expect.any(String) });
			expect(sessionCookieNames(before.cookies)).toEqual(['authjs.session-token']);
			const token = before.cookies.get('authjs.session-token') as string;
			expect(await sessionRow(app, token)).toBeTruthy();

			await withApp(app, 'kitgate', env, async () => {
				expect(await protectedFields(page, app)).toEqual(before.fields);
				const after = await sessionJson(page, app);
				// the app's fields and the default ones are the same, and so is the expiry (the same row); Auth.js
				// also sent the row it read (docs/migrating-from-authjs.md, "Where the port is not only imports")
				expect(Object.keys(after).sort()).toEqual(['expires', 'user']);
				expect(after.expires).toBe(before.session.expires);
				expect(Object.keys(withoutKeys(before.session, ['expires', 'user', 'id'])).sort()).toEqual(['sessionToken', 'userId']);
				// the same stored user; @auth/pg-adapter's SERIAL ids reached the app as numbers, kitgate reads them as strings
				expect(after.user).toEqual(withoutKeys(before.session.user, [], { id: String(before.session.user.id) }));
				expect(typeof before.session.user.id).toBe(database.kind === 'postgres' ? 'number' : 'string');
				// the same row, now under kitgate's cookie
				const jar = await cookies(context, app);
				expect(sessionCookieNames(jar)).toEqual(['kitgate.session-token']);
				expect(jar.get('kitgate.session-token')).toBe(token);
				await signOut(page, app, kind);
				expect(await sessionRow(app, token)).toBeUndefined();
			});
		});
	});
}

/** `record` without `keys`, with `replace` laid over it. */
function withoutKeys(record: Record<string, unknown>, keys: string[], replace: Record<string, unknown> = {}): Record<string, unknown> {
	return { ...Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key))), ...replace };
}

test.describe('The port is the guide, and the type checker finds what the guide lists', () => {
	test('each app was ported by its imports, the adapter line of the guide and migrateSessionsFrom only', () => {
		const { adapters } = portRules();
		const isRemovable = (line: string) => /['"]@auth\//.test(line) || adapters.some((rule) => line.includes(rule.authjsCall));
		const isAddable = (line: string) =>
			/['"]kitgate[/'"]|^\s*migrateSessionsFrom: 'authjs',$|^\s*\/\/ keeps the users Auth\.js signed in/.test(line) || adapters.some((rule) => line.includes(rule.kitgateCall));
		for (const kind of ['sveltekit', 'express'] as const) {
			const changed = apps[kind].ported.filter((file) => file.added.length);
			expect(changed.length, kind).toBeGreaterThan(0);
			for (const file of apps[kind].ported) {
				for (const line of file.removed) expect(isRemovable(line), `${kind} ${file.file}: ${line}`).toBe(true);
				for (const line of file.added) expect(isAddable(line), `${kind} ${file.file}: ${line}`).toBe(true);
			}
		}
	});

	test('SvelteKit: svelte-check passes on Auth.js; after the port it points at exactly the lines the guide lists', () => {
		test.setTimeout(3 * 60_000);
		const app = apps.sveltekit;
		expect(app.authjsCheckErrors).toEqual([]);
		let output: string;
		try {
			output = execFileSync('npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--output', 'machine'], { cwd: app.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
		} catch (error) {
			output = String((error as { stdout?: string }).stdout ?? '');
		}
		const auth = readFileSync(join(app.dir, 'src/auth.ts'), 'utf8').split('\n');
		const lineOf = (text: string) => auth.findIndex((line) => line.includes(text)) + 1;
		const expected = [
			`src/auth.ts:${lineOf('session.user.id = user.id;')} 'user' is possibly 'undefined'.`,
			`src/auth.ts:${lineOf('session.user.role = roleOf(user.email);')} 'user' is possibly 'undefined'.`,
			`src/auth.ts:${lineOf('session.user.role = token.role;')} 'token' is possibly 'undefined'.`
		];
		expect(svelteCheckErrors(output)).toEqual(expected);
		// the guide names each message
		for (const message of new Set(expected.map((line) => line.slice(line.indexOf(' ') + 1)))) expect(GUIDE).toContain(message.replace(/\.$/, ''));
	});
});

// Real apps from the packed tarball, made the way users make them: a SvelteKit app by `sv create`
// and a plain Express 5 app, each following its getting-started guide word by word, and an
// Auth.js-style SvelteKit app whose only change was its imports (fixtures/authjs-style-sveltekit).
// Each is built with no AUTH_* variable and started in production mode with only what its guide
// says to set, against a local identity provider (oidc-provider) and mail sink (smtp-server).

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
// the IdP and mailbox kitgate/testing gives apps (src/lib/testing/), as a user's set-up starts them
import { startTestIdp } from '../src/lib/testing/idp.js';
import { startTestMailbox } from '../src/lib/testing/mailbox.js';
import { sharePrebuiltSqlite } from '../scripts/prebuilt-sqlite.js';
import { followGuide, readEnvFile, setEnvFile } from './guide.js';
import { mustRun } from './run-command.js';
import { migrationOrigins, prepareMigrationApps } from './migration-apps.js';
import { freePort } from '../scripts/free-port.js';

const ROOT = resolve(import.meta.dirname, '..');
/** The `sv` that makes SvelteKit 2 apps on Node 20 (its templates are checked by this test). */
export const SV = 'sv@0.17.1';
export const REPORT = join(ROOT, 'reports/real-apps.json');

/**
 * The apps: the getting-started guides' SvelteKit (an app with no CSS of its own) and Express apps,
 * the Auth.js-style app, and the guide's app made with Tailwind CSS 4 and with Skeleton's theme
 * (docs/with-tailwind.md, docs/with-skeleton.md), the host apps of the component tests.
 */
export type AppName = 'sveltekit' | 'express' | 'authjs' | 'tailwind' | 'skeleton';

/** What the specs read: where each app runs, the mailbox, the IdP's user. */
export interface RealApps {
	work: string;
	tarball: string;
	mailbox: string;
	idpUser: { login: string; email: string };
	apps: Record<AppName, { origin: string; dir: string }>;
	/** The variables each app was started with (for the start-up specs). */
	env: Record<AppName, Record<string, string>>;
}

const children: ChildProcess[] = [];

/**
 * REAL_APPS_ONLY=sveltekit,express: only these apps are made and started (and the migration apps
 * only when `migration` is listed), to run one spec while working on it. Unset: all of them.
 */
const only = process.env.REAL_APPS_ONLY?.split(',').map((name) => name.trim());
const wanted = (name: AppName | 'migration'): boolean => !only || only.includes(name);

/** Playwright's global set-up: builds and starts the three apps; returns the teardown. */
export default async function setup(): Promise<() => Promise<void>> {
	// REAL_APPS_REUSE=1 (after a run with KEEP_REAL_APPS=1): the apps on disk are used as they are,
	// none is built or started (for the docs type check while editing docs)
	if (process.env.REAL_APPS_REUSE && existsSync(REPORT)) return async () => {};
	const work = mkdtempSync(join(tmpdir(), 'kitgate-real-apps-'));
	const tarball = pack(work);
	// every app installs better-sqlite3: from the binary compiled for this repository, not compiled again
	sharePrebuiltSqlite(join(ROOT, 'node_modules/better-sqlite3'));
	// REAL_APPS_PACK_ONLY=1: only the tarball, for the specs that make their own apps from it
	// (deploying.spec.ts, cloudflare.spec.ts); the others need the apps and cannot run so
	if (process.env.REAL_APPS_PACK_ONLY) return packOnly(work, tarball);
	const [svelteKitPort, expressPort, authjsPort, tailwindPort, skeletonPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
	const origins = {
		sveltekit: `http://127.0.0.1:${svelteKitPort}`,
		express: `http://127.0.0.1:${expressPort}`,
		authjs: `http://127.0.0.1:${authjsPort}`,
		tailwind: `http://127.0.0.1:${tailwindPort}`,
		skeleton: `http://127.0.0.1:${skeletonPort}`
	};
	// the Auth.js apps of migration.spec.ts (e2e-apps/migration-apps.ts)
	const migrationApps = await migrationOrigins();
	const mail = await startTestMailbox({ httpPort: 0 });
	const idpUser = { id: 'grace', email: 'grace@example.com', email_verified: true, name: 'Grace Hopper' };
	const client = { client_id: 'real-app', client_secret: 'real-app-secret-real-app-secret', redirect_uris: [] as string[] };
	client.redirect_uris = [...Object.values(origins), ...Object.values(migrationApps)].flatMap((origin) => ['oidc', 'keycloak'].map((id) => `${origin}/auth/callback/${id}`));
	const idp = await startTestIdp({ clients: [client], accounts: [idpUser] });
	// what a user fills into .env: their identity provider and mail server
	const providerEnv = {
		AUTH_OIDC_ID: client.client_id,
		AUTH_OIDC_SECRET: client.client_secret,
		AUTH_OIDC_ISSUER: idp.issuer,
		AUTH_EMAIL_SERVER: mail.smtpUrl,
		AUTH_EMAIL_FROM: 'Real App <no-reply@real-app.test>'
	};

	const dirs = {
		sveltekit: join(work, 'sveltekit-app'),
		express: join(work, 'express-app'),
		authjs: join(work, 'authjs-app'),
		tailwind: join(work, 'tailwind-app'),
		skeleton: join(work, 'skeleton-app')
	};
	const stopMigration = !wanted('migration')
		? Promise.resolve(() => {})
		: prepareMigrationApps({
				work,
				tarball,
				origins: migrationApps,
				idp: { issuer: idp.issuer, clientId: client.client_id, clientSecret: client.client_secret },
				idpUser: { login: idpUser.id, email: idpUser.email, name: idpUser.name }
			});
	const apps = Promise.all([
		stopMigration,
		wanted('sveltekit') && svelteKitApp(dirs.sveltekit, tarball, providerEnv),
		// the host apps of the component tests: the same guide in an app with Tailwind, and with Skeleton
		wanted('tailwind') && hostApp(dirs.tailwind, tarball, providerEnv, 'docs/with-tailwind.md'),
		wanted('skeleton') && hostApp(dirs.skeleton, tarball, providerEnv, 'docs/with-skeleton.md'),
		wanted('express') && expressApp(dirs.express, tarball, { ...providerEnv, AUTH_URL: origins.express }),
		wanted('authjs') &&
			authjsStyleApp(dirs.authjs, tarball, {
				AUTH_KEYCLOAK_ID: client.client_id,
				AUTH_KEYCLOAK_SECRET: client.client_secret,
				AUTH_KEYCLOAK_ISSUER: idp.issuer
			})
	]);
	try {
		await apps;
	} catch (error) {
		// the migration apps' PostgreSQL cluster must not outlive a failed set-up
		(await stopMigration.catch(() => () => {}))();
		throw error;
	}

	// production, with only what the guides say to set: ORIGIN for adapter-node, AUTH_URL for Express, and .env
	const envOf = (name: AppName, extra: Record<string, string> = {}) => (wanted(name) ? { ...readEnvFile(dirs[name]), ...extra } : {});
	const env = {
		sveltekit: envOf('sveltekit', { ORIGIN: origins.sveltekit }),
		express: envOf('express'),
		authjs: envOf('authjs', { ORIGIN: origins.authjs }),
		tailwind: envOf('tailwind', { ORIGIN: origins.tailwind }),
		skeleton: envOf('skeleton', { ORIGIN: origins.skeleton })
	};
	await Promise.all([
		wanted('sveltekit') && start(dirs.sveltekit, ['--env-file=.env', 'build'], { ORIGIN: origins.sveltekit, PORT: String(svelteKitPort) }, origins.sveltekit),
		wanted('express') && start(dirs.express, ['--env-file=.env', 'server.js'], { PORT: String(expressPort) }, origins.express),
		wanted('authjs') && start(dirs.authjs, ['--env-file=.env', 'build'], { ORIGIN: origins.authjs, PORT: String(authjsPort) }, origins.authjs),
		wanted('tailwind') && start(dirs.tailwind, ['--env-file=.env', 'build'], { ORIGIN: origins.tailwind, PORT: String(tailwindPort) }, origins.tailwind),
		wanted('skeleton') && start(dirs.skeleton, ['--env-file=.env', 'build'], { ORIGIN: origins.skeleton, PORT: String(skeletonPort) }, origins.skeleton)
	]);

	const report: RealApps = {
		work,
		tarball,
		mailbox: mail.url as string,
		idpUser: { login: idpUser.id, email: idpUser.email },
		apps: {
			sveltekit: { origin: origins.sveltekit, dir: dirs.sveltekit },
			express: { origin: origins.express, dir: dirs.express },
			authjs: { origin: origins.authjs, dir: dirs.authjs },
			tailwind: { origin: origins.tailwind, dir: dirs.tailwind },
			skeleton: { origin: origins.skeleton, dir: dirs.skeleton }
		},
		env
	};
	mkdirSync(join(ROOT, 'reports'), { recursive: true });
	writeFileSync(REPORT, JSON.stringify(report, null, 2));

	return async () => {
		for (const child of children) child.kill();
		(await stopMigration)();
		await Promise.all([idp.close(), mail.close()]);
		// KEEP_REAL_APPS=1 leaves the apps on disk, to look at them or to run the docs check again
		if (!process.env.KEEP_REAL_APPS) rmSync(work, { recursive: true, force: true });
	};
}

/** Writes a report with the tarball and no app; the teardown removes it (unless KEEP_REAL_APPS=1). */
function packOnly(work: string, tarball: string): () => Promise<void> {
	mkdirSync(join(ROOT, 'reports'), { recursive: true });
	writeFileSync(REPORT, JSON.stringify({ work, tarball }, null, 2));
	return async () => {
		if (!process.env.KEEP_REAL_APPS) rmSync(work, { recursive: true, force: true });
	};
}

/** `npm pack` of the repository (its dist/ was just built by svelte-package). */
function pack(work: string): string {
	const output = execFileSync('npm', ['pack', '--pack-destination', work, '--json'], { cwd: ROOT, encoding: 'utf8' });
	return join(work, (JSON.parse(output) as { filename: string }[])[0].filename);
}

/** The environment of build commands: no AUTH_* variable at all (CI and Docker builds have none). */
function buildEnv(): NodeJS.ProcessEnv {
	return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AUTH_') && name !== 'NODE_ENV'));
}

async function svelteKitApp(dir: string, tarball: string, env: Record<string, string>): Promise<void> {
	await createSvelteKitApp(dir);
	await followGuide(dir, join(ROOT, 'docs/getting-started-sveltekit.md'), { tarball, env, commandEnv: buildEnv() });
	// the guide ends with `npm run build`: it needed no secret and made no database
	if (!existsSync(join(dir, 'build/index.js'))) throw new Error('The SvelteKit app was not built');
	if (existsSync(join(dir, '.data'))) throw new Error('Building the SvelteKit app created .data/');
}

/**
 * The guide's app made by `sv create` with the Tailwind add-on, then the recipe `recipe` on top
 * (its stylesheet, layout and, for Skeleton, the theme package). Each installs like a user's app
 * (better-sqlite3's prebuilt binary from npm's cache: scripts/prebuilt-sqlite.js).
 */
async function hostApp(dir: string, tarball: string, env: Record<string, string>, recipe: string): Promise<void> {
	await createSvelteKitApp(dir, ['--add', 'tailwindcss=plugins:none']);
	await followGuide(dir, join(ROOT, 'docs/getting-started-sveltekit.md'), { tarball, env, commandEnv: buildEnv() });
	await followGuide(dir, join(ROOT, recipe), { tarball, env, commandEnv: buildEnv() });
	if (!existsSync(join(dir, 'build/index.js'))) throw new Error(`The app of ${recipe} was not built`);
}

async function expressApp(dir: string, tarball: string, env: Record<string, string>): Promise<void> {
	mkdirSync(dir, { recursive: true });
	await followGuide(dir, join(ROOT, 'docs/getting-started-express.md'), { tarball, env, commandEnv: buildEnv() });
	// for the type check of the docs' Express blocks (not part of the guide)
	await mustRun('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', 'typescript@6', '@types/express@5', '@types/node@20', 'pg@8', '@types/pg@8', 'redis@6', '@libsql/kysely-libsql@0.4', '@libsql/client@0.18'], {
		cwd: dir,
		timeout: 10 * 60_000
	});
}

/** An Auth.js SvelteKit app (its files as Auth.js's docs write them) with its imports switched to kitgate. */
async function authjsStyleApp(dir: string, tarball: string, env: Record<string, string>): Promise<void> {
	await createSvelteKitApp(dir);
	cpSync(join(ROOT, 'fixtures/authjs-style-sveltekit'), dir, { recursive: true });
	await mustRun('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball, '@sveltejs/adapter-node@5'], { cwd: dir, env: buildEnv(), timeout: 15 * 60_000 });
	setEnvFile(dir, { AUTH_SECRET: 'authjs-style-app-secret-authjs-style-app-secret', ...env });
	await mustRun('npm', ['run', 'build'], { cwd: dir, env: buildEnv(), timeout: 10 * 60_000 });
}

async function createSvelteKitApp(dir: string, addOns: string[] = ['--no-add-ons']): Promise<void> {
	await mustRun('npx', ['--yes', SV, 'create', dir, '--template', 'minimal', '--types', 'ts', ...addOns, '--no-install'], { timeout: 5 * 60_000 });
}

/** Starts `node <args>` in `dir` in production mode and waits until `origin` answers. */
async function start(dir: string, args: string[], env: Record<string, string>, origin: string): Promise<void> {
	const child = spawn('node', args, {
		cwd: dir,
		env: { ...buildEnv(), NODE_ENV: 'production', HOST: '127.0.0.1', ...env },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	children.push(child);
	let output = '';
	child.stdout?.on('data', (chunk) => (output += String(chunk)));
	child.stderr?.on('data', (chunk) => (output += String(chunk)));
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`${dir} exited with ${child.exitCode}:\n${output}`);
		try {
			await fetch(origin);
			return;
		} catch {
			await new Promise((wait) => setTimeout(wait, 200));
		}
	}
	throw new Error(`${dir} did not answer at ${origin}:\n${output}`);
}

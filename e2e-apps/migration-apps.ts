// The apps of the Auth.js migration test (e2e-apps/migration.spec.ts), prepared by the real-apps
// set-up: an Auth.js SvelteKit app (fixtures/authjs-migration-sveltekit, on the real @auth/sveltekit)
// and an Auth.js Express app (fixtures/authjs-migration-express, on the real @auth/express), each
// installed from the registry at the versions bench/reference pins, then ported to kitgate as
// docs/migrating-from-authjs.md says (e2e-apps/authjs-port.ts). Both versions stay on disk: the
// SvelteKit app's Auth.js build is kept as build-authjs/, the Express app's Auth.js files in authjs/.
// Their databases are made here by the exact DDL of Auth.js's adapters: PostgreSQL for
// @auth/pg-adapter (a throwaway cluster) and a SQLite file for @auth/drizzle-adapter.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { portFromAuthjs, type PortedFile } from './authjs-port.js';
import { freePort } from '../scripts/free-port.js';

const ROOT = resolve(import.meta.dirname, '..');
export const MIGRATION_REPORT = join(ROOT, 'reports/migration-apps.json');
const SV = 'sv@0.17.1';

/** One app of the migration test: where it runs, how to start each version, its environment. */
export interface MigrationApp {
	dir: string;
	origin: string;
	port: number;
	/** `node` arguments (in `dir`) of the Auth.js version and of the ported one. */
	start: { authjs: string[]; kitgate: string[] };
	/** The environment both versions get: the same secret and identity provider. */
	env: Record<string, string>;
	/** What the database-session variant adds to `env`, or why there is none. */
	database: { env: Record<string, string>; kind: 'postgres' | 'sqlite'; url: string } | { skipped: string };
	/** What the port changed, file by file. */
	ported: PortedFile[];
	/** svelte-check's errors on the Auth.js version, before the port (SvelteKit only). */
	authjsCheckErrors?: string[];
}

export interface MigrationApps {
	sveltekit: MigrationApp;
	express: MigrationApp;
	idpUser: { login: string; email: string; name: string };
}

/** The report the set-up wrote. */
export function migrationApps(): MigrationApps {
	return JSON.parse(readFileSync(MIGRATION_REPORT, 'utf8')) as MigrationApps;
}

/** The pinned versions of bench/reference/package.json (the Auth.js packages the compatibility tests use). */
function pinned(name: string): string {
	const manifest = JSON.parse(readFileSync(join(ROOT, 'bench/reference/package.json'), 'utf8')) as { dependencies: Record<string, string> };
	const version = manifest.dependencies[name];
	if (!version) throw new Error(`bench/reference/package.json pins no ${name}`);
	return `${name}@${version}`;
}

/** The environment of installs and builds: no AUTH_* variable (as in the other real apps). */
function buildEnv(): NodeJS.ProcessEnv {
	return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AUTH_') && name !== 'NODE_ENV' && name !== 'DATABASE_URL'));
}

async function run(command: string, args: string[], cwd: string, timeout = 10 * 60_000): Promise<string> {
	try {
		const { stdout } = await promisify(execFile)(command, args, { cwd, env: buildEnv(), timeout, maxBuffer: 64 * 1024 * 1024 });
		return stdout;
	} catch (error) {
		const failed = error as { stdout?: string; stderr?: string; message: string };
		throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`, { cause: error });
	}
}

/** Two free ports on 127.0.0.1, for the identity provider's redirect URIs. */
export async function migrationOrigins(): Promise<Record<'sveltekit' | 'express', string>> {
	const [sveltekit, express] = [await freePort(), await freePort()];
	return { sveltekit: `http://127.0.0.1:${sveltekit}`, express: `http://127.0.0.1:${express}` };
}

export interface MigrationSetupOptions {
	work: string;
	tarball: string;
	origins: Record<'sveltekit' | 'express', string>;
	/** A client of the local identity provider whose redirect URIs include `{origin}/auth/callback/keycloak`. */
	idp: { issuer: string; clientId: string; clientSecret: string };
	idpUser: { login: string; email: string; name: string };
}

/** The secret both versions of both apps run with (Auth.js signed the users in with it). */
const SECRET = 'authjs-migration-secret-authjs-migration-secret';

/**
 * Prepares both apps and their databases, writes the report, and returns the teardown (the
 * throwaway PostgreSQL cluster).
 */
export async function prepareMigrationApps(options: MigrationSetupOptions): Promise<() => void> {
	const postgres = await authjsPostgres();
	try {
		return await prepareWith(options, postgres);
	} catch (error) {
		if ('stop' in postgres) postgres.stop();
		throw error;
	}
}

async function prepareWith(options: MigrationSetupOptions, postgres: Awaited<ReturnType<typeof authjsPostgres>>): Promise<() => void> {
	const { work, tarball, origins, idp } = options;
	const keycloak = { AUTH_KEYCLOAK_ID: idp.clientId, AUTH_KEYCLOAK_SECRET: idp.clientSecret, AUTH_KEYCLOAK_ISSUER: idp.issuer };
	const sqliteFile = join(work, 'authjs-drizzle.sqlite');
	const sqlite = new Database(sqliteFile);
	sqlite.exec(authjsDdl('drizzle-sqlite'));
	sqlite.close();

	const sveltekitDir = join(work, 'authjs-migration-sveltekit');
	const expressDir = join(work, 'authjs-migration-express');
	const [sveltekit, express] = await Promise.all([prepareSvelteKit(sveltekitDir, tarball), prepareExpress(expressDir, tarball)]);

	const port = (origin: string) => Number(new URL(origin).port);
	const report: MigrationApps = {
		sveltekit: {
			dir: sveltekitDir,
			origin: origins.sveltekit,
			port: port(origins.sveltekit),
			start: { authjs: ['build-authjs'], kitgate: ['build'] },
			// adapter-node's ORIGIN; @auth/sveltekit needs `trustHost: true` in the config, which the app has
			env: { AUTH_SECRET: SECRET, ...keycloak, ORIGIN: origins.sveltekit, PORT: String(port(origins.sveltekit)) },
			database: 'url' in postgres ? { env: { DATABASE_URL: postgres.url }, kind: 'postgres', url: postgres.url } : { skipped: postgres.skipped },
			ported: sveltekit.ported,
			authjsCheckErrors: sveltekit.authjsCheckErrors
		},
		express: {
			dir: expressDir,
			origin: origins.express,
			port: port(origins.express),
			start: { authjs: ['authjs/server.js'], kitgate: ['server.js'] },
			env: { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: 'true', ...keycloak, PORT: String(port(origins.express)) },
			database: { env: { DB_FILE_NAME: sqliteFile }, kind: 'sqlite', url: sqliteFile },
			ported: express.ported
		},
		idpUser: options.idpUser
	};
	mkdirSync(join(ROOT, 'reports'), { recursive: true });
	writeFileSync(MIGRATION_REPORT, JSON.stringify(report, null, 2));
	return () => ('stop' in postgres ? postgres.stop() : undefined);
}

/** The SQL of one of Auth.js's adapter schemas (the test fixtures of src/lib/server/adapters), without psql's own commands. */
function authjsDdl(schema: 'pg-adapter' | 'drizzle-sqlite'): string {
	const text = readFileSync(join(ROOT, `src/lib/server/adapters/test/authjs-schemas/${schema}.sql`), 'utf8');
	return text
		.split('\n')
		.filter((line) => !line.startsWith('\\'))
		.join('\n');
}

/** What bench/postgres.js's startPostgres() gives: DATABASE_URL's server, or a throwaway cluster. */
interface PostgresServer {
	url: string;
	source: string;
	stop(): void;
}

/**
 * A PostgreSQL database of its own with @auth/pg-adapter's tables: in a throwaway cluster (or in
 * the server of DATABASE_URL). Without PostgreSQL the database variant fails (it says why); in CI the set-up stops.
 */
async function authjsPostgres(): Promise<{ url: string; stop: () => void } | { skipped: string }> {
	let server: PostgresServer;
	try {
		// the benchmark's throwaway cluster (bench/postgres.js), loaded by URL so that the type check stays out of bench/
		const { startPostgres } = (await import(pathToFileURL(join(ROOT, 'bench/postgres.js')).href)) as { startPostgres(): Promise<PostgresServer> };
		server = await startPostgres();
	} catch (error) {
		if (process.env.CI) throw error;
		return { skipped: `no PostgreSQL: ${(error as Error).message}` };
	}
	const database = `authjs_migration_${process.pid}`;
	const admin = new pg.Client({ connectionString: server.url });
	await admin.connect();
	await admin.query(`DROP DATABASE IF EXISTS ${database}`);
	await admin.query(`CREATE DATABASE ${database}`);
	await admin.end();
	const url = new URL(server.url);
	url.pathname = `/${database}`;
	const client = new pg.Client({ connectionString: url.href });
	await client.connect();
	await client.query(authjsDdl('pg-adapter'));
	await client.end();
	const stop = () => {
		if (server.source !== 'throwaway cluster') {
			// a server we do not own: drop our database only
			void (async () => {
				const cleanup = new pg.Client({ connectionString: server.url });
				await cleanup.connect();
				await cleanup.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
				await cleanup.end();
			})().catch(() => undefined);
		}
		server.stop();
	};
	return { url: url.href, stop };
}

/** The SvelteKit app: made by sv, the fixture copied over it, Auth.js installed and built, then ported and built. */
async function prepareSvelteKit(dir: string, tarball: string): Promise<{ ported: PortedFile[]; authjsCheckErrors: string[] }> {
	await run('npx', ['--yes', SV, 'create', dir, '--template', 'minimal', '--types', 'ts', '--no-add-ons', '--no-install'], ROOT);
	cpSync(join(ROOT, 'fixtures/authjs-migration-sveltekit'), dir, { recursive: true });
	rmSync(join(dir, 'README.md'));
	// kitgate is installed with the rest to save an install; nothing imports it until the port
	await run(
		'npm',
		['install', '--no-audit', '--no-fund', '--loglevel=error', pinned('@auth/sveltekit'), pinned('@auth/pg-adapter'), 'pg@8.23.1', '@types/pg@8.23.1', '@sveltejs/adapter-node@5', tarball],
		dir,
		15 * 60_000
	);
	await run('npx', ['svelte-kit', 'sync'], dir);
	const authjsCheckErrors = svelteCheckErrors(await runChecked('npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--output', 'machine'], dir));
	await run('npm', ['run', 'build'], dir);
	renameSync(join(dir, 'build'), join(dir, 'build-authjs'));
	const ported = portFromAuthjs(dir, {
		files: ['src/auth.ts', 'src/app.d.ts', 'src/hooks.server.ts', 'src/routes/+layout.server.ts', 'src/routes/+page.svelte', 'src/routes/signin/+page.server.ts', 'src/routes/signin/+page.svelte', 'src/routes/signout/+page.server.ts', 'src/routes/protected/+page.server.ts', 'src/routes/protected/+page.svelte'],
		config: { file: 'src/auth.ts', opens: /SvelteKitAuth\(\{$/ }
	});
	await run('npm', ['run', 'build'], dir);
	return { ported, authjsCheckErrors };
}

/** The Express app: npm init, Auth.js and Drizzle installed, the Auth.js files kept in authjs/, then ported in place. */
async function prepareExpress(dir: string, tarball: string): Promise<{ ported: PortedFile[] }> {
	mkdirSync(dir, { recursive: true });
	await run('npm', ['init', '--yes'], dir);
	await run('npm', ['pkg', 'set', 'type=module'], dir);
	for (const file of ['server.js', 'auth.js']) cpSync(join(ROOT, 'fixtures/authjs-migration-express', file), join(dir, file));
	// better-sqlite3 has no prebuilt binary here and compiles for two minutes: its install script is
	// skipped and the binary kitgate's own install built (the same version, for this Node) is copied
	await run(
		'npm',
		['install', '--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts', 'express@5.3.0', pinned('@auth/express'), pinned('@auth/drizzle-adapter'), pinned('drizzle-orm'), 'better-sqlite3@12.11.1', tarball],
		dir,
		15 * 60_000
	);
	const binary = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
	if (!existsSync(join(ROOT, binary))) throw new Error(`${binary} is missing from kitgate's own install`);
	mkdirSync(join(dir, 'node_modules/better-sqlite3/build/Release'), { recursive: true });
	cpSync(join(ROOT, binary), join(dir, binary));
	mkdirSync(join(dir, 'authjs'));
	for (const file of ['server.js', 'auth.js']) cpSync(join(dir, file), join(dir, 'authjs', file));
	const ported = portFromAuthjs(dir, { files: ['server.js', 'auth.js'], config: { file: 'auth.js', opens: /authConfig = \{$/ } });
	return { ported };
}

/** Runs a checker and returns its output whether it passes or not. */
async function runChecked(command: string, args: string[], cwd: string): Promise<string> {
	try {
		return await run(command, args, cwd);
	} catch (error) {
		return (error as Error).message;
	}
}

/**
 * The errors of svelte-check's machine output, as `file:line "message"`, or throws when the
 * output has no COMPLETED line (a checker that did not run is no pass).
 */
export function svelteCheckErrors(output: string): string[] {
	if (!/ COMPLETED /.test(output)) throw new Error(`svelte-check did not complete:\n${output}`);
	return output.split('\n').flatMap((line) => {
		const match = /^\d+ (?:ERROR|WARNING) "([^"]+)" (\d+):\d+ "(.*)"$/.exec(line);
		return match ? [`${match[1]}:${match[2]} ${match[3]}`] : [];
	});
}

/** A started version of an app. */
export interface RunningApp {
	stop(): Promise<void>;
	output(): string;
}

/**
 * Starts one version of `app` in production, with `extraEnv` (the database variant's), and waits
 * until it answers.
 */
export async function startApp(app: MigrationApp, library: 'authjs' | 'kitgate', extraEnv: Record<string, string> = {}): Promise<RunningApp> {
	const child: ChildProcess = spawn('node', app.start[library], {
		cwd: app.dir,
		env: { ...buildEnv(), NODE_ENV: 'production', HOST: '127.0.0.1', ...app.env, ...extraEnv },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let output = '';
	child.stdout?.on('data', (chunk) => (output += String(chunk)));
	child.stderr?.on('data', (chunk) => (output += String(chunk)));
	const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
	const running: RunningApp = {
		async stop() {
			if (child.exitCode === null && child.signalCode === null) {
				// SIGTERM, as a deploy stops a server; adapter-node then waits for idle pool connections, so not for long
				child.kill();
				const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
				await exited;
				clearTimeout(timer);
			}
		},
		output: () => output
	};
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`${library} version of ${app.dir} exited with ${child.exitCode}:\n${output}`);
		try {
			await fetch(app.origin);
			return running;
		} catch {
			await new Promise((wait) => setTimeout(wait, 100));
		}
	}
	await running.stop();
	throw new Error(`${library} version of ${app.dir} did not answer at ${app.origin}:\n${output}`);
}


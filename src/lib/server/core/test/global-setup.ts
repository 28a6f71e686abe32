// Global setup of the `integration` test project (vite.config.ts): provides `databaseUrl`, an empty
// PostgreSQL database (DATABASE_URL when set, else a throwaway cluster on 127.0.0.1, removed afterwards),
// and builds the SvelteKit app the tests serve (fixtures/sveltekit-app) when missing or older than the code.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
	interface ProvidedContext {
		/** URL of a PostgreSQL database; each test file works in a schema of its own. */
		databaseUrl: string;
		/** Folder of the built SvelteKit test app (fixtures/sveltekit-app), with its adapter-node handler. */
		harnessBuild: string;
	}
}

const TEST_DATABASE = 'kitgate_test';

/**
 * Starts what the tests need and returns the teardown.
 *
 * @example
 * // vite.config.ts, the integration project
 * test: { globalSetup: ['src/lib/server/core/test/global-setup.ts'] }
 */
export default async function setup(project: TestProject): Promise<() => void> {
	project.provide('harnessBuild', buildHarnessApp());
	const postgres = await startPostgres();
	project.provide('databaseUrl', postgres.url);
	return () => postgres.stop();
}

const REPOSITORY = fileURLToPath(new URL('../../../../../', import.meta.url));
const HARNESS_APP = join(REPOSITORY, 'fixtures/sveltekit-app');
const HARNESS_BUILDS = join(HARNESS_APP, '.builds');

/**
 * Builds the SvelteKit test app into a folder named after the newest source change, unless that
 * build exists. Builds are never rewritten in place, so test runs that overlap (several vitest
 * processes) never read a half-written build; a lock keeps two builds from running at once.
 */
function buildHarnessApp(): string {
	const sources = [join(REPOSITORY, 'src/lib'), join(HARNESS_APP, 'src'), join(HARNESS_APP, 'svelte.config.js')];
	const out = join(HARNESS_BUILDS, String(Math.floor(newestChange(sources))));
	const done = () => existsSync(join(out, 'handler.js'));
	if (done()) return out;
	withLock(join(HARNESS_BUILDS, 'lock'), () => {
		if (done()) return;
		execFileSync('npx', ['vite', 'build'], {
			cwd: HARNESS_APP,
			env: { ...process.env, HARNESS_BUILD_DIR: out },
			stdio: ['ignore', 'ignore', 'inherit'],
			timeout: 180_000
		});
		// an older test run may still be reading a build (its pages load lazily): keep those of the last hour
		const builds = readdirSync(HARNESS_BUILDS).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
		for (const old of builds.slice(3)) {
			const folder = join(HARNESS_BUILDS, old);
			if (Date.now() - statSync(folder).mtimeMs > 60 * 60_000) rmSync(folder, { recursive: true, force: true });
		}
	});
	return out;
}

/** Runs `task` holding a lock folder; waits for another holder (a lock older than 5 minutes is stale). */
function withLock(lock: string, task: () => void): void {
	mkdirSync(HARNESS_BUILDS, { recursive: true });
	const deadline = Date.now() + 5 * 60_000;
	for (;;) {
		try {
			mkdirSync(lock);
			break;
		} catch {
			const stale = existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 5 * 60_000;
			if (stale) rmSync(lock, { recursive: true, force: true });
			else if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lock}`);
			else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
		}
	}
	try {
		task();
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}

/** Latest modification time of the files under `paths`. */
function newestChange(paths: string[]): number {
	let newest = 0;
	for (const path of paths) {
		const stat = statSync(path);
		if (!stat.isDirectory()) newest = Math.max(newest, stat.mtimeMs);
		else for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange([join(path, entry)]));
	}
	return newest;
}

interface RunningPostgres {
	url: string;
	stop: () => void;
}

async function startPostgres(): Promise<RunningPostgres> {
	const existing = process.env.DATABASE_URL;
	if (existing) return { url: existing, stop: () => undefined };

	const cluster = createCluster(findPostgresPrograms());
	try {
		const port = await startCluster(cluster);
		const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
		await admin.connect();
		try {
			await admin.query(`CREATE DATABASE ${TEST_DATABASE}`);
		} finally {
			await admin.end();
		}
		return { url: `postgres://postgres@127.0.0.1:${port}/${TEST_DATABASE}`, stop: cluster.remove };
	} catch (error) {
		cluster.remove();
		throw error;
	}
}

/**
 * The folder of PostgreSQL's server programs (initdb, pg_ctl): `pg_config --bindir` when pg_config is on
 * PATH, else the newest /usr/lib/postgresql/<version>/bin (Debian and Ubuntu's layout).
 */
function findPostgresPrograms(): string {
	const candidates: string[] = [];
	try {
		candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
	} catch {
		// no pg_config on PATH
	}
	const debian = '/usr/lib/postgresql';
	if (existsSync(debian)) {
		const versions = readdirSync(debian).filter((name) => /^\d+(\.\d+)?$/.test(name));
		candidates.push(...versions.sort((a, b) => Number(b) - Number(a)).map((version) => join(debian, version, 'bin')));
	}
	// pg_config alone (libpq-dev) comes without the server: only a folder with initdb will do
	const found = candidates.find((folder) => existsSync(join(folder, 'initdb')));
	if (found) return found;
	throw new Error(
		'The integration tests need PostgreSQL\'s server programs (initdb, pg_ctl), but found none: ' +
			(candidates.length ? `no initdb in ${candidates.join(', ')}` : 'pg_config is not on PATH (or failed) and there is no /usr/lib/postgresql/*/bin') +
			'. Install the PostgreSQL server (Debian/Ubuntu: apt-get install postgresql; elsewhere put its pg_config on PATH), ' +
			'or set DATABASE_URL to an empty database.'
	);
}

interface Cluster {
	/** PostgreSQL's server programs (initdb, pg_ctl) */
	programs: string;
	directory: string;
	dataDirectory: string;
	logFile: string;
	remove: () => void;
}

/** Runs initdb in a new temporary folder (owned by `postgres` when we are root: postgres refuses to run as root). */
function createCluster(programs: string): Cluster {
	const directory = mkdtempSync(join(tmpdir(), 'kitgate-pg-'));
	if (isRoot()) chownSync(directory, systemId('-u'), systemId('-g'));
	const dataDirectory = join(directory, 'data');
	let removed = false;
	const cluster: Cluster = {
		programs,
		directory,
		dataDirectory,
		logFile: join(directory, 'postgres.log'),
		remove() {
			if (removed) return;
			removed = true;
			process.off('exit', cluster.remove);
			try {
				if (existsSync(join(dataDirectory, 'postmaster.pid'))) {
					runPostgresTool(programs, 'pg_ctl', ['-D', dataDirectory, '-m', 'immediate', '-w', 'stop'], directory);
				}
			} finally {
				rmSync(directory, { recursive: true, force: true });
			}
		}
	};
	// Also stop the server when vitest exits without running the teardown (Ctrl-C).
	process.on('exit', cluster.remove);
	try {
		runPostgresTool(
			programs,
			'initdb',
			['-D', dataDirectory, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
			directory
		);
	} catch (error) {
		cluster.remove();
		throw new Error(`initdb failed: ${describeFailure(error)}`, { cause: error });
	}
	return cluster;
}

/** Starts the server on a free loopback port; tries another port if one was taken meanwhile. */
async function startCluster(cluster: Cluster): Promise<number> {
	let lastError: unknown;
	for (let attempt = 0; attempt < 3; attempt++) {
		const port = await freePort();
		const serverOptions = [
			'-c listen_addresses=127.0.0.1',
			`-p ${port}`,
			`-k ${cluster.directory}`,
			// Durability does not matter for a database that is deleted at the end of the run.
			'-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
			// both workers' files open pools of their own (up to 10 connections each) while one ends and
			// the next begins: PostgreSQL's default of 100 refused a connection ("too many clients")
			'-c max_connections=400'
		].join(' ');
		try {
			runPostgresTool(
				cluster.programs,
				'pg_ctl',
				['-D', cluster.dataDirectory, '-l', cluster.logFile, '-w', '-t', '30', '-o', serverOptions, 'start'],
				cluster.directory
			);
			return port;
		} catch (error) {
			lastError = error;
		}
	}
	const log = existsSync(cluster.logFile) ? readFileSync(cluster.logFile, 'utf8').slice(-2000) : '(no log)';
	throw new Error(
		`Could not start PostgreSQL for the tests: ${describeFailure(lastError)}\nServer log:\n${log}\n` +
			'Set DATABASE_URL to an existing empty database to use another server.',
		{ cause: lastError }
	);
}

/** Runs a PostgreSQL program, through `su postgres` when we are root. */
function runPostgresTool(programs: string, program: string, args: string[], cwd: string): void {
	const path = join(programs, program);
	// Output goes to pipes that pg_ctl's background server does not inherit (it writes to -l).
	const options = { cwd, stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'], timeout: 60_000 };
	if (isRoot()) {
		const command = [path, ...args].map(shellQuote).join(' ');
		execFileSync('su', ['-s', '/bin/sh', 'postgres', '-c', command], options);
	} else {
		execFileSync(path, args, options);
	}
}

function isRoot(): boolean {
	return process.getuid?.() === 0;
}

function systemId(flag: '-u' | '-g'): number {
	return Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
}

function shellQuote(value: string): string {
	return `'${value.replaceAll("'", `'\\''`)}'`;
}

function describeFailure(error: unknown): string {
	const stderr = (error as { stderr?: Buffer | string }).stderr?.toString().trim();
	return stderr || (error instanceof Error ? error.message : String(error));
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

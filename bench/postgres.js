// A PostgreSQL database for the benchmark: DATABASE_URL when set (the bench then works in a schema
// of its own and drops it), else a throwaway cluster on 127.0.0.1 that is removed afterwards.

import { freePort } from '../scripts/free-port.js';
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * Starts (or connects to) PostgreSQL. Resolves to `{ url, schema, source, stop }`; `stop()` is
 * synchronous so it can run in an exit handler. Throws with a readable reason when it cannot.
 */
export async function startPostgres() {
	const schema = `kitgate_bench_${process.pid}`;
	if (process.env.DATABASE_URL) {
		const url = process.env.DATABASE_URL;
		return { url, schema, source: 'DATABASE_URL', stop: () => dropSchema(url, schema) };
	}
	if (!existsSync(join(POSTGRES_BIN, 'initdb'))) {
		throw new Error(`${POSTGRES_BIN}/initdb is missing (apt-get install postgresql, or set DATABASE_URL)`);
	}
	const directory = mkdtempSync(join(tmpdir(), 'kitgate-bench-pg-'));
	const dataDirectory = join(directory, 'data');
	const logFile = join(directory, 'postgres.log');
	let stopped = false;
	const stop = () => {
		if (stopped) return;
		stopped = true;
		try {
			if (existsSync(join(dataDirectory, 'postmaster.pid'))) {
				runTool('pg_ctl', ['-D', dataDirectory, '-m', 'immediate', '-w', 'stop'], directory);
			}
		} catch {
			// the directory is removed below either way
		} finally {
			rmSync(directory, { recursive: true, force: true });
		}
	};
	try {
		if (isRoot()) chownSync(directory, systemId('-u'), systemId('-g'));
		runTool('initdb', ['-D', dataDirectory, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'], directory);
		const port = await freePort();
		const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${directory} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
		runTool('pg_ctl', ['-D', dataDirectory, '-l', logFile, '-w', '-t', '30', '-o', options, 'start'], directory);
		return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, schema: 'public', source: 'throwaway cluster', stop };
	} catch (error) {
		const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-600) : '';
		stop();
		throw new Error(`could not start a throwaway PostgreSQL cluster: ${describe(error)}${log ? `\n${log}` : ''}`, { cause: error });
	}
}

/** Removes the bench's schema from a database we do not own (best effort, synchronous). */
function dropSchema(url, schema) {
	try {
		execFileSync('psql', [url, '-q', '-c', `DROP SCHEMA IF EXISTS "${schema}" CASCADE`], { stdio: 'ignore', timeout: 15_000 });
	} catch {
		// psql missing or server gone: nothing more to do
	}
}

/** Runs a PostgreSQL program, as the `postgres` user when we are root (postgres refuses root). */
function runTool(program, args, cwd) {
	const path = join(POSTGRES_BIN, program);
	const options = { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 };
	if (!isRoot()) return execFileSync(path, args, options);
	const quote = (value) => `'${String(value).replaceAll("'", `'\\''`)}'`;
	return execFileSync('su', ['-s', '/bin/sh', 'postgres', '-c', [path, ...args].map(quote).join(' ')], options);
}

const isRoot = () => process.getuid?.() === 0;
const systemId = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());

function describe(error) {
	const stderr = error?.stderr?.toString().trim();
	return stderr || (error instanceof Error ? error.message : String(error));
}


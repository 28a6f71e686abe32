// Test helper: a throwaway `redis-server` (Debian's package) on 127.0.0.1 and a free port, with no
// persistence, in a temporary folder; stopped by its process id and the folder removed.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running server: its URL for `createClient({ url })`, and how to stop it. */
export interface RedisServer {
	url: string;
	stop: () => Promise<void>;
}

/**
 * Starts a redis-server for one test file; `settings` are more `--name value` pairs (e.g.
 * `['--maxmemory', '1mb']`). `REDIS_SERVER` names another program than `redis-server` on PATH.
 *
 * @example
 * const redis = await startRedisServer();
 * const client = await createClient({ url: redis.url }).connect();
 * afterAll(() => redis.stop());
 */
export async function startRedisServer(settings: string[] = []): Promise<RedisServer> {
	let lastError: unknown;
	// a free port can be taken between finding and binding it: try another one
	for (let attempt = 0; attempt < 3; attempt++) {
		const directory = mkdtempSync(join(tmpdir(), 'kitgate-redis-'));
		const port = await freePort();
		try {
			const child = await launch(port, directory, settings);
			return { url: `redis://127.0.0.1:${port}`, stop: () => stop(child, directory) };
		} catch (error) {
			rmSync(directory, { recursive: true, force: true });
			lastError = error;
			if ((error as NodeJS.ErrnoException).code === 'ENOENT') break;
		}
	}
	throw lastError;
}

function launch(port: number, directory: string, settings: string[]): Promise<ChildProcess> {
	const program = process.env.REDIS_SERVER ?? 'redis-server';
	// no RDB snapshots and no append-only file: nothing of a test run is written to disk
	const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', directory, '--daemonize', 'no', ...settings];
	const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
	const kill = () => child.kill('SIGKILL');
	// also stop it when vitest exits without running the tear-down (Ctrl-C)
	process.on('exit', kill);
	child.once('exit', () => process.off('exit', kill));
	return new Promise((resolve, reject) => {
		let output = '';
		const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
		function fail(error: Error) {
			clearTimeout(timer);
			child.kill('SIGKILL');
			reject(error);
		}
		const read = (chunk: Buffer) => {
			output += String(chunk);
			if (!output.includes('Ready to accept connections')) return;
			clearTimeout(timer);
			child.stdout?.off('data', read);
			child.stdout?.resume();
			child.stderr?.resume();
			resolve(child);
		};
		child.stdout?.on('data', read);
		child.stderr?.on('data', (chunk: Buffer) => (output += String(chunk)));
		child.once('error', (error: NodeJS.ErrnoException) => {
			if (error.code === 'ENOENT') {
				error.message = `The Redis tests need ${program} (Debian/Ubuntu: apt-get install redis-server; .ci/run installs it), or REDIS_SERVER naming the program.`;
			}
			fail(error);
		});
		child.once('exit', (code) => fail(new Error(`redis-server exited with ${code}:\n${output}`)));
	});
}

async function stop(child: ChildProcess, directory: string): Promise<void> {
	if (child.exitCode === null && child.signalCode === null) {
		const exited = new Promise((resolve) => child.once('exit', resolve));
		child.kill('SIGTERM');
		await exited;
	}
	rmSync(directory, { recursive: true, force: true });
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

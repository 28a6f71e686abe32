// A throwaway redis-server for the benchmark: 127.0.0.1, a free port, no persistence, in a temp
// directory; stopped by its process id and the directory removed. `REDIS_SERVER` names another program.

import { freePort } from '../scripts/free-port.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Starts redis-server. Resolves to `{ url, pid, stop }`; `stop()` is synchronous so it can run in
 * an exit handler. Throws with a readable reason when it cannot start.
 */
export async function startRedis() {
	let lastError;
	// a free port can be taken between finding and binding it: try another one
	for (let attempt = 0; attempt < 3; attempt++) {
		const directory = mkdtempSync(join(tmpdir(), 'kitgate-bench-redis-'));
		const port = await freePort();
		try {
			const child = await launch(port, directory);
			let stopped = false;
			const stop = () => {
				if (stopped) return;
				stopped = true;
				if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
				rmSync(directory, { recursive: true, force: true });
			};
			return { url: `redis://127.0.0.1:${port}`, pid: child.pid, stop };
		} catch (error) {
			rmSync(directory, { recursive: true, force: true });
			lastError = error;
			if (error?.code === 'ENOENT') break;
		}
	}
	throw lastError;
}

function launch(port, directory) {
	const program = process.env.REDIS_SERVER ?? 'redis-server';
	// no RDB snapshots and no append-only file: nothing of the run is written to disk
	const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', directory, '--daemonize', 'no'];
	const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
	return new Promise((resolve, reject) => {
		let output = '';
		const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
		function fail(error) {
			clearTimeout(timer);
			child.kill('SIGKILL');
			reject(error);
		}
		const read = (chunk) => {
			output += String(chunk);
			if (!output.includes('Ready to accept connections')) return;
			clearTimeout(timer);
			child.stdout.off('data', read);
			child.stdout.resume();
			child.stderr.resume();
			child.removeListener('exit', exited);
			resolve(child);
		};
		const exited = (code) => fail(new Error(`redis-server exited with ${code}:\n${output}`));
		child.stdout.on('data', read);
		child.stderr.on('data', (chunk) => (output += String(chunk)));
		child.once('exit', exited);
		child.once('error', (error) => {
			if (error.code === 'ENOENT') error.message = `the Redis run needs ${program} (apt-get install redis-server), or REDIS_SERVER naming the program`;
			fail(error);
		});
	});
}


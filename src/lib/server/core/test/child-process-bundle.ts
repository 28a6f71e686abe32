// Test helper: a TypeScript module run in a child process of its own (a second app process, a server
// whose memory a test measures). esbuild bundles it to one ES module under node_modules/.cache, where
// the bundle's own imports (packages stay external) resolve from the repository; fork() runs it.

import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** A bundled child-process module and the means to run and remove it. */
export interface ChildProcessBundle {
	/** Forks the bundle and waits for its first IPC message (it sends one when it is ready). */
	start(options?: ForkOptions): Promise<{ child: ChildProcess; ready: unknown }>;
	/** Removes the bundle's folder. */
	remove(): void;
}

/**
 * Bundles `entry` into `node_modules/.cache/<name>-<pid>/`.
 *
 * @example
 * const bundle = await childProcessBundle(new URL('./server.ts', import.meta.url), 'my-server');
 * const { child, ready } = await bundle.start({ env: { ...process.env, PORT: '0' } });
 */
export async function childProcessBundle(entry: URL, name: string): Promise<ChildProcessBundle> {
	const root = fileURLToPath(new URL('../../../../../', import.meta.url));
	const dir = join(root, 'node_modules/.cache', `${name}-${process.pid}`);
	mkdirSync(dir, { recursive: true });
	const outfile = join(dir, `${name}.mjs`);
	await build({ entryPoints: [fileURLToPath(entry)], outfile, bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent' });
	return {
		async start(options = {}) {
			const child = fork(outfile, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], ...options });
			const ready = await new Promise<unknown>((resolve, reject) => {
				child.once('message', resolve);
				child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
			});
			return { child, ready };
		},
		remove: () => rmSync(dir, { recursive: true, force: true })
	};
}

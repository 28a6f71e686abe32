// A demo started by a test on its own port, with its own SQLite file in a fresh folder: for the
// specs that run a demo with settings of its own (twoFactor.required, sign-ins that go stale in
// seconds), away from the demos playwright.config.ts starts and the users they share.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DemoApp } from './apps.js';

/** A started demo: its origin, once it listens, and how to stop it (which also removes its folder). */
export interface OwnDemo {
	origin: string;
	ready: Promise<void>;
	stop(): void;
}

/** What each demo runs and where it keeps its data (as playwright.config.ts starts them). */
const launchers: Record<DemoApp['name'], (databaseFile: string, origin: string) => { script: string; env: Record<string, string> }> = {
	sveltekit: (databaseFile, origin) => ({ script: 'build', env: { ORIGIN: origin, KITGATE_DB_FILE: databaseFile } }),
	express: (databaseFile) => ({ script: 'examples/express/server.js', env: { KITGATE_EXPRESS_DB_FILE: databaseFile } })
};

/** Starts `app`'s demo on `port` with `env` on top of the usual settings. */
export function startOwnDemo(app: DemoApp, port: number, env: Record<string, string>): OwnDemo {
	const origin = `http://localhost:${port}`;
	const folder = mkdtempSync(join(tmpdir(), `kitgate-e2e-${app.name}-`));
	const launch = launchers[app.name](join(folder, 'demo.sqlite'), origin);
	const child = spawn('node', [launch.script], {
		env: { ...process.env, ...launch.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
		stdio: ['ignore', 'pipe', 'inherit']
	});
	const ready = new Promise<void>((resolve, reject) => {
		// adapter-node says "Listening on", the Express demo "demo on"
		child.stdout!.on('data', (chunk) => /Listening on|demo on/.test(String(chunk)) && resolve());
		child.on('exit', (code) => reject(new Error(`the ${app.name} demo on port ${port} exited with ${code}`)));
		setTimeout(() => reject(new Error(`the ${app.name} demo on port ${port} did not start in 30 s`)), 30_000).unref();
	});
	return {
		origin,
		ready,
		stop() {
			child.kill('SIGTERM');
			rmSync(folder, { recursive: true, force: true });
		}
	};
}

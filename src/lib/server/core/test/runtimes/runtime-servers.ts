// Starts the runtime app (runtime-app.ts) on each runtime kitgate claims, on 127.0.0.1: Node, Bun
// and Deno as child processes, Cloudflare's workerd through Miniflare (with and without
// `nodejs_compat`), and Vercel's Edge Runtime through the `edge-runtime` package. Each is an
// esbuild bundle of the engine's source made for that runtime, as an app's bundler would make it.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { RuntimeEnv } from './runtime-app.js';

/** Every runtime the engine scenario runs on. */
export const RUNTIMES = ['node', 'bun', 'deno', 'workerd', 'workerd-nodejs-compat', 'edge-runtime'] as const;
export type RuntimeName = (typeof RUNTIMES)[number];

/** A running runtime app. */
export interface RuntimeServer {
	origin: string;
	close(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../../../../../..');
const ENTRIES = resolve(import.meta.dirname, 'entries');
const BIN = {
	bun: join(ROOT, 'node_modules/@oven/bun-linux-x64/bin/bun'),
	deno: join(ROOT, 'node_modules/.bin/deno')
};

/** `kitgate` and its subpaths, as the package's `exports` name them, from the source (dist/x.js → src/lib/x.ts). */
function kitgateFromSource(): Plugin {
	const exports = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports as Record<string, string | { default?: string }>;
	return {
		name: 'kitgate-from-source',
		setup(builder) {
			builder.onResolve({ filter: /^kitgate(\/.*)?$/ }, (args) => {
				const entry = exports[args.path === 'kitgate' ? '.' : `.${args.path.slice('kitgate'.length)}`];
				const target = typeof entry === 'string' ? entry : entry?.default;
				if (!target) return { errors: [{ text: `kitgate has no export ${args.path}` }] };
				return { path: join(ROOT, target.replace(/^\.\/dist\//, 'src/lib/').replace(/\.js$/, '.ts')) };
			});
		}
	};
}

/** How each runtime's bundle is made: the conditions its bundlers resolve packages with. */
const BUNDLES: Record<Exclude<RuntimeName, 'workerd-nodejs-compat'>, { entry: string; platform: 'browser' | 'node'; conditions: string[]; format: 'esm' | 'iife' }> = {
	node: { entry: 'node.ts', platform: 'node', conditions: ['node'], format: 'esm' },
	bun: { entry: 'bun.ts', platform: 'node', conditions: ['bun', 'node'], format: 'esm' },
	deno: { entry: 'deno.ts', platform: 'node', conditions: ['deno', 'node'], format: 'esm' },
	workerd: { entry: 'worker.ts', platform: 'browser', conditions: ['workerd', 'worker', 'browser'], format: 'esm' },
	'edge-runtime': { entry: 'edge.ts', platform: 'browser', conditions: ['edge-light', 'worker', 'browser'], format: 'iife' }
};

const bundles = new Map<string, Promise<string>>();

/**
 * The bundle of the runtime app for `runtime` (built once per test run), as a file path.
 *
 * @example
 * const file = await runtimeBundle('workerd');
 */
export function runtimeBundle(runtime: RuntimeName): Promise<string> {
	const kind = runtime === 'workerd-nodejs-compat' ? 'workerd' : runtime;
	let made = bundles.get(kind);
	if (!made) {
		const { entry, platform, conditions, format } = BUNDLES[kind];
		const outdir = join(tmpdir(), 'kitgate-runtime-bundles');
		mkdirSync(outdir, { recursive: true });
		const outfile = join(outdir, `${kind}.${format === 'esm' ? 'mjs' : 'js'}`);
		made = build({
			entryPoints: [join(ENTRIES, entry)],
			outfile,
			bundle: true,
			platform,
			conditions,
			format,
			target: 'es2022',
			minify: false,
			logLevel: 'error',
			plugins: [kitgateFromSource()],
			// a Node-only driver must never be in a Worker bundle: the engine reaches Node's modules at run time only
			external: platform === 'node' ? ['better-sqlite3', 'pg', 'nodemailer', 'redis'] : []
		}).then(() => outfile);
		bundles.set(kind, made);
	}
	return made;
}

/**
 * A free port on 127.0.0.1 (for a server whose address must be known before it starts).
 *
 * @example
 * const port = await freePort();
 */
export async function freePort(): Promise<number> {
	return new Promise((done, fail) => {
		const probe = createServer();
		probe.once('error', fail);
		probe.listen(0, '127.0.0.1', () => {
			const { port } = probe.address() as { port: number };
			probe.close(() => done(port));
		});
	});
}

/**
 * Starts the runtime app on `runtime` with `env`; resolves once it answers.
 *
 * @example
 * const server = await startRuntime('deno', env); // or startRuntime('deno', env, port)
 * await fetch(`${server.origin}/jwt/auth/session`);
 */
export async function startRuntime(runtime: RuntimeName, env: RuntimeEnv, port?: number): Promise<RuntimeServer> {
	const bundle = await runtimeBundle(runtime);
	port ??= await freePort();
	const origin = `http://127.0.0.1:${port}`;
	if (runtime === 'workerd' || runtime === 'workerd-nodejs-compat') {
		const { Miniflare } = await import('miniflare');
		const worker = new Miniflare({
			// the bundle given as one module, as wrangler deploys it: Miniflare's own import scan refuses
			// the dynamic imports Svelte's server runtime guards itself (node:async_hooks, node:crypto)
			modules: [{ type: 'ESModule', path: join(ROOT, 'runtime-app.worker.mjs'), contents: readFileSync(bundle, 'utf8') }],
			compatibilityDate: '2026-04-01',
			compatibilityFlags: runtime === 'workerd-nodejs-compat' ? ['nodejs_compat'] : [],
			bindings: env as unknown as Record<string, string>,
			host: '127.0.0.1',
			port
		});
		await worker.ready;
		return { origin, close: () => worker.dispose() };
	}
	if (runtime === 'edge-runtime') {
		const { EdgeRuntime, runServer } = await import('edge-runtime');
		const edge = new EdgeRuntime({ initialCode: readFileSync(bundle, 'utf8'), extend: (context) => Object.assign(context, { KITGATE_ENV: env }) });
		const server = await runServer({ runtime: edge, port, host: '127.0.0.1' });
		return { origin, close: () => server.close() };
	}
	const command: Record<'node' | 'bun' | 'deno', [string, string[]]> = {
		node: [process.execPath, [bundle]],
		bun: [BIN.bun, ['run', bundle]],
		deno: [BIN.deno, ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', bundle]]
	};
	const [executable, args] = command[runtime];
	const child = spawn(executable, args, {
		env: { ...process.env, ...env, PORT: String(port), DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	await listening(child, runtime);
	return { origin, close: () => stop(child) };
}

function listening(child: ChildProcess, runtime: string): Promise<void> {
	return new Promise((done, fail) => {
		let output = '';
		const timer = setTimeout(() => fail(new Error(`${runtime} did not start within 30 s:\n${output}`)), 30_000);
		const read = (chunk: Buffer) => {
			output += chunk.toString();
			if (/listening on \d+/.test(output)) {
				clearTimeout(timer);
				done();
			}
		};
		child.stdout?.on('data', read);
		child.stderr?.on('data', read);
		child.once('exit', (code) => {
			clearTimeout(timer);
			fail(new Error(`${runtime} exited with ${code} before listening:\n${output}`));
		});
	});
}

function stop(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null) return Promise.resolve();
	return new Promise((done) => {
		child.once('exit', () => done());
		child.kill('SIGTERM');
	});
}

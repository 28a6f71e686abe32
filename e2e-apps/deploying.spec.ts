// docs/deploying.md followed as written, for the platforms without a framework: its shared
// auth.config.ts and each platform's files in a folder with kitgate installed from the packed
// tarball, checked by the platform's tools (tsc, deno check), started the way the section says
// (Deno and Bun by their command; Vercel's Edge function in the edge-runtime package, its Node
// function behind node:http), then a sign-in through a local OpenID provider and the session.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { build } from 'esbuild';
import { startDemoIdp } from '../scripts/demo-idp.js';
import { loginAtIdp } from '../src/lib/server/core/test/idp-browser.js';
import { Browser } from '../src/lib/server/core/test/integrations.js';
import { realApps } from './apps.js';
import { codeBlocks, markdownSection, type CodeBlock } from './guide.js';
import { freePort } from '../scripts/free-port.js';

const ROOT = resolve(import.meta.dirname, '..');
const DOC = join(ROOT, 'docs/deploying.md');
const BIN = { deno: join(ROOT, 'node_modules/.bin'), bun: join(ROOT, 'node_modules/@oven/bun-linux-x64/bin') };
const CLIENT = { client_id: 'deploying-doc', client_secret: 'deploying-doc-secret-deploying-doc-secret' };

/** The code blocks of one `## ` section of the doc. */
function section(heading: string): CodeBlock[] {
	return markdownSection(DOC, heading, 'docs/deploying.md');
}

/** The blocks before the first `## `: the shared auth.config.ts. */
function sharedFiles(): CodeBlock[] {
	const first = Number(execFileSync('grep', ['-n', '-m1', '^## ', DOC], { encoding: 'utf8' }).split(':')[0]);
	return codeBlocks(DOC, 'docs/deploying.md').filter((block) => block.file && Number(block.source.split(':')[1]) < first);
}

function write(dir: string, blocks: CodeBlock[]): void {
	for (const block of blocks.filter((one) => one.file)) {
		mkdirSync(dirname(join(dir, block.file!)), { recursive: true });
		writeFileSync(join(dir, block.file!), block.code);
	}
}

let work: string;
let idp: Awaited<ReturnType<typeof startDemoIdp>>;
const ports = { vercelEdge: 0, vercelNode: 0, deno: 0, bun: 0 };

test.beforeAll(async () => {
	for (const name of Object.keys(ports) as (keyof typeof ports)[]) ports[name] = await freePort();
	idp = await startDemoIdp({
		clients: [
			{
				...CLIENT,
				redirect_uris: [
					`http://127.0.0.1:${ports.vercelEdge}/api/auth/callback/oidc`,
					`http://127.0.0.1:${ports.vercelNode}/api/auth/callback/oidc`,
					`http://127.0.0.1:${ports.deno}/auth/callback/oidc`,
					`http://127.0.0.1:${ports.bun}/auth/callback/oidc`
				]
			}
		]
	});
	// one folder with kitgate from the tarball, as `npm install kitgate` makes it
	work = mkdtempSync(join(tmpdir(), 'kitgate-deploying-'));
	writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'deploying-doc', private: true, type: 'module' }));
	execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', realApps().tarball, 'typescript@6', '@types/node@20'], {
		cwd: work,
		stdio: ['ignore', 'pipe', 'inherit'],
		timeout: 10 * 60_000
	});
	write(work, sharedFiles());
});
test.afterAll(async () => {
	await idp?.close();
	if (work) rmSync(work, { recursive: true, force: true });
});

/** The variables each platform gets from its environment, as the doc says. */
function platformEnv(port: number): Record<string, string> {
	return {
		HOST: '127.0.0.1',
		PORT: String(port),
		AUTH_SECRET: 'deploying-doc-secret-0123456789abcdefghijkl',
		AUTH_OIDC_ID: CLIENT.client_id,
		AUTH_OIDC_SECRET: CLIENT.client_secret,
		AUTH_OIDC_ISSUER: idp.issuer,
		AUTH_TRUST_HOST: 'true'
	};
}

/** Signs in through the local IdP against `base` (the auth base URL) and answers the session's user. */
async function signInThroughIdp(base: string): Promise<{ email?: string | null } | undefined> {
	const browser = new Browser();
	expect(await (await browser.request(`${base}/session`)).json()).toBeNull();
	const { csrfToken } = (await (await browser.request(`${base}/csrf`)).json()) as { csrfToken: string };
	const started = await browser.request(`${base}/signin/oidc`, { form: { csrfToken } });
	expect(started.status, await started.clone().text()).toBe(302);
	const back = await browser.request(await loginAtIdp(started.headers.get('location')!, { login: 'deploy' }));
	expect(back.status, await back.clone().text()).toBe(302);
	return ((await (await browser.request(`${base}/session`)).json()) as { user?: { email?: string | null } } | null)?.user;
}

/** Starts the section's `bash start` command in `dir`, waits until `origin` answers. */
async function startCommand(command: string, dir: string, env: Record<string, string>, origin: string): Promise<ChildProcess> {
	const child = spawn('bash', ['-c', command], {
		cwd: dir,
		env: { ...process.env, ...env, PATH: `${BIN.deno}:${BIN.bun}:${process.env.PATH}`, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true
	});
	let output = '';
	child.stdout?.on('data', (chunk) => (output += String(chunk)));
	child.stderr?.on('data', (chunk) => (output += String(chunk)));
	for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((wait) => setTimeout(wait, 200))) {
		if (child.exitCode !== null) throw new Error(`\`${command}\` exited with ${child.exitCode}:\n${output}`);
		if (await fetch(origin).then(() => true, () => false)) return child;
	}
	throw new Error(`\`${command}\` did not answer at ${origin}:\n${output}`);
}

function stop(child: ChildProcess): void {
	if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
}

test('Vercel: the function type-checks, and runs on the Edge runtime and as a Node function', async () => {
	const files = section('Vercel: Edge and Node functions');
	const handlerFile = files.find((block) => block.file)!.file!;
	write(work, files);
	execFileSync('npx', ['tsc', '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', 'auth.config.ts', handlerFile], {
		cwd: work,
		stdio: ['ignore', 'pipe', 'pipe']
	});

	// the Edge function: bundled for edge-light as Vercel does, served by the edge-runtime package
	const edgeEntry = join(work, 'edge-entry.ts');
	writeFileSync(edgeEntry, `import handler from './${handlerFile}';\naddEventListener('fetch', (event: any) => event.respondWith(handler(event.request)));\n`);
	const edgeBundle = join(work, 'edge.js');
	await build({ entryPoints: [edgeEntry], outfile: edgeBundle, bundle: true, format: 'iife', platform: 'browser', conditions: ['edge-light', 'worker', 'browser'], logLevel: 'error', absWorkingDir: work });
	const { EdgeRuntime, runServer } = await import('edge-runtime');
	const env = platformEnv(ports.vercelEdge);
	const runtime = new EdgeRuntime({ initialCode: (await import('node:fs')).readFileSync(edgeBundle, 'utf8'), extend: (context) => Object.assign(context, { process: { env } }) });
	const edge = await runServer({ runtime, port: ports.vercelEdge, host: '127.0.0.1' });
	try {
		expect((await signInThroughIdp(`http://127.0.0.1:${ports.vercelEdge}/api/auth`))?.email).toBe('deploy@example.test');
	} finally {
		await edge.close();
	}

	// the same handler as a Node function (bundled for Node, behind node:http as Vercel's Node runtime serves it)
	const nodeBundle = join(work, 'node-function.mjs');
	await build({ entryPoints: [join(work, handlerFile)], outfile: nodeBundle, bundle: true, format: 'esm', platform: 'node', packages: 'external', logLevel: 'error', absWorkingDir: work });
	Object.assign(process.env, platformEnv(ports.vercelNode));
	const handler = ((await import(pathToFileURL(nodeBundle).href)) as { default: (request: Request) => Promise<Response> }).default;
	const server: Server = createServer(async (req, res) => {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const headers = new Headers(Object.entries(req.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]])));
		const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
		const response = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }));
		res.statusCode = response.status;
		for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
		res.setHeader('set-cookie', response.headers.getSetCookie());
		res.end(Buffer.from(await response.arrayBuffer()));
	});
	await new Promise<void>((done) => server.listen(ports.vercelNode, '127.0.0.1', done));
	try {
		expect((await signInThroughIdp(`http://127.0.0.1:${ports.vercelNode}/api/auth`))?.email).toBe('deploy@example.test');
	} finally {
		server.close();
	}
});

for (const [platform, port] of [
	['Deno', 'deno'],
	['Bun', 'bun']
] as const) {
	test(`${platform}: the server starts with the section's command and signs in`, async () => {
		const files = section(platform);
		const dir = join(work, platform.toLowerCase());
		mkdirSync(dir, { recursive: true });
		// the section's folder sits beside the shared auth.config.ts and node_modules
		write(work, files.map((block) => (block.file ? { ...block, file: `${platform.toLowerCase()}/${block.file}` } : block)));
		writeFileSync(join(dir, 'auth.config.ts'), sharedFiles()[0].code);
		if (platform === 'Deno') {
			execFileSync(join(BIN.deno, 'deno'), ['check', 'server.ts'], { cwd: dir, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
		}
		const start = files.find((block) => block.lang === 'bash' && /\bstart\b/.test(block.meta));
		expect(start, `a \`bash start\` block in the ${platform} section`).toBeDefined();
		const origin = `http://127.0.0.1:${ports[port]}`;
		const child = await startCommand(start!.code.trim(), dir, platformEnv(ports[port]), `${origin}/auth/session`);
		try {
			expect((await signInThroughIdp(`${origin}/auth`))?.email).toBe('deploy@example.test');
		} finally {
			stop(child);
		}
	});
}

// How the real apps start: `vite dev` reads the guide's .env; a production server missing a
// secret or its public URL stops at once saying what to set (never a 500 on every page); a build
// under a base path, with a prerendered page, needs no AUTH_* variable either.

import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { realApps } from './apps.js';

const { apps, env, work } = realApps();

/** The process environment without AUTH_* or NODE_ENV: what the apps get beyond their own variables. */
function plainEnv(): NodeJS.ProcessEnv {
	return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AUTH_') && name !== 'NODE_ENV' && name !== 'ORIGIN'));
}

function freePort(): Promise<number> {
	return new Promise((resolve) => {
		const server = createServer();
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

/** Runs a command and gathers its output. */
function launch(command: string, args: string[], cwd: string, childEnv: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
	const child = spawn(command, args, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	child.stdout?.on('data', (chunk) => (output += String(chunk)));
	child.stderr?.on('data', (chunk) => (output += String(chunk)));
	return { child, output: () => output };
}

/** Waits for the process to exit (on its own, within `seconds`, 20 by default) and returns its code and output. */
async function exitOf(run: ReturnType<typeof launch>, seconds = 20): Promise<{ code: number | null; output: string }> {
	const code = await new Promise<number | null>((resolve) => {
		const timer = setTimeout(() => {
			run.child.kill();
			resolve(null);
		}, seconds * 1000);
		run.child.on('exit', (exitCode) => {
			clearTimeout(timer);
			resolve(exitCode);
		});
	});
	return { code, output: run.output() };
}

async function waitFor(url: string, run: ReturnType<typeof launch>): Promise<void> {
	await expect
		.poll(
			async () => {
				if (run.child.exitCode !== null) throw new Error(`exited: ${run.output()}`);
				return fetch(url).then((r) => r.status, () => 0);
			},
			{ timeout: 60_000 }
		)
		.toBeGreaterThan(0);
}

const without = (values: Record<string, string>, ...names: string[]) =>
	Object.fromEntries(Object.entries(values).filter(([name]) => !names.includes(name)));

test('SvelteKit: `vite dev` reads the .env the guide wrote (secret, identity provider, mail server)', async () => {
	const port = await freePort();
	const dev = launch('npx', ['vite', 'dev', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], apps.sveltekit.dir, plainEnv());
	try {
		const origin = `http://127.0.0.1:${port}`;
		await waitFor(origin, dev);
		const session = await fetch(`${origin}/auth/session`);
		expect(session.status).toBe(200);
		expect(await session.json()).toBeNull();
		const providers = (await (await fetch(`${origin}/auth/providers`)).json()) as Record<string, { name: string }>;
		expect(Object.keys(providers).sort()).toEqual(['credentials', 'email', 'oidc']);
		// a whole password sign-in
		const csrf = await fetch(`${origin}/auth/csrf`);
		const { csrfToken } = (await csrf.json()) as { csrfToken: string };
		const signIn = await fetch(`${origin}/auth/callback/credentials`, {
			method: 'POST',
			redirect: 'manual',
			headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.headers.getSetCookie()[0].split(';')[0], origin },
			body: new URLSearchParams({ csrfToken, username: 'ada', password: 'correct horse battery staple' })
		});
		expect(signIn.status).toBe(302);
		expect(signIn.headers.getSetCookie().some((c) => c.startsWith('kitgate.session-token='))).toBe(true);
	} finally {
		dev.child.kill();
	}
});

test('SvelteKit: a production server without AUTH_SECRET stops at start-up and names it', async () => {
	const run = launch('node', ['build'], apps.sveltekit.dir, { ...plainEnv(), ...without(env.sveltekit, 'AUTH_SECRET'), NODE_ENV: 'production', PORT: String(await freePort()) });
	const { code, output } = await exitOf(run);
	expect(code, output).not.toBe(0);
	expect(code, 'it must stop by itself').not.toBeNull();
	expect(output).toContain('AUTH_SECRET');
});

test('SvelteKit: a production server without ORIGIN or AUTH_URL stops at start-up and names ORIGIN', async () => {
	const run = launch('node', ['build'], apps.sveltekit.dir, { ...plainEnv(), ...without(env.sveltekit, 'ORIGIN'), NODE_ENV: 'production', PORT: String(await freePort()) });
	const { code, output } = await exitOf(run);
	expect(code, output).not.toBe(0);
	expect(code, 'it must stop by itself').not.toBeNull();
	expect(output).toContain('ORIGIN');
});

test('Express: a production server without AUTH_SECRET, or without AUTH_URL, stops at start-up and names it', async () => {
	for (const missing of ['AUTH_SECRET', 'AUTH_URL']) {
		const run = launch('node', ['server.js'], apps.express.dir, { ...plainEnv(), ...without(env.express, missing), NODE_ENV: 'production', PORT: String(await freePort()) });
		const { code, output } = await exitOf(run);
		expect(code, output).not.toBe(0);
		expect(code, 'it must stop by itself').not.toBeNull();
		expect(output).toContain(missing);
	}
});

test('SvelteKit: under paths.base, the build with a prerendered page needs no AUTH_* variable, and the app serves /app/auth', async () => {
	test.setTimeout(4 * 60_000);
	const dir = mkdtempSync(join(work, 'base-path-'));
	for (const entry of ['src', 'static', 'package.json', 'tsconfig.json', '.env']) {
		if (existsSync(join(apps.sveltekit.dir, entry))) cpSync(join(apps.sveltekit.dir, entry), join(dir, entry), { recursive: true });
	}
	symlinkSync(join(apps.sveltekit.dir, 'node_modules'), join(dir, 'node_modules'));
	const config = readFileSync(join(apps.sveltekit.dir, 'vite.config.ts'), 'utf8').replace('adapter: adapter()', "adapter: adapter(), paths: { base: '/app' }");
	expect(config).toContain("base: '/app'");
	writeFileSync(join(dir, 'vite.config.ts'), config);
	try {
		// a whole build with prerendering: 25 s and more on two busy cores
		const build = await exitOf(launch('npx', ['vite', 'build'], dir, plainEnv()), 180);
		expect(build.code, build.output).toBe(0);
		expect(existsSync(join(dir, '.data')), 'the build made no database').toBe(false);
		const prerendered = readFileSync(join(dir, 'build/prerendered/app/about.html'), 'utf8');
		// the form posts under the base path (SvelteKit writes prerendered links relative to the page)
		const action = /<form method="POST" action="([^"]+)"/.exec(prerendered)?.[1] as string;
		expect(new URL(action, 'http://app.test/app/about').pathname).toBe('/app/signin');
		expect(prerendered).not.toContain('ada@example.com');
		// the provider's name comes from the config, listed by kitgateData while prerendering
		expect(prerendered).toContain('Sign in with Company SSO');

		const port = await freePort();
		const origin = `http://127.0.0.1:${port}`;
		const server = launch('node', ['build'], dir, { ...plainEnv(), ...env.sveltekit, ORIGIN: origin, NODE_ENV: 'production', PORT: String(port) });
		try {
			await waitFor(`${origin}/app/about`, server);
			expect((await fetch(`${origin}/app/about`)).status).toBe(200);
			expect((await fetch(`${origin}/app/auth/signin`)).status).toBe(200);
			expect(await (await fetch(`${origin}/app/auth/session`)).json()).toBeNull();
		} finally {
			server.child.kill();
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

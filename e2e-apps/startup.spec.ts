// How the real apps start: `vite dev` reads the guide's .env; a production server missing a
// secret or its public URL stops at once saying what to set (never a 500 on every page); a build
// under a base path, with a prerendered page, needs no AUTH_* variable either. First contact
// (issue 31): the guide's build prints no warning about kitgate; `vite dev` without a secret
// shows in the browser what to set and where; `vite preview` starts with .env alone, for
// localhost; a credentials provider without fields says so in development.

import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startDemoIdp } from '../scripts/demo-idp.js';
import { loginAtIdp, realApps } from './apps.js';
import { GUIDE_OUTPUT, readEnvFile } from './guide.js';
import { freePort } from '../scripts/free-port.js';

const { apps, env, work } = realApps();

/** The process environment without AUTH_* or NODE_ENV: what the apps get beyond their own variables. */
function plainEnv(): NodeJS.ProcessEnv {
	return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AUTH_') && name !== 'NODE_ENV' && name !== 'ORIGIN'));
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

/** The guide's password sign-in, posted as its form posts it (the CSRF token first); the callback's answer. */
async function passwordSignIn(origin: string): Promise<Response> {
	const csrf = await fetch(`${origin}/auth/csrf`);
	const { csrfToken } = (await csrf.json()) as { csrfToken: string };
	return fetch(`${origin}/auth/callback/credentials`, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.headers.getSetCookie()[0].split(';')[0], origin },
		body: new URLSearchParams({ csrfToken, username: 'ada', password: 'correct horse battery staple' })
	});
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
		const signIn = await passwordSignIn(origin);
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

test('Express: a production server missing its secret, its URL and its identity provider’s client id names them all in one start', async () => {
	// (a generic OpenID provider may be a public client: its secret is named once the id is set)
	const missing = ['AUTH_SECRET', 'AUTH_URL', 'AUTH_OIDC_ID'];
	const run = launch('node', ['server.js'], apps.express.dir, { ...plainEnv(), ...without(env.express, ...missing), NODE_ENV: 'production', PORT: String(await freePort()) });
	const { code, output } = await exitOf(run);
	expect(code, output).not.toBe(0);
	expect(code, 'it must stop by itself').not.toBeNull();
	for (const name of missing) expect(output).toContain(name);
});

test('Express: a misspelt provider option (clientSecert) stops the start and names the option meant', async () => {
	const dir = mkdtempSync(join(work, 'typo-'));
	for (const entry of ['server.js', 'users.js', 'package.json']) cpSync(join(apps.express.dir, entry), join(dir, entry));
	symlinkSync(join(apps.express.dir, 'node_modules'), join(dir, 'node_modules'));
	const server = readFileSync(join(apps.express.dir, 'server.js'), 'utf8');
	const typo = server.replace("OIDC({ id: 'oidc', name: 'Company SSO' })", "OIDC({ id: 'oidc', name: 'Company SSO', clientSecert: process.env.AUTH_OIDC_SECRET })");
	expect(typo, 'the guide’s OIDC line').not.toBe(server);
	writeFileSync(join(dir, 'server.js'), typo);
	try {
		const run = launch('node', ['server.js'], dir, { ...plainEnv(), ...env.express, NODE_ENV: 'production', PORT: String(await freePort()) });
		const { code, output } = await exitOf(run);
		expect(code, output).not.toBe(0);
		expect(code, 'it must stop by itself').not.toBeNull();
		expect(output).toContain('clientSecert');
		expect(output).toContain('clientSecret');
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test('Express: against an OpenID provider that keeps email and name to userinfo (OpenID Connect Core 5.4), the user signs in with both', async ({ page }) => {
	const port = await freePort();
	const origin = `http://127.0.0.1:${port}`;
	const account = { id: 'katherine', email: 'katherine@example.com', email_verified: true, name: 'Katherine Johnson' };
	const client = { client_id: 'conformant', client_secret: 'conformant-secret-conformant-secret', redirect_uris: [`${origin}/auth/callback/oidc`] };
	const idp = await startDemoIdp({ clients: [client], accounts: [account], conformIdTokenClaims: true });
	const server = launch('node', ['server.js'], apps.express.dir, {
		...plainEnv(),
		...env.express,
		AUTH_URL: origin,
		AUTH_OIDC_ID: client.client_id,
		AUTH_OIDC_SECRET: client.client_secret,
		AUTH_OIDC_ISSUER: idp.issuer,
		NODE_ENV: 'production',
		PORT: String(port)
	});
	try {
		await waitFor(`${origin}/auth/session`, server);
		await page.goto(`${origin}/dashboard`);
		await page.getByRole('button', { name: 'Sign in with Company SSO' }).click();
		await loginAtIdp(page, account.id);
		await expect(page).toHaveURL(`${origin}/dashboard`);
		await expect(page.getByTestId('dashboard-user')).toHaveText(account.email);
		const session = await page.evaluate(() => fetch('/auth/session').then((answer) => answer.json()));
		expect(session.user).toMatchObject({ name: account.name, email: account.email });
	} finally {
		server.child.kill();
		await idp.close();
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

/**
 * A copy of the guide's SvelteKit app (its files, `.env` and, linked, its node_modules) in which
 * `change` edits what it needs; removed by the returned function.
 */
function copyOfGuideApp(name: string): { dir: string; remove: () => void } {
	const dir = mkdtempSync(join(work, `${name}-`));
	for (const entry of ['src', 'static', 'package.json', 'tsconfig.json', 'vite.config.ts', '.env']) {
		if (existsSync(join(apps.sveltekit.dir, entry))) cpSync(join(apps.sveltekit.dir, entry), join(dir, entry), { recursive: true });
	}
	symlinkSync(join(apps.sveltekit.dir, 'node_modules'), join(dir, 'node_modules'));
	return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Vite's command line in `dir` (its bin, as `npm run dev` and `npm run preview` start it: one process to stop). */
function vite(dir: string, args: string[], childEnv: NodeJS.ProcessEnv): ReturnType<typeof launch> {
	return launch(join(dir, 'node_modules/.bin/vite'), args, dir, childEnv);
}

/** A GET with the Host header `host` (fetch cannot set it). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const call = request(url, { headers: { host, accept: 'text/html' } }, (answer) => {
			let body = '';
			answer.on('data', (chunk) => (body += String(chunk)));
			answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
		});
		call.on('error', reject);
		call.end();
	});
}

test('SvelteKit: the guide’s `npm run build` prints no warning about kitgate (no circular dependency, unresolved import or empty chunk)', () => {
	const log = readFileSync(join(apps.sveltekit.dir, GUIDE_OUTPUT), 'utf8');
	const build = log.slice(log.lastIndexOf('$ npm run build'));
	expect(build).toContain('Using @sveltejs/adapter-node');
	// adapter-node's own entry env.js is empty in every app: a bare `sv create` app prints this line too
	const adapterOwn = 'Generated an empty chunk: "env.js".';
	const warnings = build.split('\n').filter((line) => /circular dependency|could not be resolved|empty chunk|\bwarn|\(!\)|\[kitgate\]/i.test(line) && line.trim() !== adapterOwn);
	expect(warnings, build).toEqual([]);
});

test('SvelteKit: `vite dev` without AUTH_SECRET shows in the browser what to set and where, and says it once in the terminal', async ({ page }) => {
	const app = copyOfGuideApp('no-secret');
	// the secret left out of .env, as a user who skipped that line
	const { AUTH_SECRET: _secret, ...rest } = readEnvFile(app.dir);
	writeFileSync(join(app.dir, '.env'), Object.entries(rest).map(([name, value]) => `${name}=${value}\n`).join(''));
	const port = await freePort();
	const dev = vite(app.dir, ['dev', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], plainEnv());
	try {
		const origin = `http://127.0.0.1:${port}`;
		await waitFor(origin, dev);
		for (const path of ['/', '/signin', '/auth/signin']) {
			const answer = await page.goto(`${origin}${path}`);
			expect(answer?.status(), path).toBe(503);
			await expect(page.locator('body')).toContainText('Missing environment variable AUTH_SECRET.');
			await expect(page.locator('body')).toContainText('Set it in .env in development');
			await expect(page.locator('body')).not.toContainText('Internal Error');
		}
		const said = dev.output().split('\n').filter((line) => line.includes('[kitgate][error][MissingSecret]'));
		expect(said, dev.output()).toHaveLength(1);
	} finally {
		dev.child.kill();
		app.remove();
	}
});

test('SvelteKit: `vite preview` starts with the guide’s .env alone (no ORIGIN) and serves localhost; another host is refused, saying why', async () => {
	const port = await freePort();
	const preview = vite(apps.sveltekit.dir, ['preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], plainEnv());
	try {
		const origin = `http://127.0.0.1:${port}`;
		await waitFor(origin, preview);
		const session = await fetch(`${origin}/auth/session`);
		expect(session.status, preview.output()).toBe(200);
		expect(await session.json()).toBeNull();
		// a whole password sign-in
		const signIn = await passwordSignIn(origin);
		expect(signIn.status).toBe(302);
		expect(signIn.headers.get('location')).toBe(`${origin}/`);
		expect(signIn.headers.getSetCookie().some((c) => c.startsWith('kitgate.session-token='))).toBe(true);
		// an address Vite's preview lets through, not a loopback one: no link is ever built for it
		const other = await getWithHost(`${origin}/auth/signin`, `192.0.2.7:${port}`);
		expect(other.status).toBe(503);
		expect(other.body).toContain('vite preview');
		expect(other.body).not.toContain('192.0.2.7');
	} finally {
		preview.child.kill();
	}
});

test('SvelteKit: in `vite dev`, a credentials provider declared without fields says so on the sign-in page, and its sign-in names the fix', async ({ page }) => {
	const app = copyOfGuideApp('fieldless');
	const auth = readFileSync(join(app.dir, 'src/auth.ts'), 'utf8');
	const fieldless = auth.replace(/^\s*credentials: \{ username: .*\n/m, '');
	expect(fieldless).not.toBe(auth);
	writeFileSync(join(app.dir, 'src/auth.ts'), fieldless);
	const port = await freePort();
	const dev = vite(app.dir, ['dev', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], plainEnv());
	try {
		const origin = `http://127.0.0.1:${port}`;
		await waitFor(origin, dev);
		await page.goto(`${origin}/signin`);
		const form = page.locator('form', { has: page.locator('input[name="providerId"][value="credentials"]') });
		await expect(form.getByRole('alert')).toContainText('declares no fields');
		await expect(form.getByRole('alert')).toContainText('slot="credentials"');
		await form.getByRole('button').click();
		await expect(page.locator('body')).toContainText('declares no fields, and the sign-in form sent none');
		await expect(page.locator('body')).not.toContainText('Invalid request');
	} finally {
		dev.child.kill();
		app.remove();
	}
});

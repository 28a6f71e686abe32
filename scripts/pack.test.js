// Packs kitgate with `npm pack`, installs the tarball with Express alone in a clean folder (no
// SvelteKit, no Vite) and runs examples/express there: the root entry and /express must work.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.js';

const root = resolve(import.meta.dirname, '..');
// a port the system picks: the end-to-end tests beside this file hold fixed ones (3100–3192, 4173–4192)
let port;
let dir;
let server;

before(async () => {
	dir = mkdtempSync(join(tmpdir(), 'kitgate-pack-'));
	const packed = spawnSync('npm', ['pack', '--pack-destination', dir, '--json'], { cwd: root, encoding: 'utf8' });
	assert.equal(packed.status, 0, packed.stderr);
	const [{ filename }] = JSON.parse(packed.stdout);
	const expressVersion = JSON.parse(readFileSync(join(root, 'node_modules/express/package.json'), 'utf8')).version;
	cpSync(join(root, 'examples/express'), join(dir, 'app'), { recursive: true });
	writeFileSync(
		join(dir, 'app/package.json'),
		JSON.stringify({ name: 'pack-test', private: true, type: 'module', dependencies: { kitgate: `file:../${filename}`, express: expressVersion } })
	);
	const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: join(dir, 'app'), encoding: 'utf8' });
	assert.equal(installed.status, 0, installed.stderr);
	// email sign-in needs optional peers (nodemailer, better-sqlite3, kysely) this install leaves out
	port = await freePort();
	server = spawn('node', ['server.js'], {
		cwd: join(dir, 'app'),
		env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', KITGATE_DEMO_EMAIL: 'off' }
	});
	await new Promise((resolveReady, reject) => {
		server.stdout.on('data', (chunk) => String(chunk).includes('Express demo on') && resolveReady());
		server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
		setTimeout(() => reject(new Error('server did not start')), 20_000);
	});
});

after(() => {
	server?.kill();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the clean install has neither SvelteKit nor Vite', () => {
	assert.equal(existsSync(join(dir, 'app/node_modules/@sveltejs/kit')), false);
	assert.equal(existsSync(join(dir, 'app/node_modules/vite')), false);
	assert.equal(existsSync(join(dir, 'app/node_modules/kitgate/dist/index.d.ts')), true);
});

test('the built-in sign-in page renders from the tarball', async () => {
	const response = await fetch(`http://127.0.0.1:${port}/auth/signin`);
	assert.equal(response.status, 200);
	assert.match(await response.text(), /name="password"/);
});

test('credentials sign-in gives a session that getSession reads', async () => {
	const csrf = await fetch(`http://127.0.0.1:${port}/auth/csrf`);
	const { csrfToken } = await csrf.json();
	const csrfCookie = csrf.headers.getSetCookie()[0].split(';')[0];
	const signIn = await fetch(`http://127.0.0.1:${port}/auth/callback/credentials`, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
		body: new URLSearchParams({ csrfToken, username: 'demo', password: 'demo-password', callbackUrl: '/protected' })
	});
	assert.equal(signIn.status, 302);
	const session = signIn.headers.getSetCookie().find((c) => c.startsWith('kitgate.session-token='));
	assert.ok(session, 'session cookie set');
	const page = await fetch(`http://127.0.0.1:${port}/protected`, { headers: { cookie: session.split(';')[0] } });
	assert.match(await page.text(), /You are Demo User/);
});

test('the Express demo stops with the error when its port is taken, instead of announcing it listens', () => {
	const second = spawnSync('node', ['server.js'], {
		cwd: join(dir, 'app'),
		encoding: 'utf8',
		timeout: 20_000,
		env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', KITGATE_DEMO_EMAIL: 'off' }
	});
	assert.notEqual(second.status, 0);
	assert.match(second.stderr, /EADDRINUSE/);
	assert.doesNotMatch(second.stdout, /Express demo on/);
});

test('without nodemailer, kitgate/providers/email loads and a config with Email() says what to install', () => {
	assert.equal(existsSync(join(dir, 'app/node_modules/nodemailer')), false);
	const script = [
		"const { default: Email } = await import('kitgate/providers/email');",
		"const { resolveConfig, MemoryRateLimitStore } = await import('kitgate');",
		"const { MemoryAdapter } = await import('kitgate/adapters/memory');",
		'Email({ sendVerificationRequest: async () => {} });',
		"const config = (provider) => ({ secret: 'x'.repeat(32), trustHost: true, adapter: MemoryAdapter(), providers: [provider] });",
		"try { resolveConfig(config(Email({ server: 'smtp://127.0.0.1:2525' }))); console.log('no error'); } catch (error) { console.log(error.message); }",
		'void MemoryRateLimitStore;'
	].join('\n');
	const run = spawnSync('node', ['--input-type=module', '-e', script], { cwd: join(dir, 'app'), encoding: 'utf8' });
	assert.equal(run.status, 0, run.stderr);
	assert.match(run.stdout, /nodemailer, which is not installed: run `npm install nodemailer`/);
});

test('the package: a LICENSE, the docs, each built-in page once (compiled only), svelte as a peer with a range', () => {
	const manifest = JSON.parse(readFileSync(join(dir, 'app/node_modules/kitgate/package.json'), 'utf8'));
	const installed = join(dir, 'app/node_modules/kitgate');
	assert.ok(existsSync(join(installed, 'LICENSE')), 'LICENSE');
	assert.match(readFileSync(join(installed, 'LICENSE'), 'utf8'), /MIT License/);
	assert.ok(existsSync(join(installed, 'docs/getting-started-sveltekit.md')), 'docs shipped');
	assert.equal(existsSync(join(installed, 'dist/server/pages/SignIn.svelte')), false, 'page sources are not shipped next to the compiled pages');
	assert.ok(existsSync(join(installed, 'dist/server/pages/compiled')), 'compiled pages shipped');
	assert.equal(manifest.dependencies.svelte, undefined, 'svelte is not a pinned dependency');
	assert.match(manifest.peerDependencies.svelte, /^\^5\./);
	// npm installs a non-optional peer: an Express app gets one svelte, an app with its own shares it
	assert.ok(existsSync(join(dir, 'app/node_modules/svelte/package.json')));
	assert.equal(existsSync(join(installed, 'node_modules/svelte')), false, 'no second copy of svelte');
});

test('the committed lockfile lists every platform\'s optional packages, so `npm install` on Linux does not rewrite it', () => {
	const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
	const names = Object.keys(lock.packages);
	for (const platformPackage of ['@rollup/rollup-darwin-arm64', '@rollup/rollup-win32-x64-msvc', '@tailwindcss/oxide-darwin-arm64']) {
		assert.ok(names.some((name) => name.endsWith(`node_modules/${platformPackage}`)), platformPackage);
	}
});

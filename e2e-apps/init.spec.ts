// `npx kitgate init` in apps made by `sv create` (the pinned sv, minimal TypeScript template) with
// kitgate installed from the packed tarball: the command installs what it needs, the app builds
// with no secret, starts in production with the .env the command wrote, and a password signs in
// and out in Chromium (users and sessions in its SQLite file). Running it again changes nothing; an
// app's own handle is kept behind kitgate's with sequence(), and a hooks file it cannot rewrite
// safely stops it before it writes anything.

import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { realApps } from './apps.js';
import { codeBlocks, readEnvFile } from './guide.js';
import { SV } from './setup.js';
import { freePort } from '../scripts/free-port.js';

const GUIDE = resolve(import.meta.dirname, '../docs/getting-started-sveltekit.md');

/** The guide's fast path (its `bash init` block): the `npx kitgate init …` line, as words. */
function guideInitCommand(): string[] {
	const block = codeBlocks(GUIDE, 'docs/getting-started-sveltekit.md').find((one) => one.lang === 'bash' && one.meta === 'init');
	expect(block, 'a ```bash init block in the guide').toBeDefined();
	expect(block!.code).toMatch(/^npm install kitgate$/m);
	const line = block!.code.split('\n').find((one) => one.startsWith('npx kitgate init'));
	expect(line, `${block!.source}: an \`npx kitgate init\` line`).toBeDefined();
	return line!.trim().split(/\s+/);
}

/** The environment of every command: no AUTH_* or NODE_ENV of this process (an app's build has none); npm quiet. */
function commandEnv(): NodeJS.ProcessEnv {
	const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AUTH_') && name !== 'NODE_ENV'));
	return { ...inherited, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_loglevel: 'error' };
}

/** Runs a command in `dir`; answers its exit code and what it printed. */
function run(command: string, args: string[], dir: string): { status: number | null; stdout: string; stderr: string } {
	const result = spawnSync(command, args, { cwd: dir, env: commandEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 });
	return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** Runs a command that must succeed. */
function must(command: string, args: string[], dir: string): string {
	const result = run(command, args, dir);
	if (result.status !== 0) throw new Error(`\`${command} ${args.join(' ')}\` in ${dir} exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
	return result.stdout;
}

/** An app by the pinned `sv create`, minimal template (TypeScript, or JavaScript with JSDoc types), not installed. */
function create(dir: string, types: 'ts' | 'jsdoc' = 'ts'): void {
	execFileSync('npx', ['--yes', SV, 'create', dir, '--template', 'minimal', '--types', types, '--no-add-ons', '--no-install'], { env: commandEnv(), stdio: ['ignore', 'pipe', 'inherit'], timeout: 5 * 60_000 });
}

/** Every file of the app outside node_modules, build output and caches, with a hash of its content. */
function snapshot(dir: string): Record<string, string> {
	const files: Record<string, string> = {};
	const walk = (folder: string) => {
		for (const name of readdirSync(folder)) {
			if (['node_modules', '.svelte-kit', 'build', '.data'].includes(name)) continue;
			const path = join(folder, name);
			if (statSync(path).isDirectory()) walk(path);
			else files[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
		}
	};
	walk(dir);
	return files;
}

/** Starts the built app (`node --env-file=.env build`) in production on `port` and waits until it answers. */
async function start(dir: string, port: number): Promise<ChildProcess> {
	const origin = `http://127.0.0.1:${port}`;
	const child = spawn('node', ['--env-file=.env', 'build'], {
		cwd: dir,
		env: { ...commandEnv(), NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), ORIGIN: origin },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	servers.push(child);
	let output = '';
	child.stdout?.on('data', (chunk) => (output += String(chunk)));
	child.stderr?.on('data', (chunk) => (output += String(chunk)));
	for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((wait) => setTimeout(wait, 200))) {
		if (child.exitCode !== null) throw new Error(`${dir} exited with ${child.exitCode}:\n${output}`);
		if (await fetch(origin).then(() => true, () => false)) return child;
	}
	throw new Error(`${dir} did not answer at ${origin}:\n${output}`);
}

/** In Chromium: a wrong password is refused, `ada`'s signs in, /signout shows who, and its button signs out. */
async function signInAndOut(page: Page, origin: string, password: string): Promise<void> {
	await page.goto(`${origin}/signin`);
	await page.getByLabel('Username').fill('ada');
	await page.getByLabel('Password').fill('not the password');
	await page.getByRole('button', { name: 'Sign in with Credentials' }).click();
	await expect(page.getByRole('alert')).toContainText(/sign in failed/i);

	await page.getByLabel('Username').fill('ada');
	await page.getByLabel('Password').fill(password);
	await page.getByRole('button', { name: 'Sign in with Credentials' }).click();
	await expect(page).not.toHaveURL(/\/signin/);
	await page.goto(`${origin}/signout`);
	// the page reads data.session, which the root layout's load hands every page (interface integration rule 3)
	await expect(page.getByTestId('signed-in-as')).toHaveText('ada@example.com');
	expect((await (await page.request.get(`${origin}/auth/session`)).json())?.user?.email).toBe('ada@example.com');

	await page.getByRole('button', { name: /sign out/i }).click();
	await expect(page).toHaveURL(`${origin}/`);
	expect(await (await page.request.get(`${origin}/auth/session`)).json()).toBeNull();
	await page.goto(`${origin}/signout`);
	await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
}

/** Gives `dir` the packages of the first app (what the printed install command adds): its package.json's, and its node_modules. */
function usePackagesOf(from: string, dir: string): void {
	const source = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
	const target = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
	target.dependencies = { ...target.dependencies, ...source.dependencies };
	target.devDependencies = { ...target.devDependencies, ...source.devDependencies };
	writeFileSync(join(dir, 'package.json'), JSON.stringify(target, null, '\t'));
	symlinkSync(join(from, 'node_modules'), join(dir, 'node_modules'));
}

/** The kitgate command of the tarball installed in the first app (for apps with no node_modules of their own). */
function installedInit(): string {
	return join(app, 'node_modules/kitgate/bin/kitgate.js');
}

let work: string;
let app: string;
const servers: ChildProcess[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
	test.setTimeout(10 * 60_000);
	work = mkdtempSync(join(tmpdir(), 'kitgate-init-'));
	app = join(work, 'app');
	create(app);
	// kitgate from the tarball, as `npm install kitgate` would; the template's own packages with it
	must('npm', ['install', realApps().tarball], app);
});
test.afterAll(() => {
	for (const child of servers) child.kill();
	if (work && !process.env.KEEP_REAL_APPS) rmSync(work, { recursive: true, force: true });
});

test("the guide's npx kitgate init --install: the fresh app type-checks, builds, starts in production and signs in and out with a password", async ({ page }) => {
	test.setTimeout(12 * 60_000);
	// the guide's command; --yes because no terminal answers its question here
	const [npx, ...args] = guideInitCommand();
	expect(args).toContain('--install');
	const init = run(npx, [...args, '--yes'], app);
	expect(init.status, `${init.stdout}\n${init.stderr}`).toBe(0);
	expect(init.stdout).toContain('create src/auth.ts');
	expect(init.stdout).toContain('create src/hooks.server.ts');

	const env = readEnvFile(app);
	expect(env.AUTH_SECRET?.length).toBeGreaterThanOrEqual(32);
	expect(env.DEMO_USER_PASSWORD?.length).toBeGreaterThanOrEqual(32);
	// the secrets went to .env (readable by its owner only) and nowhere else
	for (const secret of [env.AUTH_SECRET, env.DEMO_USER_PASSWORD]) expect(`${init.stdout}${init.stderr}`).not.toContain(secret);
	expect(statSync(join(app, '.env')).mode & 0o077).toBe(0);
	const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
	expect(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })).toEqual(expect.arrayContaining(['kitgate', 'better-sqlite3', '@sveltejs/adapter-node']));
	expect(readFileSync(join(app, 'src/hooks.server.ts'), 'utf8')).toBe("export { handle } from './auth';\n");

	// the files it wrote type-check (svelte-check, as the template's own `npm run check`)
	const check = run('npm', ['run', 'check', '--', '--output', 'machine'], app);
	expect(check.stdout).toContain('COMPLETED');
	expect(check.stdout.split('\n').filter((line) => / (ERROR|WARNING) /.test(line))).toEqual([]);
	must('npm', ['run', 'build'], app);
	expect(existsSync(join(app, '.data')), 'the build creates no database').toBe(false);
	const port = await freePort();
	const origin = `http://127.0.0.1:${port}`;
	await start(app, port);

	await signInAndOut(page, origin, env.DEMO_USER_PASSWORD);
	// users and sessions live in the SQLite file the adapter created on first use
	expect(existsSync(join(app, '.data/auth.sqlite'))).toBe(true);
});

test('running kitgate init again changes nothing, and says so', () => {
	const before = snapshot(app);
	expect(Object.keys(before)).toContain('src/auth.ts');
	const again = run('npx', ['kitgate', 'init', '--yes'], app);
	expect(again.status, `${again.stdout}\n${again.stderr}`).toBe(0);
	expect(again.stdout).toContain('already set up in this app: nothing to change');
	expect(snapshot(app)).toEqual(before);
});

test('in a JavaScript app (sv create --types jsdoc): without a terminal it needs --yes; then .js files with JSDoc types that type-check, build and sign in', async ({ page }) => {
	test.setTimeout(6 * 60_000);
	const dir = join(work, 'javascript');
	create(dir, 'jsdoc');
	// without a terminal to ask, it needs --yes: nothing is written
	const fresh = snapshot(dir);
	const unasked = run('node', [installedInit(), 'init'], dir);
	expect(unasked.status).toBe(1);
	expect(unasked.stderr).toContain('kitgate init --yes');
	expect(snapshot(dir)).toEqual(fresh);

	const init = run('node', [installedInit(), 'init', '--yes', '--no-install'], dir);
	expect(init.status, `${init.stdout}\n${init.stderr}`).toBe(0);
	for (const file of ['src/auth.js', 'src/hooks.server.js', 'src/routes/+layout.server.js', 'src/routes/signin/+page.server.js']) expect(init.stdout).toContain(`create ${file}`);
	expect(readdirSync(join(dir, 'src')).filter((name) => name.endsWith('.ts') && name !== 'app.d.ts')).toEqual([]);

	usePackagesOf(app, dir);
	const check = run('npm', ['run', 'check', '--', '--output', 'machine'], dir);
	expect(check.stdout).toContain('COMPLETED');
	expect(check.stdout.split('\n').filter((line) => / (ERROR|WARNING) /.test(line))).toEqual([]);
	must('npm', ['run', 'build'], dir);
	const port = await freePort();
	await start(dir, port);
	await signInAndOut(page, `http://127.0.0.1:${port}`, readEnvFile(dir).DEMO_USER_PASSWORD);
});

test("an app's own handle is kept after kitgate's, with sequence(); both run in the built app, the app's with event.locals.auth()", async () => {
	test.setTimeout(6 * 60_000);
	const dir = join(work, 'own-hook');
	create(dir);
	const ownHook = `import type { Handle } from '@sveltejs/kit';

// the app's own hook: a header on every page, saying whether someone is signed in
export const handle: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	response.headers.set('x-own-hook', (await event.locals.auth()) ? 'signed-in' : 'signed-out');
	return response;
};
`;
	writeFileSync(join(dir, 'src/hooks.server.ts'), ownHook);
	const init = run('node', [installedInit(), 'init', '--yes', '--no-install'], dir);
	expect(init.status, `${init.stdout}\n${init.stderr}`).toBe(0);
	expect(init.stdout).toContain('update src/hooks.server.ts');
	expect(init.stdout).toContain('npm install kitgate better-sqlite3@^12');
	const merged = readFileSync(join(dir, 'src/hooks.server.ts'), 'utf8');
	expect(merged).toContain('export const handle = sequence(authHandle, appHandle);');
	expect(merged).toContain('x-own-hook');

	// built and started with the first app's packages (what the printed command installs), the two hooks answer together
	usePackagesOf(app, dir);
	must('npm', ['run', 'build'], dir);
	const port = await freePort();
	await start(dir, port);
	// kitgate's handle answers its own routes, then the app's runs for the pages, with event.locals.auth() set
	expect(await (await fetch(`http://127.0.0.1:${port}/auth/session`)).json()).toBeNull();
	const home = await fetch(`http://127.0.0.1:${port}/`);
	expect(home.status).toBe(200);
	expect(home.headers.get('x-own-hook')).toBe('signed-out');
});

test("a hooks file it cannot merge safely, or a root layout load of the app's own, stops kitgate init before it writes anything", () => {
	const dir = join(work, 'unmergeable-hook');
	create(dir);
	mkdirSync(join(dir, 'src'), { recursive: true });
	writeFileSync(
		join(dir, 'src/hooks.server.ts'),
		`import type { Handle } from '@sveltejs/kit';

const logRequests: Handle = ({ event, resolve }) => resolve(event);

export { logRequests as handle };
`
	);
	// and a root layout load of the app's own, which it does not write over either
	writeFileSync(join(dir, 'src/routes/+layout.server.ts'), 'export const load = () => ({ theme: "dark" });\n');
	const before = snapshot(dir);
	const init = run('node', [installedInit(), 'init', '--yes'], dir);
	expect(init.status).toBe(1);
	expect(init.stderr).toContain('kitgate init changed nothing');
	expect(init.stderr).toContain('src/hooks.server.ts cannot be merged safely');
	expect(init.stderr).toContain("src/routes/+layout.server.ts exists and is not kitgate's");
	expect(init.stderr).toContain('session: await event.locals.auth()');
	expect(snapshot(dir)).toEqual(before);
});

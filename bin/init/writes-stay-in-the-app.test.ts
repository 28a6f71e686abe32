// kitgate init's writes against a hostile or careless app folder: symbolic links out of the app, an
// existing world-readable .env, a failure halfway through, a file edited after planning, a stand-in
// user turned off by hand, secrets on the console, and two hooks files.

import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runInit } from './run-init.js';
import { writeAll } from './write-files.js';

let dir: string;
let app: string;
let outside: string;
let printed: string[];

/** The folder `sv create` makes, as far as kitgate init looks at it. */
function makeApp(root: string): void {
	mkdirSync(join(root, 'src/routes'), { recursive: true });
	writeFileSync(join(root, 'package.json'), JSON.stringify({ devDependencies: { '@sveltejs/kit': '^2.0.0', '@sveltejs/adapter-auto': '^6.0.0' } }));
	writeFileSync(join(root, 'tsconfig.json'), '{}\n');
	writeFileSync(join(root, 'svelte.config.js'), "import adapter from '@sveltejs/adapter-auto';\nexport default { kit: { adapter: adapter() } };\n");
	writeFileSync(join(root, 'src/routes/+page.svelte'), '<h1>Welcome</h1>\n');
	writeFileSync(join(root, '.gitignore'), 'node_modules\n');
}

/** Every file and link under `root`, with its content (a link: where it points). */
function snapshot(root: string): Record<string, string> {
	const files: Record<string, string> = {};
	const walk = (folder: string, prefix: string) => {
		for (const name of readdirSync(folder)) {
			const path = join(folder, name);
			const stat = lstatSync(path);
			if (stat.isSymbolicLink()) files[`${prefix}${name}`] = 'link';
			else if (stat.isDirectory()) walk(path, `${prefix}${name}/`);
			else files[`${prefix}${name}`] = `${(stat.mode & 0o777).toString(8)} ${readFileSync(path, 'utf8')}`;
		}
	};
	walk(root, '');
	return files;
}

// the app is in no git repository here (git itself is asked in git-tracked.test.ts)
const init = (tracked = () => false) => runInit(app, { yes: true, install: false, tracked });

/** `.env` as name → value. */
function envOf(root: string): Record<string, string> {
	return Object.fromEntries(
		readFileSync(join(root, '.env'), 'utf8')
			.split('\n')
			.filter((line) => /^\w+=/.test(line))
			.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
	);
}

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'kitgate-init-'));
	app = join(dir, 'app');
	outside = join(dir, 'outside');
	mkdirSync(outside);
	makeApp(app);
	printed = [];
	const keep = (...args: unknown[]) => void printed.push(args.join(' '));
	vi.spyOn(console, 'log').mockImplementation(keep);
	vi.spyOn(console, 'error').mockImplementation(keep);
});

afterEach(() => {
	vi.restoreAllMocks();
	rmSync(dir, { recursive: true, force: true });
});

describe('symbolic links', () => {
	it('a dangling link at src/auth.ts does not make kitgate init create a file outside the app', async () => {
		mkdirSync(join(app, 'src'), { recursive: true });
		symlinkSync(join(outside, 'planted.ts'), join(app, 'src/auth.ts'));
		const before = snapshot(app);
		expect(await init()).toBe(1);
		expect(existsSync(join(outside, 'planted.ts'))).toBe(false);
		expect(snapshot(app)).toEqual(before);
		expect(printed.join('\n')).toMatch(/src\/auth\.ts is a symbolic link/);
	});

	it('a .env that links to a file elsewhere gets no secrets appended to that file', async () => {
		writeFileSync(join(outside, 'shared.env'), 'PORT=3000\n');
		symlinkSync(join(outside, 'shared.env'), join(app, '.env'));
		expect(await init()).toBe(1);
		expect(readFileSync(join(outside, 'shared.env'), 'utf8')).toBe('PORT=3000\n');
		expect(printed.join('\n')).toMatch(/\.env is a symbolic link/);
	});

	it('a route folder that links out of the app gets no file written into it', async () => {
		symlinkSync(outside, join(app, 'src/routes/signin'));
		expect(await init()).toBe(1);
		expect(readdirSync(outside)).toEqual([]);
		expect(printed.join('\n')).toMatch(/src\/routes\/signin is a symbolic link/);
	});
});

describe('.env', () => {
	it('an existing world-readable .env that gets secrets ends readable by its owner only, its lines kept', async () => {
		writeFileSync(join(app, '.env'), 'PORT=3000\n');
		chmodSync(join(app, '.env'), 0o644);
		expect(await init()).toBe(0);
		expect(statSync(join(app, '.env')).mode & 0o777).toBe(0o600);
		expect(readFileSync(join(app, '.env'), 'utf8')).toMatch(/^PORT=3000\nAUTH_SECRET=[\w-]{44}\nDEMO_USER_PASSWORD=[\w-]{44}\n$/);
	});

	it('a new .env is readable by its owner only, and neither secret is printed', async () => {
		expect(await init()).toBe(0);
		expect(statSync(join(app, '.env')).mode & 0o777).toBe(0o600);
		const env = envOf(app);
		expect(Object.keys(env)).toEqual(['AUTH_SECRET', 'DEMO_USER_PASSWORD']);
		for (const secret of Object.values(env)) expect(printed.join('\n')).not.toContain(secret);
	});

	it('a second run does not bring back the stand-in password the app removed (which turned the user off)', async () => {
		expect(await init()).toBe(0);
		writeFileSync(join(app, '.env'), `AUTH_SECRET=${envOf(app).AUTH_SECRET}\n`);
		const before = snapshot(app);
		expect(await init()).toBe(0);
		expect(snapshot(app)).toEqual(before);
	});

	it('a new machine (no .env) of an app already set up gets a new AUTH_SECRET but no stand-in password', async () => {
		expect(await init()).toBe(0);
		rmSync(join(app, '.env'));
		printed.length = 0;
		expect(await init()).toBe(0);
		expect(Object.keys(envOf(app))).toEqual(['AUTH_SECRET']);
		expect(printed.join('\n')).not.toMatch(/as `ada`/);
	});
});

describe('secrets that git would commit', () => {
	it('a .gitignore that un-ignores .env (`!.env`): no secret is written, nothing changes', async () => {
		writeFileSync(join(app, '.gitignore'), 'node_modules\n.env\n!.env\n');
		const before = snapshot(app);
		expect(await init()).toBe(1);
		expect(snapshot(app)).toEqual(before);
		expect(printed.join('\n')).toMatch(/\.env would be committed/);
	});

	it('a .env git tracks already: no secret is written into it', async () => {
		writeFileSync(join(app, '.env'), 'PORT=3000\n');
		const asked: string[] = [];
		const before = snapshot(app);
		expect(await init((_root: string, path: string) => asked.push(path) > 0)).toBe(1);
		expect(asked).toEqual(['.env']);
		expect(snapshot(app)).toEqual(before);
		expect(printed.join('\n')).toMatch(/git rm --cached \.env/);
	});

	it("sv create's .gitignore (.env.* with !.env.example) is no reason to refuse", async () => {
		writeFileSync(join(app, '.gitignore'), 'node_modules\n.env\n.env.*\n!.env.example\n!.env.test\n');
		expect(await init()).toBe(0);
		expect(readFileSync(join(app, '.gitignore'), 'utf8')).toMatch(/^\.data\/$/m);
	});
});

describe('all or nothing', () => {
	it('a write that fails halfway (a file where a folder must go) leaves every file of the app as it was', async () => {
		writeFileSync(join(app, 'src/routes/signout'), 'not a folder\n');
		const before = snapshot(app);
		expect(await init()).toBe(1);
		expect(snapshot(app)).toEqual(before);
		expect(printed.join('\n')).toMatch(/no file was changed/);
	});

	it('a file changed after it was planned (say, while the question waited) is not written over, nor is any other', () => {
		writeFileSync(join(app, '.gitignore'), 'node_modules\n# edited meanwhile\n');
		const before = snapshot(app);
		const failure = writeAll(app, [
			{ path: 'src/auth.ts', text: 'new\n', before: undefined },
			{ path: '.gitignore', text: 'node_modules\n.env\n', before: 'node_modules\n' }
		]);
		expect(failure).toMatch(/\.gitignore changed since kitgate init read it/);
		expect(snapshot(app)).toEqual(before);
	});

	it('a file that appeared after planning is not written over', () => {
		writeFileSync(join(app, 'src/auth.ts'), '// mine\n');
		expect(writeAll(app, [{ path: 'src/auth.ts', text: 'new\n', before: undefined }])).toMatch(/src\/auth\.ts changed/);
		expect(readFileSync(join(app, 'src/auth.ts'), 'utf8')).toBe('// mine\n');
	});

	it('an existing file it updates keeps its mode', async () => {
		chmodSync(join(app, 'svelte.config.js'), 0o640);
		expect(await init()).toBe(0);
		expect(readFileSync(join(app, 'svelte.config.js'), 'utf8')).toMatch(/adapter-node/);
		expect(statSync(join(app, 'svelte.config.js')).mode & 0o777).toBe(0o640);
	});
});

it('a package.json that is not JSON: a refusal that says so, not a stack trace', async () => {
	writeFileSync(join(app, 'package.json'), '{ "devDependencies": { "@sveltejs/kit": "^2" }, }\n');
	const before = snapshot(app);
	expect(await init()).toBe(1);
	expect(snapshot(app)).toEqual(before);
	expect(printed.join('\n')).toMatch(/package\.json is not valid JSON/);
});

describe('the hooks file SvelteKit loads', () => {
	it('src/hooks.server.ts and .js both there: SvelteKit may load either, so kitgate init refuses rather than merge into one', async () => {
		writeFileSync(join(app, 'src/hooks.server.ts'), 'export const handle = async ({ event, resolve }) => resolve(event);\n');
		writeFileSync(join(app, 'src/hooks.server.js'), 'export const handle = async ({ event, resolve }) => resolve(event);\n');
		const before = snapshot(app);
		expect(await init()).toBe(1);
		expect(snapshot(app)).toEqual(before);
		expect(printed.join('\n')).toMatch(/hooks\.server\.ts and src\/hooks\.server\.js both exist/);
	});

	it('a src/hooks.server folder (its index is the hook): refused, not a second hooks file beside it', async () => {
		mkdirSync(join(app, 'src/hooks.server'));
		writeFileSync(join(app, 'src/hooks.server/index.ts'), 'export const handle = async ({ event, resolve }) => resolve(event);\n');
		const before = snapshot(app);
		expect(await init()).toBe(1);
		expect(snapshot(app)).toEqual(before);
		expect(printed.join('\n')).toMatch(/src\/hooks\.server is a folder/);
	});
});

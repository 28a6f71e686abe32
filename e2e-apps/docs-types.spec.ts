// The docs cannot drift from the types: every code block of docs/ and the README type-checks in
// the real apps, and the apps the guides built (and the Auth.js-style app) pass svelte-check.

import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { realApps } from './apps.js';
import { checkDocBlocks, docBlocks } from './docs-types.js';

const { apps } = realApps();

/** Runs a checker and returns its output, passing or not. */
function output(command: string, args: string[], cwd: string): string {
	try {
		return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	} catch (error) {
		const failed = error as { stdout?: string; stderr?: string };
		return `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
	}
}

test('the SvelteKit app the guide built passes svelte-check (the guide cannot drift from the types)', () => {
	test.setTimeout(3 * 60_000);
	rmSync(join(apps.sveltekit.dir, 'src/docs-check'), { recursive: true, force: true });
	const found = output('npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--output', 'machine'], apps.sveltekit.dir);
	expect(found).toContain('COMPLETED');
	expect(found.split('\n').filter((line) => / (ERROR|WARNING) /.test(line))).toEqual([]);
});

test('the apps of the Tailwind and Skeleton recipes pass svelte-check', () => {
	test.setTimeout(4 * 60_000);
	for (const app of [apps.tailwind, apps.skeleton]) {
		const found = output('npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--output', 'machine'], app.dir);
		expect(found, app.dir).toContain('COMPLETED');
		expect(found.split('\n').filter((line) => / (ERROR|WARNING) /.test(line)), app.dir).toEqual([]);
	}
});

test('the Express app the guide built type-checks as JavaScript (checkJs, strict)', () => {
	test.setTimeout(3 * 60_000);
	writeFileSync(
		join(apps.express.dir, 'tsconfig.guide.json'),
		JSON.stringify({ compilerOptions: { strict: true, allowJs: true, checkJs: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', skipLibCheck: true, types: ['node'] }, files: ['server.js', 'users.js'] })
	);
	expect(output('npx', ['tsc', '--pretty', 'false', '-p', 'tsconfig.guide.json'], apps.express.dir).split('\n').filter((line) => line.includes('error'))).toEqual([]);
});

test('every TypeScript, JavaScript and Svelte block of the docs type-checks against the packed kitgate', () => {
	test.setTimeout(5 * 60_000);
	expect(docBlocks().length).toBeGreaterThan(30);
	const errors = checkDocBlocks(apps.sveltekit.dir, apps.express.dir);
	expect(errors.map((e) => `${e.source}: ${e.message}`)).toEqual([]);
});

test('the Auth.js-style app, with Auth.js markup and config forms, passes svelte-check', () => {
	test.setTimeout(3 * 60_000);
	const found = output('npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--output', 'machine'], apps.authjs.dir);
	expect(found).toContain('COMPLETED');
	expect(found.split('\n').filter((line) => / (ERROR|WARNING) /.test(line))).toEqual([]);
});

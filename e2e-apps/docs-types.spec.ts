// The docs cannot drift from the types: every code block of docs/ and the README type-checks in
// the real apps, and the apps the guides built (and the Auth.js-style app) pass svelte-check.

import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { realApps } from './apps.js';
import { checkDocBlocks, docBlocks } from './docs-types.js';

const { apps } = realApps();

test('every TypeScript, JavaScript and Svelte block of the docs type-checks against the packed kitgate', () => {
	test.setTimeout(5 * 60_000);
	expect(docBlocks().length).toBeGreaterThan(30);
	const errors = checkDocBlocks(apps.sveltekit.dir, apps.express.dir);
	expect(errors.map((e) => `${e.source}: ${e.message}`)).toEqual([]);
});

test('the Auth.js-style app, with Auth.js markup and config forms, passes svelte-check', () => {
	test.setTimeout(3 * 60_000);
	let output: string;
	try {
		output = execFileSync('npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--output', 'machine'], { cwd: apps.authjs.dir, encoding: 'utf8' });
	} catch (error) {
		output = String((error as { stdout?: string }).stdout);
	}
	expect(output.split('\n').filter((line) => / (ERROR|WARNING) /.test(line))).toEqual([]);
});

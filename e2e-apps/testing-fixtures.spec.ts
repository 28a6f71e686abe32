// docs/testing.md followed word by word in a copy of the guide's SvelteKit app (kitgate from the
// packed tarball): its vitest tests and its Playwright tests, which sign in with the fixtures of
// kitgate/testing/playwright (credentials, OpenID Connect, an email link, a made session), pass;
// its files type-check with svelte-check.

import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from '@playwright/test';
import { realApps } from './apps.js';
import { followGuide, GUIDE_OUTPUT } from './guide.js';
import { chromiumPath } from '../scripts/chromium-path.js';
import { freePort } from '../scripts/free-port.js';

const ROOT = resolve(import.meta.dirname, '..');
const { apps, tarball, work } = realApps();

test('an app tests itself as docs/testing.md says: vitest, and Playwright signing in with each method through the fixtures', async () => {
	test.setTimeout(20 * 60_000);
	const dir = join(work, 'testing-app');
	rmSync(dir, { recursive: true, force: true });
	// the guide's app as built, without its database (the copy signs in users of its own)
	cpSync(apps.sveltekit.dir, dir, {
		recursive: true,
		verbatimSymlinks: true,
		filter: (source) => !/^[/\\](\.data|src[/\\]docs-check|build)([/\\]|$)/.test(source.slice(apps.sveltekit.dir.length))
	});
	// before the guide installs them: kitgate/testing loads without vitest, oidc-provider and smtp-server,
	// and each helper that needs one names the package to install
	expect(missingPeerMessages(dir)).toEqual([
		'runAdapterTests() registers vitest tests and needs the package vitest: npm install --save-dev vitest',
		'startTestMailbox() needs the package smtp-server: npm install --save-dev smtp-server',
		'startTestIdp() needs the package oidc-provider: npm install --save-dev oidc-provider'
	]);
	const port = await freePort();
	await withoutPlaywrightWorkerEnv(() =>
		followGuide(dir, join(ROOT, 'docs/testing.md'), {
			tarball,
			commandEnv: { PORT: String(port), CHROMIUM_PATH: chromiumPath() ?? '/usr/bin/chromium', CI: 'true', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' }
		})
	);
	// without colours (vitest writes them even into a pipe under CI)
	const output = stripVTControlCharacters(readFileSync(join(dir, GUIDE_OUTPUT), 'utf8'));
	// vitest's summary, then Playwright's
	expect(output).toMatch(/Tests\s+2 passed \(2\)/);
	expect(output).toMatch(/\b4 passed\b/);
	expect(output).not.toMatch(/\b\d+ (failed|flaky|skipped)\b/);

	// the guide's files type-check in the app (tests/ and src/ are in SvelteKit's tsconfig)
	const checked = svelteCheck(dir);
	expect(checked).toContain('COMPLETED');
	expect(checked.split('\n').filter((line) => / (ERROR|WARNING) /.test(line))).toEqual([]);
	// and the two config files at the root, which SvelteKit's tsconfig leaves out
	writeFileSync(
		join(dir, 'tsconfig.testing-doc.json'),
		JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true }, include: ['playwright.config.ts', 'vitest.config.ts', 'tests/**/*.ts', 'src/**/*.test.ts'] })
	);
	expect(typeErrors(dir, 'tsconfig.testing-doc.json')).toEqual([]);
});

/** What kitgate/testing's helpers say in `dir` when their optional peer dependencies are missing. */
function missingPeerMessages(dir: string): string[] {
	const script = `
		const testing = await import('kitgate/testing');
		const messages = [];
		try { testing.runAdapterTests({ adapter: () => ({}) }); } catch (error) { messages.push(error.message); }
		await testing.startTestMailbox().then((mailbox) => mailbox.close(), (error) => messages.push(error.message));
		const client = { client_id: 'app', redirect_uris: ['http://127.0.0.1/auth/callback/oidc'] };
		await testing.startTestIdp({ clients: [client] }).then((idp) => idp.close(), (error) => messages.push(error.message));
		console.log(JSON.stringify(messages));`;
	return JSON.parse(execFileSync('node', ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' })) as string[];
}

/** svelte-check's machine output in `dir`, passing or not. */
function svelteCheck(dir: string): string {
	try {
		return execFileSync('npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--output', 'machine'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	} catch (error) {
		return String((error as { stdout?: string }).stdout ?? '');
	}
}

/** The error lines of `tsc -p <project>` in `dir`. */
function typeErrors(dir: string, project: string): string[] {
	try {
		execFileSync('npx', ['tsc', '-p', project, '--pretty', 'false'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
		return [];
	} catch (error) {
		const output = String((error as { stdout?: string }).stdout ?? '');
		return output.split('\n').filter((line) => line.includes('error')).concat(output.trim() ? [] : ['tsc failed without output']);
	}
}

/** Runs `work` with the variables Playwright gives its workers removed, so the app's own Playwright starts afresh. */
async function withoutPlaywrightWorkerEnv<T>(work: () => Promise<T>): Promise<T> {
	const saved = Object.entries(process.env).filter(([name]) => /^(TEST_|PW_|PLAYWRIGHT_)|^NODE_OPTIONS$|^FORCE_COLOR$/.test(name));
	for (const [name] of saved) delete process.env[name];
	try {
		return await work();
	} finally {
		for (const [name, value] of saved) process.env[name] = value;
	}
}


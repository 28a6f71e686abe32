// `npm test`: every test in one go — type checks, unit and integration tests (vitest), the build,
// packaging checks, the Storybook build, the packed-tarball tests, the Playwright end-to-end tests
// of the demos, and the real apps (made by sv create / npm init from the tarball, docs followed).
// Ends with one line `N passed, N failed` and exits non-zero on any failure.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const results = [];

/** Runs a command, streaming its output; returns its exit code. */
function run(label, command, args, env = {}) {
	console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
	const started = Date.now();
	const child = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
	console.log(`=== ${label}: exit ${child.status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return child.status ?? 1;
}

/** Records a single pass/fail check. */
function check(label, ok) {
	results.push({ label, passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
}

rmSync('reports', { recursive: true, force: true });
mkdirSync('reports', { recursive: true });

check('svelte-check', run('types', 'npx', ['svelte-kit', 'sync']) === 0 &&
	// the generated page modules and CSS (Tailwind) must exist before anything imports them
	run('types', 'node', ['scripts/compile-pages.js']) === 0 &&
	run('types', 'npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--fail-on-warnings']) === 0);
check('eslint', run('lint', 'npx', ['eslint', '.']) === 0);
// the layer rules of .dependency-cruiser.cjs (docs/architecture.md): a forbidden import fails here
check('layers', run('layers', 'npm', ['run', 'lint:layers']) === 0);

run('unit and integration', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=reports/vitest.json']);
if (existsSync('reports/vitest.json')) {
	const report = JSON.parse(readFileSync('reports/vitest.json', 'utf8'));
	const failed = report.numFailedTests + (report.numTotalTests === 0 ? 1 : 0) + (report.success || report.numFailedTests ? 0 : 1);
	results.push({ label: 'vitest', passed: report.numPassedTests, failed });
} else {
	check('vitest (no report)', false);
}

const built =
	run('build', 'npx', ['vite', 'build']) === 0 &&
	// the same demo served under a base path, for the base-path end-to-end test
	run('build under /app', 'npx', ['vite', 'build'], { BASE_PATH: '/app', BUILD_DIR: 'build-base' }) === 0 &&
	run('package', 'npx', ['svelte-package']) === 0 &&
	run('strip comments', 'node', ['scripts/strip-comments.js']) === 0 &&
	run('kysely as one module', 'node', ['scripts/bundle-kysely.js']) === 0;
check('build', built);
if (built) {
	// the API report of every entry point (api/*.api.md) matches the built declarations; npm run api:update accepts a change
	check('api report', run('api report', 'npm', ['run', 'api:check']) === 0);
	check('publint', run('publint', 'npx', ['publint', '--strict']) === 0);
	check('are-the-types-wrong', run('attw', 'npx', ['attw', '--pack', '.', '--profile', 'esm-only', '--ignore-rules', 'cjs-resolves-to-esm',
		// .svelte component types resolve only in bundler mode, as for every Svelte library
		'--exclude-entrypoints', './components', './styles.css']) === 0);
	// every story of the pages and components still builds (Storybook's static build)
	check('storybook', run('storybook', 'npx', ['storybook', 'build', '--quiet', '--output-dir', 'storybook-static'], { STORYBOOK_DISABLE_TELEMETRY: '1' }) === 0);
	// the guide in a SvelteKit 3 app on Node 22 (from npm), from the tarball, in Chromium (scripts/sveltekit3.test.js)
	for (const [label, file] of [['packed tarball', 'scripts/pack.test.js'], ['packed adapters', 'scripts/pack-adapters.test.js'], ['sveltekit 3', 'scripts/sveltekit3.test.js']]) {
		const tap = spawnSync('node', ['--test', '--test-reporter=tap', file], { encoding: 'utf8', env: process.env });
		process.stdout.write(tap.stdout ?? '');
		process.stderr.write(tap.stderr ?? '');
		const pass = Number(/^# pass (\d+)/m.exec(tap.stdout ?? '')?.[1] ?? 0);
		const fail = Number(/^# fail (\d+)/m.exec(tap.stdout ?? '')?.[1] ?? 0);
		results.push({ label, passed: pass, failed: fail + (pass + fail === 0 || tap.status ? 1 : 0) });
	}

	run('end-to-end', 'npx', ['playwright', 'test'], { CI: 'true' });
	playwrightResult('playwright', 'reports/playwright.json');
	// apps made by sv create and a plain Express app from the tarball, following the guides (see e2e-apps/)
	run('real apps', 'npx', ['playwright', 'test', '-c', 'playwright.apps.config.ts'], { CI: 'true' });
	playwrightResult('real apps', 'reports/playwright-apps.json');
}

/** Adds the counts of a Playwright JSON report (a missing report is a failure). */
function playwrightResult(label, report) {
	if (!existsSync(report)) return check(`${label} (no report)`, false);
	const stats = JSON.parse(readFileSync(report, 'utf8')).stats;
	results.push({ label, passed: stats.expected, failed: stats.unexpected + stats.flaky + (stats.expected ? 0 : 1) });
}

console.log('\n=== summary');
for (const r of results) console.log(`${r.label}: ${r.passed} passed, ${r.failed} failed`);
const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

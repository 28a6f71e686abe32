// `npm test`: every test in one go — type checks, unit and integration tests (vitest), the build,
// packaging checks, the Storybook build, the packed-tarball tests, the Playwright end-to-end tests
// of the demos, and the real apps (made by sv create / npm init from the tarball, docs followed).
// Ends with one line `N passed, N failed` and exits non-zero on any failure.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const results = [];
const suiteStarted = Date.now();
/** Seconds since `npm test` began, to place each stage on the run's timeline. */
const at = () => `at ${((Date.now() - suiteStarted) / 1000).toFixed(0)} s`;

/** Runs a command, streaming its output; returns its exit code. */
function run(label, command, args, env = {}) {
	console.log(`\n=== ${label} (${at()}): ${command} ${args.join(' ')}`);
	const started = Date.now();
	const child = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
	console.log(`=== ${label}: exit ${child.status} in ${((Date.now() - started) / 1000).toFixed(1)} s (${at()})`);
	return child.status ?? 1;
}

/** Starts a command whose output streams as it comes; resolves to its exit code. */
function runInBackground(label, command, args, env = {}) {
	console.log(`\n=== ${label} (${at()}): ${command} ${args.join(' ')}`);
	const started = Date.now();
	return new Promise((resolve) => {
		const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
		child.on('error', () => resolve(1));
		child.on('close', (status) => {
			console.log(`=== ${label}: exit ${status} in ${((Date.now() - started) / 1000).toFixed(1)} s (${at()})`);
			resolve(status ?? 1);
		});
	});
}

/**
 * Runs commands side by side, at most `width` at once (the short single-core stages: two cores); each
 * one's output is held and printed whole when it ends, so lines do not interleave. Resolves to
 * their exit codes and outputs, in the given order.
 */
async function runSideBySide(commands, width = 2) {
	const outcomes = [];
	let next = 0;
	const lane = async () => {
		while (next < commands.length) {
			const index = next++;
			const { label, command, args, env = {} } = commands[index];
			const started = Date.now();
			let output = '';
			const code = await new Promise((resolve) => {
				const child = spawn(command, args, { env: { ...process.env, ...env } });
				child.stdout.on('data', (chunk) => (output += chunk));
				child.stderr.on('data', (chunk) => (output += chunk));
				child.on('error', (error) => {
					output += `${error.message}\n`;
					resolve(1);
				});
				child.on('close', (status) => resolve(status ?? 1));
			});
			process.stdout.write(`\n=== ${label}: ${command} ${args.join(' ')}\n${output}=== ${label}: exit ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s (${at()})\n`);
			outcomes[index] = { code, output };
		}
	};
	await Promise.all(Array.from({ length: width }, lane));
	return outcomes;
}

/** Records a single pass/fail check. */
function check(label, ok) {
	results.push({ label, passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
}

rmSync('reports', { recursive: true, force: true });
mkdirSync('reports', { recursive: true });

// the generated page modules and CSS (Tailwind) must exist before anything imports them
const generated = run('types', 'npx', ['svelte-kit', 'sync']) === 0 && run('types', 'node', ['scripts/compile-pages.js']) === 0;
const [types, lint, layers] = (await runSideBySide([
	{ label: 'types', command: 'npx', args: ['svelte-check', '--tsconfig', './tsconfig.json', '--fail-on-warnings'] },
	{ label: 'lint', command: 'npx', args: ['eslint', '.'] },
	// the layer rules of .dependency-cruiser.cjs (docs/architecture.md): a forbidden import fails here
	{ label: 'layers', command: 'npm', args: ['run', 'lint:layers'] }
], 3)).map((outcome) => outcome.code);
check('svelte-check', generated && types === 0);
check('eslint', lint === 0);
check('layers', layers === 0);

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
	/** A `node --test` file whose TAP counts are added to the summary. */
	const tapFile = (label, file) => ({ label, command: 'node', args: ['--test', '--test-reporter=tap', file], tap: true });
	const stages = [
		// the guide in a SvelteKit 3 app on Node 22 (from npm), from the tarball, in Chromium (scripts/sveltekit3.test.js)
		tapFile('sveltekit 3', 'scripts/sveltekit3.test.js'),
		tapFile('packed tarball', 'scripts/pack.test.js'),
		tapFile('packed adapters', 'scripts/pack-adapters.test.js'),
		// the API report of every entry point (api/*.api.md) matches the built declarations; npm run api:update accepts a change
		{ label: 'api report', command: 'npm', args: ['run', 'api:check'] },
		// every story of the pages and components still builds (Storybook's static build)
		{ label: 'storybook', command: 'npx', args: ['storybook', 'build', '--quiet', '--output-dir', 'storybook-static'], env: { STORYBOOK_DISABLE_TELEMETRY: '1' } },
		{ label: 'are-the-types-wrong', command: 'npx', args: ['attw', '--pack', '.', '--profile', 'esm-only', '--ignore-rules', 'cjs-resolves-to-esm',
			// .svelte component types resolve only in bundler mode, as for every Svelte library
			'--exclude-entrypoints', './components', './styles.css'] },
		{ label: 'publint', command: 'npx', args: ['publint', '--strict'] }
	];
	// the demos' end-to-end tests leave most of a core idle (Chromium waits on the servers): the
	// packaging checks run one at a time beside them
	const endToEnd = runInBackground('end-to-end', 'npx', ['playwright', 'test'], { CI: 'true' });
	const outcomes = await runSideBySide(stages, 1);
	stages.forEach((stage, index) => {
		const { code, output } = outcomes[index];
		if (!stage.tap) return check(stage.label, code === 0);
		const pass = Number(/^# pass (\d+)/m.exec(output)?.[1] ?? 0);
		const fail = Number(/^# fail (\d+)/m.exec(output)?.[1] ?? 0);
		results.push({ label: stage.label, passed: pass, failed: fail + (pass + fail === 0 || code ? 1 : 0) });
	});

	await endToEnd;
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

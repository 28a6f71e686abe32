// Packs kitgate with `npm pack` and installs the tarball alone in a clean folder, without the optional
// database drivers (`pg`, `better-sqlite3`): each adapter entry must still import, and creating the
// adapter must fail with an error that names what to install, touching no file. One install for all tests.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
let dir;
let app;

before(() => {
	dir = mkdtempSync(join(tmpdir(), 'kitgate-pack-adapters-'));
	const packed = spawnSync('npm', ['pack', '--pack-destination', dir, '--json'], { cwd: root, encoding: 'utf8' });
	assert.equal(packed.status, 0, packed.stderr);
	const [{ filename }] = JSON.parse(packed.stdout);
	app = join(dir, 'app');
	mkdirSync(app);
	writeFileSync(
		join(app, 'package.json'),
		JSON.stringify({ name: 'pack-adapters-test', private: true, type: 'module', dependencies: { kitgate: `file:../${filename}` } })
	);
	// optional peers (pg, better-sqlite3, nodemailer, …) are left out, as in an app that installed kitgate alone
	const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app, encoding: 'utf8' });
	assert.equal(installed.status, 0, installed.stderr);
});

after(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs an ES module script in the app folder and returns what it printed as JSON. */
function runInApp(lines) {
	const run = spawnSync('node', ['--input-type=module', '-e', lines.join('\n')], { cwd: app, encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });
	assert.equal(run.status, 0, run.stderr);
	return JSON.parse(run.stdout);
}

/** Script lines that call `create` and print the error it throws (or `null`). */
function thrownBy(create) {
	return [
		'let thrown = null;',
		`try { ${create}; } catch (error) { thrown = { name: error.name, type: error.type, message: error.message }; }`,
		'console.log(JSON.stringify(thrown));'
	];
}

test('the clean install has kysely (a dependency) but neither pg nor better-sqlite3', () => {
	assert.equal(existsSync(join(app, 'node_modules/kitgate/dist/server/adapters/postgres.js')), true);
	assert.equal(existsSync(join(app, 'node_modules/kysely')), true);
	assert.equal(existsSync(join(app, 'node_modules/pg')), false);
	assert.equal(existsSync(join(app, 'node_modules/better-sqlite3')), false);
});

test('without pg, kitgate/adapters/postgres imports and PostgresAdapter() says to run npm install pg', () => {
	const thrown = runInApp([
		"const { PostgresAdapter } = await import('kitgate/adapters/postgres');",
		...thrownBy("PostgresAdapter({ connectionString: 'postgres://127.0.0.1:1/app' })")
	]);
	assert.ok(thrown, 'PostgresAdapter() threw');
	assert.equal(thrown.type, 'Configuration');
	assert.match(thrown.message, /^PostgresAdapter needs the `pg` package, which is not installed: run `npm install pg`\.$/);
});

test('without better-sqlite3, kitgate/adapters/sqlite imports and SQLiteAdapter() says to run npm install better-sqlite3, creating no file', () => {
	const thrown = runInApp([
		"const { SQLiteAdapter } = await import('kitgate/adapters/sqlite');",
		...thrownBy("SQLiteAdapter({ filename: 'data/auth.sqlite' })")
	]);
	assert.ok(thrown, 'SQLiteAdapter() threw');
	assert.equal(thrown.type, 'Configuration');
	assert.match(thrown.message, /^SQLiteAdapter needs the `better-sqlite3` package, which is not installed: run `npm install better-sqlite3`\.$/);
	assert.equal(existsSync(join(app, 'data')), false);
});

test('without either driver, the rate-limit store and the memory adapter import', () => {
	const loaded = runInApp([
		"const { SqlRateLimitStore } = await import('kitgate/adapters/rate-limit-store');",
		"const { MemoryAdapter } = await import('kitgate/adapters/memory');",
		'console.log(JSON.stringify([typeof SqlRateLimitStore, typeof MemoryAdapter]));'
	]);
	assert.deepEqual(loaded, ['function', 'function']);
});

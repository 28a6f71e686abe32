#!/usr/bin/env node
// Installs bench/reference (the real Auth.js packages, kept out of kitgate's own dependencies) when a
// pinned package is missing. Used by bench/run.js and by the tests that compare with Auth.js; `node bench/install-reference.js`.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';

/** The folder whose package.json pins Auth.js and the bench's load generator. */
export const REFERENCE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'reference');

const LOCK = join(REFERENCE_DIR, '.install-lock');
/** A lock older than this was left by a process that died while installing. */
const STALE_LOCK_MS = 10 * 60_000;

/**
 * The pinned packages of bench/reference/package.json that are not installed at their pinned version.
 *
 * @example
 * missingReferencePackages(); // [] once installed
 * @returns {string[]}
 */
export function missingReferencePackages() {
	const manifest = JSON.parse(readFileSync(join(REFERENCE_DIR, 'package.json'), 'utf8'));
	return Object.entries(manifest.dependencies ?? {})
		.filter(([name, version]) => installedVersion(name) !== version)
		.map(([name, version]) => `${name}@${version}`);
}

/** @param {string} name */
function installedVersion(name) {
	const file = join(REFERENCE_DIR, 'node_modules', name, 'package.json');
	return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
}

/**
 * Runs `npm install` in bench/reference unless every pinned package is there; one process at a time
 * (test files and the bench may ask at once), the others wait for it.
 *
 * @example
 * await ensureReferenceInstalled({ log: (line) => console.error(line) });
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {Promise<void>}
 */
export async function ensureReferenceInstalled(options = {}) {
	if (missingReferencePackages().length === 0) return;
	await withLock(async () => {
		const missing = missingReferencePackages();
		if (missing.length === 0) return;
		options.log?.(`installing bench/reference (${missing.join(', ')})…`);
		await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund'], { cwd: REFERENCE_DIR, timeout: 10 * 60_000 });
		const still = missingReferencePackages();
		if (still.length) throw new Error(`npm install in bench/reference did not install ${still.join(', ')}`);
	});
}

/**
 * @param {() => Promise<void>} task
 * @returns {Promise<void>}
 */
async function withLock(task) {
	for (;;) {
		try {
			mkdirSync(LOCK);
			break;
		} catch {
			// a lock left by a killed process would block every later run
			if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
			await sleep(500);
		}
	}
	try {
		await task();
	} finally {
		rmSync(LOCK, { recursive: true, force: true });
	}
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	await ensureReferenceInstalled({ log: (line) => console.error(line) });
}

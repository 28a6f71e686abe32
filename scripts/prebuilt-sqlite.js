// better-sqlite3's install script first looks for a prebuilt binary: in npm's cache
// (~/.npm/_prebuilds), then on GitHub, and compiles only when neither has it. A user's machine
// downloads it; these machines cannot reach GitHub, so every app the tests install compiled it
// again (minutes on two cores). Putting a binary already compiled here into npm's cache, under the
// name the download would have, gives the apps the install a user gets, without the compiler.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const BINARY = 'build/Release/better_sqlite3.node';

/**
 * Where prebuild-install keeps the download of better-sqlite3 `version` for the running Node:
 * `<npm cache>/_prebuilds/<first 6 hex of sha512(url)>-<file name with [^a-zA-Z0-9.] as ->`.
 *
 * @param {string} version
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 */
export function prebuildCachePath(version, env = process.env) {
	const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
	const url = `https://github.com/WiseLibs/better-sqlite3/releases/download/v${version}/${file}`;
	const digest = createHash('sha512').update(url).digest('hex').slice(0, 6);
	const cache = env.npm_config_cache || join(homedir(), '.npm');
	return join(cache, '_prebuilds', `${digest}-${file.replace(/[^a-zA-Z0-9.]+/g, '-')}`);
}

/**
 * Puts the binary compiled in `moduleDir` (an installed better-sqlite3) into npm's prebuild cache,
 * once per version and Node ABI; later installs of that version unpack it instead of compiling.
 * Returns the cache file, or undefined when `moduleDir` has no compiled binary.
 *
 * @param {string} moduleDir
 * @returns {string | undefined}
 */
export function sharePrebuiltSqlite(moduleDir) {
	if (!existsSync(join(moduleDir, BINARY))) return undefined;
	const { version } = JSON.parse(readFileSync(join(moduleDir, 'package.json'), 'utf8'));
	const target = prebuildCachePath(version);
	if (existsSync(target)) return target;
	mkdirSync(join(target, '..'), { recursive: true });
	// written beside and renamed, so a concurrent install never reads half a file
	const partial = `${target}.${process.pid}.tmp`;
	execFileSync('tar', ['-czf', partial, '-C', moduleDir, BINARY]);
	execFileSync('mv', [partial, target]);
	return target;
}

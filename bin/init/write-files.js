// Writing kitgate init's planned files as a whole or not at all: never through a symbolic link,
// never over a file that changed since it was planned, and every file staged beside its place
// before any is renamed into it, so a failure while writing leaves the app as it was.

import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/**
 * @typedef {{ path: string, text: string, before: string | undefined, secret?: boolean }} PlannedWrite
 */

/**
 * The first symbolic link on the way from `root` (excluded) to `path` (included), relative to
 * `root`, or undefined. kitgate init writes into the app only: a link could lead its writes (and
 * `.env`'s secrets) anywhere, or a dangling one create a file outside the app.
 * @param {string} root
 * @param {string} path relative to root
 * @returns {string | undefined}
 * @example
 * linkOnTheWay('/app', '.env'); // '.env' when /app/.env is a symbolic link
 */
export function linkOnTheWay(root, path) {
	let current = root;
	for (const part of path.split(/[\\/]/)) {
		current = join(current, part);
		const stat = lstatSync(current, { throwIfNoEntry: false });
		if (!stat) return undefined;
		if (stat.isSymbolicLink()) return relative(root, current).split(sep).join('/');
		// a file where a folder should be: no link further on (the write fails, and changes nothing)
		if (!stat.isDirectory()) return undefined;
	}
	return undefined;
}

/**
 * Writes `writes` into `root` as a whole: answers undefined when all are written, or why none was.
 * A secret file (`.env`) ends readable by its owner only, also when it existed before; another
 * existing file keeps its mode.
 * @param {string} root
 * @param {PlannedWrite[]} writes
 * @returns {string | undefined}
 * @example
 * const failure = writeAll(root, plan.writes);
 * if (failure) console.error(`kitgate init changed nothing: ${failure}`);
 */
export function writeAll(root, writes) {
	for (const write of writes) {
		const link = linkOnTheWay(root, write.path);
		if (link) return `${link} is a symbolic link: kitgate init writes only inside the app`;
		const target = join(root, write.path);
		const now = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
		if (now !== write.before) return `${write.path} changed since kitgate init read it: run it again`;
	}
	/** @type {string[]} */
	const createdFolders = [];
	/** @type {{ staged: string, target: string }[]} */
	const staged = [];
	try {
		for (const write of writes) {
			const target = join(root, write.path);
			createdFolders.push(...makeFolders(root, dirname(write.path)));
			const stagedPath = `${target}.kitgate-init-${randomBytes(6).toString('hex')}`;
			const mode = write.secret ? 0o600 : existsSync(target) ? statSync(target).mode & 0o777 : 0o666;
			// `wx`: never opens an existing file (nor follows a link put there)
			writeFileSync(stagedPath, write.text, { flag: 'wx', mode });
			staged.push({ staged: stagedPath, target });
			// the umask may not take bits off a mode it is told to keep
			if (!write.secret && existsSync(target)) chmodSync(stagedPath, mode);
		}
	} catch (error) {
		for (const one of staged) unlinkSync(one.staged);
		for (const folder of createdFolders.reverse()) rmdirSync(folder);
		return `writing failed (${error instanceof Error ? error.message : error}); no file was changed`;
	}
	// a rename replaces the file in one step (and replaces, never follows, whatever is at its place)
	for (const one of staged) renameSync(one.staged, one.target);
	return undefined;
}

/** Creates the missing folders of `folder` (relative to root), outermost first; answers the ones it created. */
function makeFolders(root, folder) {
	/** @type {string[]} */
	const created = [];
	let current = root;
	for (const part of folder.split(/[\\/]/).filter((one) => one && one !== '.')) {
		current = join(current, part);
		if (existsSync(current)) continue;
		mkdirSync(current);
		created.push(current);
	}
	return created;
}

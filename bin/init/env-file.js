// The .env lines and .gitignore entries `kitgate init` adds: a random AUTH_SECRET and stand-in
// password, each only when the variable is not set yet. Their values are never printed.

import { randomBytes } from 'node:crypto';

/**
 * The lines to append to `.env` (`existing`: its text, undefined when there is no .env): the variables of `wanted` it lacks.
 * @param {string | undefined} existing
 * @param {string[]} wanted variable names; each gets a fresh random value
 * @returns {{ added: string[], text: string }}
 * @example
 * envAdditions('PORT=3000\n', ['AUTH_SECRET']); // { added: ['AUTH_SECRET'], text: 'AUTH_SECRET=…\n' }
 */
export function envAdditions(existing, wanted) {
	const present = new Set(
		(existing ?? '')
			.split('\n')
			.map((line) => line.replace(/^\s*export\s+/, ''))
			.filter((line) => !line.trimStart().startsWith('#') && line.includes('='))
			.map((line) => line.slice(0, line.indexOf('=')).trim())
	);
	const added = wanted.filter((name) => !present.has(name));
	// 33 random bytes: 44 characters of base64url, over the 32 a secret needs; no quoting needed in .env
	const text = added.map((name) => `${name}=${randomBytes(33).toString('base64url')}\n`).join('');
	return { added, text };
}

/**
 * The entries of `wanted` that `.gitignore` (text, or undefined) does not list yet.
 * @param {string | undefined} existing
 * @param {string[]} wanted
 * @returns {string[]}
 */
export function missingIgnores(existing, wanted) {
	const lines = new Set(ignoreLines(existing));
	return wanted.filter((entry) => !lines.has(bare(entry)));
}

/**
 * Whether `.gitignore` (text, or undefined) un-ignores `entry` (`!.env`): git would then track the
 * file, whatever kitgate init appends before or after.
 * @param {string | undefined} existing
 * @param {string} entry
 * @example
 * unignores('.env\n!.env\n', '.env'); // true
 */
export function unignores(existing, entry) {
	return ignoreLines(existing).includes(`!${bare(entry)}`);
}

/** The lines of a .gitignore, trimmed, without a leading or trailing slash (after a `!`, too). */
function ignoreLines(text) {
	return (text ?? '').split(/\r?\n/).map((line) => (line.trim().startsWith('!') ? `!${bare(line.trim().slice(1))}` : bare(line)));
}

/** @param {string} entry */
function bare(entry) {
	return entry.trim().replace(/^\//, '').replace(/\/$/, '');
}

/**
 * `text` with `addition` appended on lines of its own.
 * @param {string | undefined} text
 * @param {string} addition
 */
export function appendLines(text, addition) {
	if (!text) return addition;
	return `${text.endsWith('\n') ? text : `${text}\n`}${addition}`;
}

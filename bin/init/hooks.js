// Adding kitgate's `handle` to an app's src/hooks.server file without losing the app's own: a pure
// text transform that handles the shapes `sv create` and the SvelteKit docs write, and refuses the rest.

import { NEW_HOOKS } from './templates.js';

/**
 * What becomes of the hooks file: `unchanged` (kitgate's handle is there), `write` with the new
 * text, or `refuse` with the reason (the file is left as it is).
 * @typedef {{ action: 'unchanged' } | { action: 'write', text: string, merged: boolean } | { action: 'refuse', reason: string }} HooksPlan
 */

/** `export const handle`, `export let handle`, `export function handle`, `export async function handle`. */
const HANDLE_DECLARATION = /^export\s+((?:const|let|var)\s+handle\b|(?:async\s+)?function\s+handle\b)/gm;
/** `export { handle }`, `export { x as handle }`, `export { handle } from '…'`. */
const HANDLE_IN_EXPORT_LIST = /^export\s*(?:type\s*)?\{[^}]*\bhandle\b[^}]*\}/gm;
/** An import of `./auth` (the file `kitgate init` writes) or of kitgate itself. */
const IMPORTS_AUTH = /\bfrom\s*['"](?:\.\/auth(?:\.[jt]s)?|kitgate\/sveltekit)['"]/;

/**
 * Plans the hooks file for `existing` (its text, or undefined when there is none).
 * @param {string | undefined} existing
 * @returns {HooksPlan}
 * @example
 * planHooks("export const handle: Handle = ({ event, resolve }) => resolve(event);\n");
 * // { action: 'write', merged: true, text: "import { sequence } …" }
 */
export function planHooks(existing) {
	if (existing === undefined || existing.trim() === '') return { action: 'write', text: NEW_HOOKS, merged: false };
	if (IMPORTS_AUTH.test(existing)) return { action: 'unchanged' };
	const code = withoutComments(existing);
	const declarations = [...code.matchAll(HANDLE_DECLARATION)];
	const listed = [...code.matchAll(HANDLE_IN_EXPORT_LIST)];
	// no handle of the app's own (only handleError, init, …): kitgate's is the handle
	if (declarations.length === 0 && listed.length === 0) return { action: 'write', text: `${existing.replace(/\n*$/, '\n')}\n${NEW_HOOKS}`, merged: false };
	if (listed.length > 0 || declarations.length !== 1) {
		return refuse('its `handle` is exported in a way kitgate init does not rewrite (an `export { … }` list, or more than one declaration)');
	}
	for (const name of ['appHandle', 'authHandle']) {
		if (new RegExp(`\\b${name}\\b`).test(code)) return refuse(`it already uses the name \`${name}\``);
	}
	const keyword = declarations[0][1];
	if (/^(?:const|let|var)/.test(keyword) && /^export\s+(?:const|let|var)\s+handle\b[^;]*?,\s*\w+\s*[:=]/m.test(code)) {
		return refuse('`handle` is declared together with other names');
	}
	const renamed = existing.replace(HANDLE_DECLARATION, (_, declaration) => declaration.replace(/\bhandle\b/, 'appHandle'));
	// the app's handle must not be referred to by its old name anywhere else
	if (/\bhandle\b/.test(withoutComments(renamed).replace(/\bappHandle\b/g, ''))) {
		return refuse('the file refers to `handle` elsewhere, so renaming it is not safe');
	}
	const sequenceImported = /import\s*\{[^}]*\bsequence\b[^}]*\}\s*from\s*['"]@sveltejs\/kit\/hooks['"]/.test(code);
	if (!sequenceImported && /\bsequence\b/.test(code)) return refuse('it already has something named `sequence`');
	const imports = [sequenceImported ? '' : "import { sequence } from '@sveltejs/kit/hooks';\n", "import { handle as authHandle } from './auth';\n"].join('');
	const text = `${imports}${renamed.replace(/\n*$/, '\n')}\n// kitgate's routes and event.locals.auth() first, then the app's own handle\nexport const handle = sequence(authHandle, appHandle);\n`;
	return { action: 'write', text, merged: true };
}

/** @param {string} reason @returns {HooksPlan} */
function refuse(reason) {
	return { action: 'refuse', reason };
}

/** The code without its comments (strings are left alone: good enough for finding declarations). */
function withoutComments(code) {
	return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

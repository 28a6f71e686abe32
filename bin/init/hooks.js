// Adding kitgate's `handle` to an app's src/hooks.server file without losing the app's own: a pure
// text transform that handles the shapes `sv create` and the SvelteKit docs write, and refuses the rest.

import { maskCode } from './mask-code.js';
import { NEW_HOOKS } from './templates.js';

/**
 * What becomes of the hooks file: `unchanged` (kitgate's handle is there; `warning` when it runs
 * after another handle), `write` with the new text, or `refuse` with the reason (the file is left as it is).
 * @typedef {{ action: 'unchanged', warning?: string } | { action: 'write', text: string, merged: boolean } | { action: 'refuse', reason: string }} HooksPlan
 */

/** `export const handle`, `export let handle`, `export function handle`, `export async function handle`. */
const HANDLE_DECLARATION = /^[ \t]*export\s+((?:const|let|var)\s+handle\b|(?:async\s+)?function\s+handle\b)/gm;
/** `export { handle }`, `export { x as handle }`, `export { handle } from '…'`. */
const HANDLE_IN_EXPORT_LIST = /^[ \t]*export\s*(?:type\s*)?\{[^}]*\bhandle\b[^}]*\}/gm;
/** The module of `./auth` (the file `kitgate init` writes) or of kitgate itself, in an import or export. */
const AUTH_MODULE = String.raw`\s*from\s*['"](?:\.\/auth(?:\.[jt]s)?|kitgate\/sveltekit)['"]`;
/** `export { handle } from './auth'`: kitgate's handle is the app's. */
const REEXPORTS_AUTH_HANDLE = new RegExp(String.raw`^[ \t]*export\s*\{\s*handle(?:\s+as\s+handle)?\s*\}` + AUTH_MODULE, 'm');
/** `import { handle as x } from './auth'`: answers x. */
const IMPORTS_AUTH_HANDLE = new RegExp(String.raw`^[ \t]*import\s*\{[^}]*\bhandle\s+as\s+(\w+)[^}]*\}` + AUTH_MODULE, 'm');

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
	// the lines it adds in the file's own line endings (the file's own text is left byte for byte)
	return planHooksText(existing, existing.includes('\r\n') ? '\r\n' : '\n');
}

/** @param {string} existing @param {string} nl @returns {HooksPlan} */
function planHooksText(existing, nl) {
	const lines = (text) => text.replace(/\n/g, nl);
	// `codeWithStrings` for module names; `code` (strings blanked too) for declarations and names
	const codeWithStrings = maskCode(existing, { strings: false });
	const code = maskCode(existing, { strings: true });
	if (REEXPORTS_AUTH_HANDLE.test(codeWithStrings)) return { action: 'unchanged' };
	const importedAs = IMPORTS_AUTH_HANDLE.exec(codeWithStrings)?.[1];
	const declarations = [...code.matchAll(HANDLE_DECLARATION)];
	const listed = [...code.matchAll(HANDLE_IN_EXPORT_LIST)];
	if (importedAs && usedBeyondItsImport(code, importedAs)) {
		// kitgate's handle wired by hand: kept as it is, but a handle before it has no event.locals.auth()
		const call = [...code.matchAll(/\bsequence\s*\(([^)]*)\)/g)].find((one) => new RegExp(`\\b${importedAs}\\b`).test(one[1]));
		const first = call && /^\s*(\w+)/.exec(call[1])?.[1];
		return first && first !== importedAs ? { action: 'unchanged', warning: `\`${first}\` runs before kitgate's handle (\`${importedAs}\`) in sequence(): it has no event.locals.auth(), and kitgate's routes pass through it; put \`${importedAs}\` first` } : { action: 'unchanged' };
	}
	// no handle of the app's own (only handleError, init, …): kitgate's is the handle
	if (declarations.length === 0 && listed.length === 0) return { action: 'write', text: `${existing.replace(/(?:\r?\n)*$/, '')}${lines(`\n\n${NEW_HOOKS}`)}`, merged: false };
	if (listed.length > 0 || declarations.length !== 1) {
		return refuse('its `handle` is exported in a way kitgate init does not rewrite (an `export { … }` list, or more than one declaration)');
	}
	for (const name of ['appHandle', 'authHandle']) {
		if (new RegExp(`\\b${name}\\b`).test(code)) return refuse(`it already uses the name \`${name}\``);
	}
	const declaration = declarations[0];
	const keyword = declaration[1];
	if (/^(?:const|let|var)/.test(keyword) && /^[ \t]*export\s+(?:const|let|var)\s+handle\b[^;]*?,\s*\w+\s*[:=]/m.test(code)) {
		return refuse('`handle` is declared together with other names');
	}
	// rename the declaration only (at its place in the text; not a `handle` in a comment or string)
	const at = /** @type {number} */ (declaration.index) + declaration[0].length - 'handle'.length;
	const renamed = `${existing.slice(0, at)}appHandle${existing.slice(at + 'handle'.length)}`;
	const renamedCode = `${code.slice(0, at)}appHandle${code.slice(at + 'handle'.length)}`;
	// the app's handle must not be referred to by its old name anywhere else
	if (/\bhandle\b/.test(renamedCode.replace(/\bappHandle\b/g, ''))) {
		return refuse('the file refers to `handle` elsewhere, so renaming it is not safe');
	}
	const sequenceImported = /import\s*\{[^}]*\bsequence\b[^}]*\}\s*from\s*['"]@sveltejs\/kit\/hooks['"]/.test(codeWithStrings);
	if (!sequenceImported && /\bsequence\b/.test(code)) return refuse('it already has something named `sequence`');
	const imports = [sequenceImported ? '' : "import { sequence } from '@sveltejs/kit/hooks';\n", "import { handle as authHandle } from './auth';\n"].join('');
	const text = `${lines(imports)}${renamed.replace(/(?:\r?\n)*$/, '')}${lines("\n\n// kitgate's routes and event.locals.auth() first, then the app's own handle\nexport const handle = sequence(authHandle, appHandle);\n")}`;
	return { action: 'write', text, merged: true };
}

/** Whether `name` appears in `code` beyond the import that brings it. */
function usedBeyondItsImport(code, name) {
	return (code.match(new RegExp(`\\b${name}\\b`, 'g')) ?? []).length > 1;
}

/** @param {string} reason @returns {HooksPlan} */
function refuse(reason) {
	return { action: 'refuse', reason };
}

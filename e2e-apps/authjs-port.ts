// The port of an Auth.js app to kitgate as docs/migrating-from-authjs.md describes it, scripted: the
// guide's "Imports" table rewrites every module name, its "Adapters" table replaces the adapter's
// import and call, and `migrateSessionsFrom: 'authjs'` is added to the config. The rules are read
// from the guide itself, so a wrong or missing row fails the migration tests.

import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const GUIDE = resolve(import.meta.dirname, '../docs/migrating-from-authjs.md');

/** A module name the guide maps (`<name>` stands for a provider's file name). */
export interface ModuleRule {
	from: string;
	to: string;
}

/** An adapter whose construction changes, not only its import. */
export interface AdapterRule {
	authjsImport: string;
	authjsCall: string;
	/** A module the file must also import for the rule to apply (the Drizzle driver), if any. */
	with?: string;
	kitgateImport: string;
	kitgateCall: string;
}

export interface PortRules {
	modules: ModuleRule[];
	adapters: AdapterRule[];
}

/** The rows of the markdown table under the heading `## {heading}`, as arrays of cell texts. */
function tableRows(markdown: string, heading: string): string[][] {
	const lines = markdown.split('\n');
	const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
	if (start < 0) throw new Error(`docs/migrating-from-authjs.md has no "## ${heading}" section`);
	const rows: string[][] = [];
	let inTable = false;
	for (const line of lines.slice(start + 1)) {
		if (line.startsWith('## ')) break;
		if (!line.startsWith('|')) {
			if (inTable) break;
			continue;
		}
		inTable = true;
		const cells = line
			.slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
			.split(/(?<!\\)\|/)
			.map((cell) => cell.trim());
		if (cells.every((cell) => /^-+$/.test(cell))) continue;
		rows.push(cells);
	}
	return rows.slice(1); // the header
}

/** One inline code span that is the whole cell, or undefined. */
function codeCell(cell: string | undefined): string | undefined {
	return /^`([^`]+)`$/.exec(cell ?? '')?.[1];
}

/**
 * The port's rules as the guide states them.
 *
 * @example
 * portRules().modules.find((rule) => rule.from === '@auth/sveltekit')?.to; // 'kitgate/sveltekit'
 */
export function portRules(guidePath = GUIDE): PortRules {
	const markdown = readFileSync(guidePath, 'utf8');
	const modules = tableRows(markdown, 'Imports').flatMap(([from, to]) => {
		const [source, target] = [codeCell(from), codeCell(to)];
		return source?.startsWith('@auth/') && target?.startsWith('kitgate') ? [{ from: source, to: target }] : [];
	});
	const adapters = tableRows(markdown, 'Adapters').flatMap(([authjsImport, authjsCall, withModule, kitgateImport, kitgateCall]) => {
		const cells = [codeCell(authjsImport), codeCell(authjsCall), codeCell(kitgateImport), codeCell(kitgateCall)];
		if (cells.some((cell) => cell === undefined)) return [];
		const [a, b, c, d] = cells as string[];
		return [{ authjsImport: a, authjsCall: b, with: codeCell(withModule), kitgateImport: c, kitgateCall: d }];
	});
	if (modules.length < 5 || adapters.length < 1) throw new Error('docs/migrating-from-authjs.md: the Imports or Adapters table was not understood');
	return { modules, adapters };
}

/** The kitgate module for an Auth.js one, or undefined when the guide has no row for it. */
export function kitgateModule(specifier: string, rules: PortRules): string | undefined {
	for (const { from, to } of rules.modules) {
		if (!from.includes('<name>')) {
			if (specifier === from) return to;
			continue;
		}
		const [prefix, suffix] = from.split('<name>');
		if (specifier.startsWith(prefix) && specifier.endsWith(suffix)) {
			const name = specifier.slice(prefix.length, specifier.length - suffix.length);
			if (/^[\w-]+$/.test(name)) return to.replace('<name>', name);
		}
	}
	return undefined;
}

/** Module names in import statements, dynamic imports and `declare module` blocks. */
const SPECIFIER = /(\bfrom\s+|\bimport\s+|\bdeclare\s+module\s+|\bimport\s*\(\s*)(['"])(@auth\/[^'"]+)\2/g;

/** What the port changed in one file: the lines it removed and the lines it wrote (for the test's checks). */
export interface PortedFile {
	file: string;
	removed: string[];
	added: string[];
}

export interface PortOptions {
	/** The files to port, relative to `dir`. */
	files: string[];
	/** The file holding the config object, and the line that opens it: `migrateSessionsFrom` goes first in it. */
	config: { file: string; opens: RegExp };
	rules?: PortRules;
}

/**
 * Ports the app in `dir` in place, as the guide says; throws when a module of `@auth/` has no row
 * in the guide, or an adapter import comes without the call the guide replaces.
 *
 * @example
 * portFromAuthjs(dir, { files: ['src/auth.ts'], config: { file: 'src/auth.ts', opens: /SvelteKitAuth\(\{$/ } });
 */
export function portFromAuthjs(dir: string, options: PortOptions): PortedFile[] {
	const rules = options.rules ?? portRules();
	const ported: PortedFile[] = [];
	for (const file of options.files) {
		const path = join(dir, file);
		const before = readFileSync(path, 'utf8');
		let text = before;
		for (const adapter of rules.adapters) {
			if (!text.includes(adapter.authjsImport)) continue;
			if (adapter.with && !new RegExp(`from\\s+['"]${adapter.with}['"]`).test(text)) continue;
			if (!text.includes(adapter.authjsCall)) throw new Error(`${file}: ${adapter.authjsImport} without ${adapter.authjsCall}, the call the guide replaces`);
			text = text.replace(adapter.authjsImport, adapter.kitgateImport).replaceAll(adapter.authjsCall, adapter.kitgateCall);
		}
		text = text.replace(SPECIFIER, (whole, lead: string, quote: string, specifier: string) => {
			const target = kitgateModule(specifier, rules);
			if (!target) throw new Error(`${file}: the guide has no row for the module ${specifier}`);
			return `${lead}${quote}${target}${quote}`;
		});
		if (file === options.config.file) {
			const lines = text.split('\n');
			const at = lines.findIndex((line) => options.config.opens.test(line.trimEnd()));
			if (at < 0) throw new Error(`${file}: no line matches ${options.config.opens}`);
			const indent = /^\s*/.exec(lines[at + 1] ?? '')?.[0] ?? '\t';
			lines.splice(at + 1, 0, `${indent}// keeps the users Auth.js signed in (docs/migrating-from-authjs.md); remove it once session.maxAge has passed`, `${indent}migrateSessionsFrom: 'authjs',`);
			text = lines.join('\n');
		}
		writeFileSync(path, text);
		ported.push({ file, ...lineChanges(before, text) });
	}
	return ported;
}

/** The lines only `before` has, and the lines only `after` has (a line diff that ignores order). */
function lineChanges(before: string, after: string): { removed: string[]; added: string[] } {
	const [old, now] = [before.split('\n'), after.split('\n')];
	const count = (lines: string[]) => lines.reduce((map, line) => map.set(line, (map.get(line) ?? 0) + 1), new Map<string, number>());
	const [oldCount, nowCount] = [count(old), count(now)];
	return {
		removed: old.filter((line) => (nowCount.get(line) ?? 0) < (oldCount.get(line) ?? 0)),
		added: now.filter((line) => (oldCount.get(line) ?? 0) < (nowCount.get(line) ?? 0))
	};
}

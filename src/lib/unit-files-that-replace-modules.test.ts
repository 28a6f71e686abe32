// The unit project shares loaded modules between files (vite.config.ts, isolate: false): a file that
// replaces a module or a global there would change it for the files after it, or find it already
// loaded unreplaced. Such files must be listed in scripts/unit-own-modules.js, which gives them
// modules of their own; this test finds them by their calls, and by those of the helpers they import.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { unitOwnModules } from '../../scripts/unit-own-modules.js';

const ROOT = join(import.meta.dirname, '../..');
const REPLACES = /\bvi\.(mock|doMock|unmock|resetModules|stubGlobal|stubEnv)\(/;

const LOCAL_IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;
const verdicts = new Map<string, boolean>();

/** The file a relative import names, if it is one of ours (`./x.js` may be `x.ts` on disk). */
function resolveImport(from: string, specifier: string): string | undefined {
	const base = join(from, '..', specifier);
	const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.js`, join(base, 'index.ts'), join(base, 'index.js')];
	return candidates.find((candidate) => /\.(ts|js)$/.test(candidate) && existsSync(candidate));
}

/** Whether a file, or a helper it imports (followed through relative imports), replaces a module or a global. */
function replaces(file: string): boolean {
	const known = verdicts.get(file);
	if (known !== undefined) return known;
	verdicts.set(file, false); // an import circle adds nothing
	const code = readFileSync(file, 'utf8');
	const verdict =
		REPLACES.test(code) ||
		[...code.matchAll(LOCAL_IMPORT)].some((match) => {
			const imported = resolveImport(file, match[1]);
			return imported !== undefined && !imported.includes('node_modules') && replaces(imported);
		});
	verdicts.set(file, verdict);
	return verdict;
}

function testFiles(folder: string): string[] {
	return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile() && /\.test\.(ts|js)$/.test(entry.name))
		.map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

test('every test file that replaces a module or a global has modules of its own', () => {
	// a helper such as client/test/engine-browser.ts stubs globals for the files that import it
	const replacing = [...testFiles('src'), ...testFiles('bin')].filter((file) => replaces(join(ROOT, file)));
	expect(replacing.length).toBeGreaterThan(0);
	// an integration file listed there too does no harm: that project keeps its files apart anyway
	const unlisted = replacing.filter((file) => !unitOwnModules.includes(file));
	expect(unlisted, 'add them to scripts/unit-own-modules.js').toEqual([]);
});

test('every file listed as needing its own modules exists', () => {
	expect(unitOwnModules.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
});

// The unit project shares loaded modules between files (vite.config.ts, isolate: false): a file that
// replaces a module or a global there would change it for the files after it, or find it already
// loaded unreplaced. Such files must be listed in scripts/unit-own-modules.js, which gives them
// modules of their own; this test finds them by their calls.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { unitOwnModules } from '../../scripts/unit-own-modules.js';

const ROOT = join(import.meta.dirname, '../..');
const REPLACES = /\bvi\.(mock|doMock|unmock|resetModules|stubGlobal|stubEnv)\(/;

function testFiles(folder: string): string[] {
	return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile() && /\.test\.(ts|js)$/.test(entry.name))
		.map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

test('every test file that replaces a module or a global has modules of its own', () => {
	const replacing = [...testFiles('src'), ...testFiles('bin')].filter((file) => REPLACES.test(readFileSync(join(ROOT, file), 'utf8')));
	expect(replacing.length).toBeGreaterThan(0);
	// an integration file listed there too does no harm: that project keeps its files apart anyway
	const unlisted = replacing.filter((file) => !unitOwnModules.includes(file));
	expect(unlisted, 'add them to scripts/unit-own-modules.js').toEqual([]);
});

test('every file listed as needing its own modules exists', () => {
	expect(unitOwnModules.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
});

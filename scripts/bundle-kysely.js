// Puts the query builder the SQL adapters use (kysely) into dist/ as one module, and points the
// adapters' imports at it (run after svelte-package and strip-comments.js).
//
// Why: a SvelteKit app's build bundles kitgate (a Svelte library: vite-plugin-svelte lists it in
// `ssr.noExternal`) and leaves its imports of other packages as they are; adapter-node then
// bundles every package the app's own package.json does not list, kysely included. kysely's ~400
// modules import each other in circles, which Rollup reports one by one: 32 "Circular dependency"
// warnings in the build of the getting-started guide's app. As one module, with its circles
// resolved inside it, it bundles without a word (e2e-apps/startup.spec.ts checks the build's output).
// The declarations still name 'kysely' (its types: `Kysely`, `Dialect`, `ColumnType`), so it stays
// a dependency; at run time kitgate's adapters use the copy in dist/vendor/ and any Kysely instance
// or dialect an app hands them (kysely's objects are told apart by their shape, not their class).

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, transformSync } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the module goes, under the dist folder. */
export const VENDORED = 'vendor/kysely.js';

/** An import of kysely in esbuild's output: `from "kysely"`, `import "kysely"`, `import("kysely")`, or a subpath. */
const KYSELY_IMPORT = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)(["'])kysely(\/[^"']*)?\2/g;

/**
 * Every `.js` file under `dir`.
 *
 * @param {string} dir
 * @returns {string[]}
 */
function javascriptFiles(dir) {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return javascriptFiles(path);
		return entry.name.endsWith('.js') ? [path] : [];
	});
}

/**
 * The folder of installed package `name` (its package.json does not export itself).
 *
 * @param {string} name
 * @returns {string}
 */
function packageFolder(name) {
	let folder = dirname(createRequire(join(ROOT, 'package.json')).resolve(name));
	while (!existsSync(join(folder, 'package.json')) || JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).name !== name) {
		if (dirname(folder) === folder) throw new Error(`${name} is not installed`);
		folder = dirname(folder);
	}
	return folder;
}

/**
 * Writes kysely as one ES module to `<dist>/vendor/kysely.js` (its licence first) and rewrites
 * every import of `kysely` in the JavaScript of `dist` to a relative import of it. Throws on an
 * import of a kysely subpath (none is bundled). Returns the files rewritten and the module's size.
 *
 * @param {string} [dist]
 * @returns {{ rewritten: string[], bytes: number }}
 * @example
 * bundleKysely(join(ROOT, 'dist')); // { rewritten: ['server/adapters/sqlite.js', …], bytes: 400000 }
 */
export function bundleKysely(dist = join(ROOT, 'dist')) {
	const target = join(dist, VENDORED);
	/** @type {string[]} */
	const rewritten = [];
	for (const file of javascriptFiles(dist)) {
		if (file === target) continue;
		const source = readFileSync(file, 'utf8');
		let changed = false;
		const code = source.replace(KYSELY_IMPORT, (match, head, quote, subpath) => {
			if (subpath) throw new Error(`${relative(dist, file)} imports kysely${subpath}: only the package's root is bundled (scripts/bundle-kysely.js)`);
			changed = true;
			let path = relative(dirname(file), target).split(sep).join('/');
			if (!path.startsWith('.')) path = `./${path}`;
			return `${head}${quote}${path}${quote}`;
		});
		if (changed) {
			writeFileSync(file, code);
			rewritten.push(relative(dist, file).split(sep).join('/'));
		}
	}
	const kysely = packageFolder('kysely');
	const { version } = JSON.parse(readFileSync(join(kysely, 'package.json'), 'utf8'));
	const licence = readFileSync(join(kysely, 'LICENSE'), 'utf8').trim().replaceAll('*/', '* /');
	const result = buildSync({
		stdin: { contents: "export * from 'kysely';", resolveDir: ROOT, loader: 'js', sourcefile: 'kysely-entry.js' },
		bundle: true,
		format: 'esm',
		platform: 'neutral',
		// kysely's ES modules, as Node and bundlers pick them (`import` condition)
		mainFields: ['module', 'main'],
		conditions: ['import'],
		target: 'node20',
		legalComments: 'none',
		write: false
	});
	// without kysely's doc comments (they cost resident memory, see strip-comments.js), which esbuild
	// keeps in class bodies unless it also drops the layout; names stay as they are
	const { code } = transformSync(result.outputFiles[0].text, { loader: 'js', format: 'esm', target: 'node20', legalComments: 'none', minifyWhitespace: true });
	const text = `/*! kysely ${version}, bundled into one module by kitgate (scripts/bundle-kysely.js)\n\n${licence}\n*/\n${code}`;
	mkdirSync(dirname(target), { recursive: true });
	writeFileSync(target, text);
	return { rewritten, bytes: Buffer.byteLength(text) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { rewritten, bytes } = bundleKysely(process.argv[2] ?? join(ROOT, 'dist'));
	console.log(`dist/${VENDORED}: kysely as one module (${bytes} bytes), imported by ${rewritten.length} modules`);
}

// Compiles the built-in pages (src/lib/server/pages/*.svelte) to server-side JS modules in
// src/lib/server/pages/compiled/, so the engine renders them in plain Node without Vite.
// It builds the CSS first (Tailwind, scripts/build-css.js): the pages inline it.
import { compile } from 'svelte/compiler';
import { buildCss } from './build-css.js';
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const scriptPath = fileURLToPath(import.meta.url);
const root = join(dirname(scriptPath), '..');
const pagesDir = join(root, 'src/lib/server/pages');
const outDir = join(pagesDir, 'compiled');

/**
 * Compiles every page whose source (or this script) is newer than its output.
 * Returns the names compiled.
 */
export function compilePages() {
	mkdirSync(outDir, { recursive: true });
	buildCss();
	const scriptTime = statSync(scriptPath).mtimeMs;
	const compiled = [];
	for (const file of readdirSync(pagesDir)) {
		if (!file.endsWith('.svelte')) continue;
		const source = join(pagesDir, file);
		const name = file.replace(/\.svelte$/, '');
		const target = join(outDir, `${name}.js`);
		const sourceTime = Math.max(statSync(source).mtimeMs, scriptTime);
		if (existsSync(target) && statSync(target).mtimeMs >= sourceTime) continue;
		const { js } = compile(readFileSync(source, 'utf8'), {
			generate: 'server',
			css: 'injected',
			filename: file,
			runes: true
		});
		const code = rewriteRelativeImports(js.code);
		writeFileSync(target, `// @ts-nocheck\n// Generated from ../${file} by scripts/compile-pages.js. Do not edit.\n${code}`);
		writeFileSync(
			join(outDir, `${name}.d.ts`),
			`import type { Component } from 'svelte';\ndeclare const ${name}: Component<any>;\nexport default ${name};\n`
		);
		compiled.push(name);
	}
	return compiled;
}

/**
 * The compiled module lives one folder below its source: sibling components (`./X.svelte`)
 * become `./X.js`, and other sibling modules (`./theme.js`) are reached as `../theme.js`.
 */
/** @param {string} code */
function rewriteRelativeImports(code) {
	return code.replace(/(from\s*|import\s*)(['"])\.\/([^'"]+)\2/g, (/** @type {string} */ _, /** @type {string} */ keyword, /** @type {string} */ quote, /** @type {string} */ path) =>
		path.endsWith('.svelte')
			? `${keyword}${quote}./${path.slice(0, -'.svelte'.length)}.js${quote}`
			: `${keyword}${quote}../${path}${quote}`
	);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	const names = compilePages();
	console.log(names.length ? `compiled pages: ${names.join(', ')}` : 'pages up to date');
}

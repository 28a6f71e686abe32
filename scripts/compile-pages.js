// Compiles the built-in pages (src/lib/server/pages/*.svelte) to server-side JS modules in
// src/lib/server/pages/compiled/, so the engine renders them in plain Node without Vite.
// It builds the CSS first (Tailwind, scripts/build-css.js): the pages inline it.
import { compile } from 'svelte/compiler';
import { buildCss } from './build-css.js';
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const scriptPath = fileURLToPath(import.meta.url);
const root = join(dirname(scriptPath), '..');
const pagesDir = join(root, 'src/lib/server/pages');
const outDir = join(pagesDir, 'compiled');
/** The account components, which the account page shows: compiled beside the pages, in compiled/account/. */
const accountComponentsDir = join(root, 'src/lib/components/account');
/** The two-factor components, which the account and second-step pages show: in compiled/two-factor/. */
const twoFactorComponentsDir = join(root, 'src/lib/components/two-factor');
/** The admin components, which the admin pages show: in compiled/admin/. */
const adminComponentsDir = join(root, 'src/lib/components/admin');
/** The organization components, which the organization pages show: in compiled/organization/. */
const organizationComponentsDir = join(root, 'src/lib/components/organization');

/** Every component to compile: the pages, then the account, two-factor, admin and organization components, each with where its module goes. */
function sources() {
	/** @type {{ source: string, target: string }[]} */
	const list = [];
	for (const [dir, out] of [[pagesDir, outDir], [accountComponentsDir, join(outDir, 'account')], [twoFactorComponentsDir, join(outDir, 'two-factor')], [adminComponentsDir, join(outDir, 'admin')], [organizationComponentsDir, join(outDir, 'organization')]]) {
		for (const file of readdirSync(dir)) {
			if (file.endsWith('.svelte')) list.push({ source: join(dir, file), target: join(out, file.replace(/\.svelte$/, '.js')) });
		}
	}
	return list;
}

/**
 * Compiles every page (and account, two-factor, admin and organization component) whose source (or this script) is newer than its output.
 * Returns the names compiled.
 */
export function compilePages() {
	mkdirSync(join(outDir, 'account'), { recursive: true });
	mkdirSync(join(outDir, 'two-factor'), { recursive: true });
	mkdirSync(join(outDir, 'admin'), { recursive: true });
	mkdirSync(join(outDir, 'organization'), { recursive: true });
	buildCss();
	const scriptTime = statSync(scriptPath).mtimeMs;
	const all = sources();
	const targets = new Map(all.map(({ source, target }) => [source, target]));
	const compiled = [];
	for (const { source, target } of all) {
		const sourceTime = Math.max(statSync(source).mtimeMs, scriptTime);
		if (existsSync(target) && statSync(target).mtimeMs >= sourceTime) continue;
		const file = relative(root, source);
		const { js } = compile(readFileSync(source, 'utf8'), {
			generate: 'server',
			css: 'injected',
			filename: basename(source),
			runes: true
		});
		const code = rewriteRelativeImports(js.code, source, target, targets);
		const name = basename(source, '.svelte');
		writeFileSync(target, `// @ts-nocheck\n// Generated from ${file} by scripts/compile-pages.js. Do not edit.\n${code}`);
		writeFileSync(
			target.replace(/\.js$/, '.d.ts'),
			`import type { Component } from 'svelte';\ndeclare const ${name}: Component<any>;\nexport default ${name};\n`
		);
		compiled.push(name);
	}
	return compiled;
}

/**
 * The compiled module lives elsewhere than its source: a compiled component (`./X.svelte`) is
 * imported from its compiled module, and any other relative module (`./theme.js`,
 * `../../messages/format.js`, a dynamic `import('…')`) from its source folder. A page may only
 * import what the engine can load in plain Node: no SvelteKit module (`$app/…`), no uncompiled component.
 * @param {string} code
 * @param {string} source
 * @param {string} target
 * @param {Map<string, string>} targets
 */
function rewriteRelativeImports(code, source, target, targets) {
	if (/(from\s*|import\s*\(?\s*)['"]\$app\//.test(code)) throw new Error(`${relative(root, source)} imports a SvelteKit module ($app/…): the built-in pages run without SvelteKit.`);
	return code.replace(/(from\s*|import\s*\(?\s*)(['"])(\.\.?\/[^'"]+)\2/g, (/** @type {string} */ _, /** @type {string} */ keyword, /** @type {string} */ quote, /** @type {string} */ path) => {
		const resolved = resolve(dirname(source), path);
		let to = resolved;
		if (path.endsWith('.svelte')) {
			const compiledTarget = targets.get(resolved);
			if (!compiledTarget) throw new Error(`${relative(root, source)} imports ${path}, which is not compiled for the pages.`);
			to = compiledTarget;
		}
		const spec = relative(dirname(target), to).split(sep).join('/');
		return `${keyword}${quote}${spec.startsWith('.') ? spec : `./${spec}`}${quote}`;
	});
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	const names = compilePages();
	console.log(names.length ? `compiled pages: ${names.join(', ')}` : 'pages up to date');
}

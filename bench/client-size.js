// Client JS that kitgate's components add to a page: each is compiled with `svelte/compiler`
// (generate: 'client') and bundled and minified into ESM chunks by Vite's build() API (rolldown),
// then gzipped. What a page loads is the entry chunk and the chunks it imports statically; chunks
// it imports with `import()` (the passkey button's ceremony, only where a passkey provider is
// listed) are reported apart. Vite's module-preload helper is left out like the Svelte runtime and
// `$app/*`: every SvelteKit app's client entry already has it (it loads the route nodes with it).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { compile } from 'svelte/compiler';
import { build } from 'vite';

/** A Vite plugin that compiles `.svelte` files for the browser with the plain Svelte compiler. */
const svelteClient = {
	name: 'bench-svelte-client',
	transform(code, id) {
		if (!id.endsWith('.svelte')) return null;
		const { js } = compile(code, { generate: 'client', filename: id, dev: false });
		return { code: js.code, map: js.map };
	}
};

/** `$app/environment` as SvelteKit's production client build sees it (development-only code drops out). */
const appEnvironment = {
	name: 'bench-app-environment',
	enforce: 'pre',
	resolveId(id) {
		return id === '$app/environment' ? '\0bench-app-environment' : null;
	},
	load(id) {
		return id === '\0bench-app-environment' ? "export const dev = false, browser = true, building = false, version = '';" : null;
	}
};

/** Vite's preload helper, which SvelteKit's client entry already loads, as an import of nothing to count. */
const sharedPreloadHelper = {
	name: 'bench-shared-preload-helper',
	enforce: 'pre',
	resolveId(id) {
		return id.includes('vite/preload-helper') ? '\0bench-preload-helper' : null;
	},
	load(id) {
		return id === '\0bench-preload-helper' ? 'export const __vitePreload = (load) => load();' : null;
	}
};

const sizes = (code) => ({ raw: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length });

/**
 * Bundles `entrySource` (an ES module): the code a page loads with it (entry and static imports,
 * one text) and each chunk it loads only on demand.
 */
async function bundle(directory, name, entrySource, external) {
	const entry = join(directory, `${name}.js`);
	writeFileSync(entry, entrySource);
	const result = await build({
		configFile: false,
		envFile: false,
		root: directory,
		logLevel: 'silent',
		plugins: [svelteClient, sharedPreloadHelper, appEnvironment],
		build: {
			write: false,
			minify: true,
			modulePreload: false,
			target: 'es2022',
			rollupOptions: { input: entry, preserveEntrySignatures: 'strict', external, output: { format: 'es' } }
		}
	});
	const chunks = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output).filter((o) => o.type === 'chunk');
	const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
	const loaded = new Set();
	for (const stack = chunks.filter((chunk) => chunk.isEntry); stack.length; ) {
		const chunk = stack.pop();
		if (loaded.has(chunk.fileName)) continue;
		loaded.add(chunk.fileName);
		for (const file of chunk.imports) if (byFile.has(file)) stack.push(byFile.get(file));
	}
	return {
		code: [...loaded].map((file) => byFile.get(file).code).join('\n'),
		lazy: chunks.filter((chunk) => !loaded.has(chunk.fileName)).map((chunk) => ({ file: chunk.fileName.replace(/^assets\//, ''), ...sizes(chunk.code) }))
	};
}

/**
 * Sizes of the components' client JS: `components` is `SignIn` + `SignOut` (the Svelte runtime,
 * `$app/*` and Vite's preload helper excluded, as any SvelteKit page already loads them),
 * `userButton` what `UserButton` adds to them, `lazy` the chunks loaded on demand; `withRuntime`
 * is the growth of a bundle that mounts SignIn and SignOut over one that mounts an empty
 * component, runtime included (tree-shaken).
 */
export async function measureClientJs(componentsDir) {
	// inside bench/ so that `svelte` resolves from the project's node_modules
	const directory = mkdtempSync(join(dirname(fileURLToPath(import.meta.url)), '.tmp-client-'));
	const component = (name) => JSON.stringify(join(componentsDir, `${name}.svelte`));
	const runtime = (id) => id === 'svelte' || id.startsWith('svelte/') || (id.startsWith('$app/') && id !== '$app/environment');
	try {
		const both = await bundle(directory, 'components', `export { default as SignIn } from ${component('SignIn')};\nexport { default as SignOut } from ${component('SignOut')};\n`, runtime);
		const withUser = await bundle(
			directory,
			'with-user-button',
			`export { default as SignIn } from ${component('SignIn')};\nexport { default as SignOut } from ${component('SignOut')};\nexport { default as UserButton } from ${component('UserButton')};\n`,
			runtime
		);
		writeFileSync(join(directory, 'Empty.svelte'), '<p>page</p>\n');
		const onlyApp = (id) => id.startsWith('$app/') && id !== '$app/environment';
		const empty = await bundle(directory, 'empty', `import { mount } from 'svelte';\nimport Empty from './Empty.svelte';\nexport const page = (target) => mount(Empty, { target });\n`, onlyApp);
		const page = await bundle(
			directory,
			'with-components',
			`import { mount } from 'svelte';\nimport Empty from './Empty.svelte';\nimport SignIn from ${component('SignIn')};\nimport SignOut from ${component('SignOut')};\n` +
				`export const page = (target) => [mount(Empty, { target }), mount(SignIn, { target, props: { provider: 'github' } }), mount(SignOut, { target })];\n`,
			onlyApp
		);
		const components = sizes(both.code);
		const all = sizes(withUser.code);
		const base = sizes(empty.code);
		const full = sizes(page.code);
		return {
			method: 'svelte/compiler generate:"client" + vite build() (rolldown, minified, ESM), gzip -9; entry and static imports (chunks loaded by import() apart)',
			components,
			userButton: { raw: all.raw - components.raw, gzip: all.gzip - components.gzip },
			lazy: withUser.lazy,
			withRuntime: { raw: full.raw - base.raw, gzip: full.gzip - base.gzip, emptyPage: base, page: full }
		};
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
}

// `node bench/client-size.js`: the sizes of src/lib/components, as JSON
if (process.argv[1] === fileURLToPath(import.meta.url)) {
	console.log(JSON.stringify(await measureClientJs(join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'lib', 'components')), null, 2));
}

// Client JS that kitgate's `SignIn` + `SignOut` components add to a page: each is compiled with
// `svelte/compiler` (generate: 'client') and both are bundled and minified into one ESM chunk by
// Vite's build() API (rolldown), then gzipped.

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

/** Bundles `entrySource` (an ES module) and returns the minified chunk text. */
async function bundle(directory, name, entrySource, external) {
	const entry = join(directory, `${name}.js`);
	writeFileSync(entry, entrySource);
	const result = await build({
		configFile: false,
		envFile: false,
		root: directory,
		logLevel: 'silent',
		plugins: [svelteClient],
		build: {
			write: false,
			minify: true,
			modulePreload: false,
			target: 'es2022',
			rollupOptions: { input: entry, preserveEntrySignatures: 'strict', external, output: { format: 'es' } }
		}
	});
	const chunks = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output).filter((o) => o.type === 'chunk');
	return chunks.map((chunk) => chunk.code).join('\n');
}

const sizes = (code) => ({ raw: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length });

/**
 * Sizes of the SignIn + SignOut chunk: `components` excludes the Svelte runtime (svelte/*) and
 * `$app/paths`, which any SvelteKit page already loads; `withRuntime` is the growth of a bundle
 * that mounts them over one that mounts an empty component, runtime included (tree-shaken).
 */
export async function measureClientJs(componentsDir) {
	// inside bench/ so that `svelte` resolves from the project's node_modules
	const directory = mkdtempSync(join(dirname(fileURLToPath(import.meta.url)), '.tmp-client-'));
	try {
		const signIn = JSON.stringify(join(componentsDir, 'SignIn.svelte'));
		const signOut = JSON.stringify(join(componentsDir, 'SignOut.svelte'));
		const components = await bundle(
			directory,
			'components',
			`export { default as SignIn } from ${signIn};\nexport { default as SignOut } from ${signOut};\n`,
			(id) => id === 'svelte' || id.startsWith('svelte/') || id.startsWith('$app/')
		);
		writeFileSync(join(directory, 'Empty.svelte'), '<p>page</p>\n');
		const onlyApp = (id) => id.startsWith('$app/');
		const empty = await bundle(
			directory,
			'empty',
			`import { mount } from 'svelte';\nimport Empty from './Empty.svelte';\nexport const page = (target) => mount(Empty, { target });\n`,
			onlyApp
		);
		const withBoth = await bundle(
			directory,
			'with-components',
			`import { mount } from 'svelte';\nimport Empty from './Empty.svelte';\nimport SignIn from ${signIn};\nimport SignOut from ${signOut};\n` +
				`export const page = (target) => [mount(Empty, { target }), mount(SignIn, { target, props: { provider: 'github' } }), mount(SignOut, { target })];\n`,
			onlyApp
		);
		const base = sizes(empty);
		const full = sizes(withBoth);
		return {
			method: 'svelte/compiler generate:"client" + vite build() (rolldown, minified, ESM), gzip -9',
			components: sizes(components),
			withRuntime: { raw: full.raw - base.raw, gzip: full.gzip - base.gzip, emptyPage: base, page: full }
		};
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
}

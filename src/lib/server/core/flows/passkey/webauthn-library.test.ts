// The engine never names @simplewebauthn/server in an import a bundler follows, not even after
// Vite's bundler (Rolldown) has inlined constants: a SvelteKit app without passkeys, built with
// adapter-node, then bundles without "could not be resolved" (issue 31, item 10), and a Worker
// without passkeys does not carry the library. Node still loads it by name when a provider brings
// no loader.

import { join } from 'node:path';
import { rolldown } from 'rolldown';
import { rollup, type RollupLog } from 'rollup';
import { expect, test } from 'vitest';
import { loadWebAuthnServer } from './webauthn-library.js';

const SOURCE = join(import.meta.dirname, 'webauthn-library.ts');

test('bundled by Rolldown (as Vite builds an app) and then by Rollup (as adapter-node does), the library is not looked up', async () => {
	// Rolldown, with its defaults (constants inlined): the engine's modules around it stay imports
	const first = await rolldown({ input: SOURCE, platform: 'node', external: (id, importer) => importer !== undefined });
	const { output } = await first.generate({ format: 'esm' });
	await first.close();
	const code = output[0].code;
	expect(code).not.toMatch(/import\(\s*(?:\/\*[^*]*\*\/\s*)?["']@simplewebauthn\/server["']\s*\)/);

	const warnings: RollupLog[] = [];
	const second = await rollup({
		input: 'entry',
		// the engine's modules are there; the optional peer is not installed (an app without passkeys)
		plugins: [{ name: 'memory', resolveId: (id) => (id === 'entry' ? id : id.startsWith('.') ? { id, external: true } : null), load: (id) => (id === 'entry' ? code : null) }],
		onwarn: (warning) => void warnings.push(warning)
	});
	const generated = await second.generate({ format: 'esm' });
	await second.close();
	expect(warnings.map((warning) => warning.code)).toEqual([]);
	expect(generated.output[0].imports).not.toContain('@simplewebauthn/server');
});

test('Node loads the library by its name when no provider carries a loader', async () => {
	const library = await loadWebAuthnServer([]);
	expect(typeof library.generateRegistrationOptions).toBe('function');
});

// Every entry of the package that a Worker may import, bundled as a Worker's bundler would
// (browser-like conditions, no node: module resolved) and loaded in workerd with and without
// nodejs_compat: nothing at module load that a Worker forbids (randomness, timers, I/O, Buffer).
// Not here: `kitgate/express` (Express is Node's), `kitgate/sveltekit` (it needs SvelteKit's own
// modules: e2e-apps/cloudflare.spec.ts runs it in a real adapter-cloudflare app), the Svelte
// components and browser client (they run in the browser), the stylesheet, `kitgate/testing`
// (the adapter conformance suite: vitest tests, run by vitest on Node) and `kitgate/testing/playwright`
// (a Playwright fixture: Playwright runs on Node).

import { Miniflare } from 'miniflare';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { workerBundle } from './worker-bundle.js';

process.env.WRANGLER_SEND_METRICS = 'false';

const ROOT = resolve(import.meta.dirname, '../../../../../..');
const NOT_FOR_WORKERS = new Set(['./express', './sveltekit', './components', './client', './styles.css', './package.json', './testing', './testing/playwright']);

/** The package's entries a Worker may import, each with its source file (dist/x.js → src/lib/x.ts). */
function workerEntries(): { name: string; source: string }[] {
	const exports = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports as Record<string, string | { default?: string }>;
	return Object.entries(exports)
		.filter(([name]) => !NOT_FOR_WORKERS.has(name))
		.map(([name, target]) => {
			const file = typeof target === 'string' ? target : target.default!;
			return { name: name === '.' ? 'kitgate' : `kitgate${name.slice(1)}`, source: join(ROOT, file.replace(/^\.\/dist\//, 'src/lib/').replace(/\.js$/, '.ts')) };
		});
}

const entries = workerEntries();

// each entry imported whole; the Worker answers the names each one exports
const worker = `${entries.map((entry, index) => `import * as entry${index} from ${JSON.stringify(entry.source)};`).join('\n')}
const loaded = { ${entries.map((entry, index) => `${JSON.stringify(entry.name)}: Object.keys(entry${index})`).join(', ')} };
export default { fetch: () => Response.json(loaded) };
`;

let mf: Miniflare;
beforeAll(async () => {
	const script = await workerBundle(worker, ROOT);
	// the bundle given as one module, as wrangler deploys it: Miniflare's own import scan refuses the
	// run-time imports the package guards itself (node: modules, optional drivers)
	const modules = [{ type: 'ESModule' as const, path: join(ROOT, 'entries.worker.mjs'), contents: script }];
	mf = new Miniflare({
		workers: [
			{ name: 'plain', modules, compatibilityDate: '2026-04-01' },
			{ name: 'node-compat', modules, compatibilityDate: '2026-04-01', compatibilityFlags: ['nodejs_compat'] }
		]
	});
	await mf.ready;
}, 180_000);
afterAll(() => mf?.dispose());

describe.each(['plain', 'node-compat'])('every package entry a Worker may import, in workerd (%s)', (name) => {
	test('loads, and exports what it declares', async () => {
		const response = await (await mf.getWorker(name)).fetch('http://kitgate.test/');
		expect(response.status).toBe(200);
		const loaded = (await response.json()) as Record<string, string[]>;
		expect(Object.keys(loaded).sort()).toEqual(entries.map((entry) => entry.name).sort());
		for (const [entry, names] of Object.entries(loaded)) expect(names.length, `${entry} exports nothing`).toBeGreaterThan(0);
		expect(loaded.kitgate).toEqual(expect.arrayContaining(['Auth', 'hashPassword', 'verifyPassword', 'passwordHashing']));
		expect(loaded['kitgate/providers/passkey']).toContain('default');
	});
});

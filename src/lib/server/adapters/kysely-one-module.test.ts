// The package carries kysely as one module (scripts/bundle-kysely.js): bundled as adapter-node
// bundles a SvelteKit app's server (Rollup, node-resolve), kysely's own modules make Rollup print
// one "Circular dependency" warning per circle; the one module prints none and still builds
// queries. The package's scripts run it, so dist/ never imports 'kysely' (issue 31, item 10; the
// real-app test reads the guide's whole build output, e2e-apps/startup.spec.ts).

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup, type RollupLog } from 'rollup';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bundleKysely, VENDORED } from '../../../../scripts/bundle-kysely.js';

const ROOT = join(import.meta.dirname, '../../../..');
let dist: string;

beforeAll(() => {
	dist = mkdtempSync(join(tmpdir(), 'kitgate-kysely-'));
	mkdirSync(join(dist, 'server/adapters/sql'), { recursive: true });
	// as esbuild writes the adapters' imports (strip-comments.js runs before)
	const names = 'DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql';
	writeFileSync(join(dist, 'server/adapters/sql/queries.js'), `import { ${names} } from "kysely";\nexport { ${names} };\n`);
	writeFileSync(join(dist, 'server/adapters/sqlite.js'), 'import { Kysely } from "kysely";\nexport const lazy = () => import("kysely");\nexport { Kysely };\n');
	writeFileSync(join(dist, 'index.js'), 'export const untouched = "kysely";\n');
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

/** Rollup's warnings while bundling `input` as adapter-node does (node-resolve, Node's conditions). */
async function rollupWarnings(input: string): Promise<RollupLog[]> {
	const warnings: RollupLog[] = [];
	const bundle = await rollup({ input, plugins: [nodeResolve({ preferBuiltins: true, exportConditions: ['node'], modulePaths: [join(ROOT, 'node_modules')] })], onwarn: (warning) => void warnings.push(warning) });
	await bundle.generate({ format: 'esm', inlineDynamicImports: true });
	await bundle.close();
	return warnings;
}

test('every import of kysely in dist/ points at the one module, which is written with its licence', () => {
	const { rewritten } = bundleKysely(dist);
	expect(rewritten.sort()).toEqual(['server/adapters/sql/queries.js', 'server/adapters/sqlite.js']);
	expect(readFileSync(join(dist, 'server/adapters/sql/queries.js'), 'utf8')).toContain('from "../../../vendor/kysely.js"');
	const sqlite = readFileSync(join(dist, 'server/adapters/sqlite.js'), 'utf8');
	expect(sqlite).toContain('from "../../vendor/kysely.js"');
	expect(sqlite).toContain('import("../../vendor/kysely.js")');
	expect(readFileSync(join(dist, 'index.js'), 'utf8')).toBe('export const untouched = "kysely";\n');
	const vendored = readFileSync(join(dist, VENDORED), 'utf8');
	expect(vendored.startsWith('/*! kysely ')).toBe(true);
	expect(vendored).toContain('The MIT License');
	expect(vendored).not.toMatch(/(from|import)\s*\(?\s*["']kysely["']/);
	// kysely's doc comments are not kept (they cost resident memory, as kitgate's own would)
	expect(vendored).not.toContain('### Examples');
});

test.each([
	['Sqlite', 'select "id", lower(email) as "email" from "user" where "id" = ?'],
	['Postgres', 'select "id", lower(email) as "email" from "user" where "id" = $1']
])('the one module builds the same queries (%s)', async (dialect, expected) => {
	const kysely = await import(pathToFileURL(join(dist, 'server/adapters/sql/queries.js')).href);
	const db = new kysely.Kysely({
		dialect: {
			createAdapter: () => new kysely[`${dialect}Adapter`](),
			createDriver: () => new kysely.DummyDriver(),
			createIntrospector: (instance: unknown) => new kysely[`${dialect}Introspector`](instance),
			createQueryCompiler: () => new kysely[`${dialect}QueryCompiler`]()
		}
	});
	const query = db.selectFrom('user').select(['id', kysely.sql`lower(email)`.as('email')]).where('id', '=', 'ada').compile();
	expect(query.sql).toBe(expected);
	expect(query.parameters).toEqual(['ada']);
});

test('adapter-node’s Rollup bundles the one module without a warning (kysely’s own modules: a warning per circle)', async () => {
	const entry = join(dist, 'entry-kysely-package.js');
	writeFileSync(entry, 'import { Kysely, sql } from "kysely";\nexport { Kysely, sql };\n');
	const before = await rollupWarnings(entry);
	expect(before.filter((warning) => warning.code === 'CIRCULAR_DEPENDENCY').length).toBeGreaterThan(10);

	expect(await rollupWarnings(join(dist, 'server/adapters/sql/queries.js'))).toEqual([]);
}, 60_000);

test('the package’s build runs it after svelte-package and strip-comments.js', () => {
	const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
	for (const name of ['package', 'build']) {
		expect(scripts[name], name).toMatch(/svelte-package && node scripts\/strip-comments\.js && node scripts\/bundle-kysely\.js$/);
	}
});

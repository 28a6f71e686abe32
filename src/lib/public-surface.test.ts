// The package's public surface: package.json `exports` lists every public subpath by name (no
// wildcard), one per provider and adapter module users import, and nothing else under
// src/lib/server/providers or src/lib/server/adapters is importable. Runs on the sources and
// package.json, without a build (Node's own resolver answers for the package's self-reference).
// The built dist/ is checked against the same list by `npm run api:check` (scripts/api-report.js).

import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	exports: Record<string, string | Record<string, string>>;
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

/** Modules of src/lib/server/providers that other provider modules use; not providers themselves. */
const INTERNAL_PROVIDER_MODULES = ['email-message', 'logo', 'oauth-user-config', 'self-hosted-oidc', 'upstream-json'];
/** Modules of src/lib/server/adapters that are not adapters users import (none today; sql/ and test/ are folders). */
const INTERNAL_ADAPTER_MODULES: string[] = [];

/** The .ts modules directly in a folder of src/lib/server (tests and declarations left out). */
function modules(folder: string): string[] {
	return readdirSync(join(ROOT, 'src/lib/server', folder))
		.filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
		.map((file) => basename(file, '.ts'))
		.sort();
}

/** Every .ts/.js/.svelte module under a folder of src/lib/server, as paths relative to it without extension. */
function allModules(folder: string): string[] {
	const base = join(ROOT, 'src/lib/server', folder);
	return (readdirSync(base, { recursive: true }) as string[])
		.filter((file) => /\.(ts|js|svelte)$/.test(file) && !file.endsWith('.d.ts'))
		.map((file) => file.replace(/\.(ts|js|svelte)$/, '').split('\\').join('/'))
		.sort();
}

const subpaths = Object.keys(pkg.exports);
const listed = (prefix: string) =>
	subpaths.filter((key) => key.startsWith(`./${prefix}/`)).map((key) => key.slice(prefix.length + 3)).sort();

/** Every file an export entry points to, with its condition. */
function targets(): { subpath: string; condition: string; target: string }[] {
	return Object.entries(pkg.exports).flatMap(([subpath, value]) =>
		typeof value === 'string'
			? [{ subpath, condition: 'default', target: value }]
			: Object.entries(value).map(([condition, target]) => ({ subpath, condition, target }))
	);
}

/** How Node's resolver answers `kitgate/<subpath>` from inside the package (self-reference). */
function resolution(specifier: string): 'exported' | 'not exported' {
	try {
		createRequire(join(ROOT, 'src/lib/index.ts')).resolve(specifier);
		return 'exported';
	} catch (error) {
		const code = (error as { code?: string }).code;
		if (code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return 'not exported';
		// an exported subpath whose file is not built yet
		if (code === 'MODULE_NOT_FOUND') return 'exported';
		throw error;
	}
}

describe('package.json exports', () => {
	test('no wildcard: every public subpath is listed by name', () => {
		expect(subpaths.filter((key) => key.includes('*'))).toEqual([]);
		expect(targets().filter(({ target }) => target.includes('*'))).toEqual([]);
	});

	test('the entries besides providers and adapters', () => {
		expect(subpaths.filter((key) => !/^\.\/(providers|adapters)\//.test(key))).toEqual([
			'.',
			'./sveltekit',
			'./express',
			'./components',
			'./client',
			'./styles.css',
			'./testing',
			'./testing/playwright',
			'./package.json'
		]);
	});

	test('one entry per provider module of src/lib/server/providers, none for its helpers', () => {
		const providers = modules('providers').filter((name) => !INTERNAL_PROVIDER_MODULES.includes(name));
		// a new file there is either a provider (list it in exports) or a helper (list it above)
		expect(listed('providers')).toEqual(providers);
		for (const helper of INTERNAL_PROVIDER_MODULES) expect(modules('providers')).toContain(helper);
	});

	test('one entry per adapter module of src/lib/server/adapters (adapters, the rate-limit stores, errors)', () => {
		const adapters = modules('adapters').filter((name) => !INTERNAL_ADAPTER_MODULES.includes(name));
		expect(listed('adapters')).toEqual(adapters);
		expect(adapters).toEqual(['errors', 'memory', 'postgres', 'rate-limit-store', 'redis', 'sqlite']);
	});

	test('each provider and adapter entry points at its own module: types and JavaScript, no other condition', () => {
		for (const folder of ['providers', 'adapters']) {
			for (const name of listed(folder)) {
				expect(pkg.exports[`./${folder}/${name}`]).toEqual({
					types: `./dist/server/${folder}/${name}.d.ts`,
					default: `./dist/server/${folder}/${name}.js`
				});
			}
		}
	});

	test('every target is built from a source file that exists', () => {
		const sources = targets()
			.filter(({ target }) => target.startsWith('./dist/'))
			.map(({ target }) => target.replace(/^\.\/dist\//, 'src/lib/').replace(/\.d\.ts$|\.js$/, ''));
		const missing = sources.filter((source) => {
			for (const ext of ['.ts', '.js', '.svelte', '']) {
				try {
					readFileSync(join(ROOT, source + ext));
					return false;
				} catch {
					// try the next extension
				}
			}
			return true;
		});
		expect(missing).toEqual([]);
	});

	test("Node's resolver refuses every module under providers/ and adapters/ that is not listed", () => {
		for (const folder of ['providers', 'adapters']) {
			const names = listed(folder);
			for (const module of allModules(folder)) {
				const expected = names.includes(module) ? 'exported' : 'not exported';
				expect([`${pkg.name}/${folder}/${module}`, resolution(`${pkg.name}/${folder}/${module}`)]).toEqual([
					`${pkg.name}/${folder}/${module}`,
					expected
				]);
			}
		}
		// the old paths of the conformance suite, and dist/ itself
		for (const specifier of ['adapters/testing', 'adapters/conformance', 'dist/server/providers/logo.js', 'server/providers/github']) {
			expect(resolution(`${pkg.name}/${specifier}`)).toBe('not exported');
		}
		expect(resolution(`${pkg.name}/testing`)).toBe('exported');
	});
});

describe('kitgate/adapters/redis', () => {
	test('takes the app\'s own client: redis is an optional peer dependency and a pinned dev dependency, never a dependency', () => {
		expect(pkg.peerDependencies?.redis).toBeDefined();
		expect(pkg.peerDependenciesMeta?.redis?.optional).toBe(true);
		expect(pkg.dependencies?.redis).toBeUndefined();
		expect((pkg as { devDependencies?: Record<string, string> }).devDependencies?.redis).toMatch(/^\d+\.\d+\.\d+$/);
	});
});

describe('kitgate/testing', () => {
	test('is the conformance suite and the app test helpers; vitest, oidc-provider, smtp-server and @playwright/test are optional peer dependencies (never dependencies)', async () => {
		expect(pkg.exports['./testing']).toEqual({ types: './dist/testing/index.d.ts', default: './dist/testing/index.js' });
		expect(pkg.exports['./testing/playwright']).toEqual({ types: './dist/testing/playwright.d.ts', default: './dist/testing/playwright.js' });
		for (const peer of ['vitest', 'oidc-provider', 'smtp-server', '@playwright/test']) {
			expect(pkg.peerDependencies?.[peer], peer).toBeDefined();
			expect(pkg.peerDependenciesMeta?.[peer]?.optional, peer).toBe(true);
			expect(pkg.dependencies?.[peer], peer).toBeUndefined();
		}
		const testing = await import('./testing/index.js');
		expect(Object.keys(testing).sort()).toEqual([
			'UniqueViolationError',
			'connectTestMailbox',
			'createTestSession',
			'isUniqueViolation',
			'parseMail',
			'runAdapterTests',
			'startTestIdp',
			'startTestMailbox'
		]);
	});
});

// The adapter modules load on runtimes without Node's modules (Workers, edge runtimes): no static
// `node:` import, and what needs Node (better-sqlite3 files, `pg` loaded by kitgate) refuses at
// creation with the runtime's name. Loading them in workerd itself: d1.test.ts.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { InvalidConfiguration } from '../core/errors.js';
import { PostgresAdapter } from './postgres.js';
import { SQLiteAdapter } from './sqlite.js';

const lib = fileURLToPath(new URL('../../', import.meta.url));

/** Shipped modules (no tests, no test helpers) under `folder` of src/lib. */
function shippedModules(folder: string): string[] {
	const found: string[] = [];
	for (const entry of readdirSync(join(lib, folder), { withFileTypes: true, recursive: true })) {
		const path = join(entry.parentPath, entry.name);
		if (!entry.isFile() || !/\.(ts|js)$/.test(entry.name) || /\.test\.ts$/.test(entry.name) || /\/test\//.test(path)) continue;
		found.push(path);
	}
	return found;
}

/** kitgate/testing's local servers for an app's tests (startTestIdp, startTestMailbox). */
const NODE_SERVERS = new Set(['testing/idp.js', 'testing/mailbox.js']);

describe('adapter modules are runtime-neutral', () => {
	test('no shipped adapter or testing module imports a node: module (type-only imports aside)', () => {
		const modules = [...shippedModules('server/adapters'), ...shippedModules('testing')];
		expect(modules.length).toBeGreaterThan(10);
		const offenders = modules.filter((path) => {
			const source = readFileSync(path, 'utf8');
			const statically = /^\s*import\s+(?!type\b)[^;]*?from\s+['"]node:/m.test(source);
			// the test IdP and mailbox are servers on Node: they import Node's modules when a test starts
			// one, never when kitgate/testing is imported
			if (NODE_SERVERS.has(relative(lib, path))) return statically;
			return statically || /(?<!typeof\s+)\bimport\(\s*['"]node:|\brequire\(\s*['"]node:/.test(source);
		});
		expect(offenders.map((path) => relative(lib, path))).toEqual([]);
	});
});

describe('what needs Node refuses on other runtimes, naming the runtime', () => {
	const getBuiltinModule = process.getBuiltinModule;
	afterEach(() => {
		process.getBuiltinModule = getBuiltinModule;
		vi.unstubAllGlobals();
	});

	/** Runs `create` as on Cloudflare Workers: no `process.getBuiltinModule`, Workers' user agent. */
	function onWorkers(create: () => unknown): unknown {
		vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
		(process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
		try {
			create();
			return null;
		} catch (error) {
			return error;
		} finally {
			process.getBuiltinModule = getBuiltinModule;
		}
	}

	test('SQLiteAdapter({ filename }) throws InvalidConfiguration naming Cloudflare Workers and what to use instead', () => {
		const error = onWorkers(() => SQLiteAdapter({ filename: 'data/auth.sqlite' }));
		expect(error).toBeInstanceOf(InvalidConfiguration);
		expect((error as Error).message).toMatch(/better-sqlite3, which needs Node\.js; this is Cloudflare Workers/);
		expect((error as Error).message).toMatch(/D1/);
		expect((error as Error).message).toMatch(/libSQL/);
	});

	test('SQLiteAdapter() (the default file) throws the same', () => {
		expect((onWorkers(() => SQLiteAdapter()) as Error).message).toMatch(/this is Cloudflare Workers/);
	});

	test('PostgresAdapter({ connectionString }) throws InvalidConfiguration naming the runtime and saying to pass a pool', () => {
		const error = onWorkers(() => PostgresAdapter({ connectionString: 'postgres://127.0.0.1:1/none' }));
		expect(error).toBeInstanceOf(InvalidConfiguration);
		expect((error as Error).message).toMatch(/this is Cloudflare Workers/);
		expect((error as Error).message).toMatch(/pool/);
	});
});

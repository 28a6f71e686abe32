// Which JavaScript runtime this is, and Node's built-in modules where the runtime has them, found
// at run time through `process.getBuiltinModule`: no static `node:` import, so bundles for Workers
// and edge runtimes load, and what needs Node says so by name instead of failing at start.

import type { createRequire as CreateRequire } from 'node:module';

interface RuntimeGlobals {
	process?: { getBuiltinModule?: (id: string) => unknown; versions?: Record<string, string | undefined> };
	navigator?: { userAgent?: string };
	Deno?: unknown;
	Bun?: unknown;
	EdgeRuntime?: unknown;
}

/**
 * The runtime's name, for messages: `Node.js`, `Bun`, `Deno`, `Cloudflare Workers`, `an edge
 * runtime` (Vercel's `EdgeRuntime`), or `this runtime`.
 *
 * @example
 * `SQLite through better-sqlite3 needs Node.js; this is ${runtimeName()}.`
 */
export function runtimeName(): string {
	const globals = globalThis as RuntimeGlobals;
	if (globals.navigator?.userAgent === 'Cloudflare-Workers') return 'Cloudflare Workers';
	if (globals.EdgeRuntime !== undefined) return 'an edge runtime';
	if (globals.Bun !== undefined) return 'Bun';
	if (globals.Deno !== undefined) return 'Deno';
	if (globals.process?.versions?.node) return 'Node.js';
	return 'this runtime';
}

/**
 * Node's built-in module `id` (e.g. `node:crypto`) when the runtime has it, else undefined.
 *
 * @example
 * const fs = nodeBuiltin<typeof import('node:fs')>('node:fs');
 */
export function nodeBuiltin<T>(id: string): T | undefined {
	const getBuiltinModule = (globalThis as RuntimeGlobals).process?.getBuiltinModule;
	if (typeof getBuiltinModule !== 'function') return undefined;
	try {
		return (getBuiltinModule(id) as T | undefined) ?? undefined;
	} catch {
		return undefined;
	}
}

/**
 * A CommonJS `require` relative to `moduleUrl` (an optional peer such as `pg` or `nodemailer`,
 * loaded at run time so bundlers leave it out), or undefined where the runtime cannot give one
 * (Workers: no `node:module`, or no file URL for the module).
 *
 * @example
 * const require = nodeRequire(import.meta.url);
 * const pg = require?.('pg');
 */
export function nodeRequire(moduleUrl: string | undefined): NodeJS.Require | undefined {
	const module = nodeBuiltin<{ createRequire: typeof CreateRequire }>('node:module');
	if (!module || typeof moduleUrl !== 'string' || !moduleUrl) return undefined;
	try {
		return module.createRequire(moduleUrl);
	} catch {
		return undefined;
	}
}

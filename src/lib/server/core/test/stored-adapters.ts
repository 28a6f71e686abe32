// The adapters the unit tests of stored accounts run on without a server: memory, and a SQLite
// file of its own for every world (the files are removed after the test file).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { SQLiteAdapter } from '../../adapters/sqlite.js';
import type { Adapter } from '../types.js';

/** Both session strategies, for `describe.each`. */
export const SESSION_STRATEGIES = ['jwt', 'database'] as const;

/**
 * `[name, make]` pairs for `describe.each`: a memory adapter, and a SQLite adapter on a fresh file
 * under a temporary folder named after `label`, closed and removed after the calling test file.
 *
 * @example
 * describe.each(memoryAndSqliteAdapters('account'))('%s adapter', (_name, makeAdapter) => { … });
 */
export function memoryAndSqliteAdapters(label: string): [string, () => Required<Adapter>][] {
	const tempDir = mkdtempSync(join(tmpdir(), `kitgate-${label}-`));
	const closers: (() => Promise<void>)[] = [];
	afterAll(async () => {
		for (const close of closers) await close();
		rmSync(tempDir, { recursive: true, force: true });
	});
	return [
		['memory', () => MemoryAdapter()],
		[
			'sqlite',
			() => {
				const adapter = SQLiteAdapter({ filename: join(tempDir, `${crypto.randomUUID()}.sqlite`) });
				closers.push(() => adapter.close());
				return adapter;
			}
		]
	];
}

// Test helper: the three shipped adapters (memory, a SQLite file, PostgreSQL in a fresh schema),
// for tests of one adapter method on every backend. Closes and removes everything after the file.

import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import type { Adapter } from '../../core/types.js';
import { MemoryAdapter } from '../memory.js';
import { PostgresAdapter } from '../postgres.js';
import { SQLiteAdapter } from '../sqlite.js';

/**
 * `[name, make]` pairs for `describe.each`; call once per test file (it registers the clean-up).
 *
 * @example
 * describe.each(everyAdapter('update-account'))('updateAccount (%s)', (_name, make) => { … });
 */
export function everyAdapter(label: string): [string, () => Required<Adapter>][] {
	const tempDir = mkdtempSync(join(tmpdir(), `kitgate-${label}-`));
	const schema = `t_${randomBytes(6).toString('hex')}`;
	const connectionString = inject('databaseUrl');
	const closers: (() => Promise<void> | void)[] = [];

	afterAll(async () => {
		for (const close of closers) await close();
		const admin = new pg.Pool({ connectionString, max: 1 });
		await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
		await admin.end();
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
		],
		[
			'postgres',
			() => {
				const adapter = PostgresAdapter({ connectionString, schema });
				closers.push(() => adapter.close());
				return adapter;
			}
		]
	];
}

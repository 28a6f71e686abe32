// The adapters the integration tests of stored data run on: memory, SQLite, and PostgreSQL (the
// server the integration project starts; a schema of its own per world, dropped after the file).

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { PostgresAdapter } from '../../adapters/postgres.js';
import type { Adapter } from '../types.js';
import { memoryAndSqliteAdapters } from './stored-adapters.js';

/**
 * `[name, make]` pairs for `describe.each`: memory, SQLite (a fresh file per world) and
 * PostgreSQL (a fresh schema per world), all closed and removed after the calling test file.
 *
 * @example
 * describe.each(memorySqliteAndPostgresAdapters('organization-route-attacks'))('%s', (_name, makeAdapter) => { … });
 */
export function memorySqliteAndPostgresAdapters(label: string): [string, () => Required<Adapter>][] {
	const connectionString = inject('databaseUrl');
	const schemas: string[] = [];
	const opened: PostgresAdapter[] = [];
	afterAll(async () => {
		await Promise.all(opened.map((adapter) => adapter.close()));
		const pool = new pg.Pool({ connectionString, max: 1 });
		for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
		await pool.end();
	});
	const postgres = (): Required<Adapter> => {
		const schema = `${label.replace(/[^a-z]/g, '').slice(0, 20)}_${randomBytes(6).toString('hex')}`;
		schemas.push(schema);
		const adapter = PostgresAdapter({ connectionString, schema });
		opened.push(adapter);
		return adapter as unknown as Required<Adapter>;
	};
	return [['postgres', postgres], ...memoryAndSqliteAdapters(label)];
}

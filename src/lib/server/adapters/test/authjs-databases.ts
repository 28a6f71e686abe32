// Test helper: databases whose auth tables are made by the exact DDL of Auth.js's adapters
// (authjs-schemas/*.sql), before kitgate runs: a SQLite file, or a PostgreSQL database of its own.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

/** The schemas in authjs-schemas/, by file name. */
export type AuthjsSchema = 'pg-adapter' | 'drizzle-postgres' | 'drizzle-sqlite';

/**
 * The SQL of a schema file, less psql's own commands (`\set ON_ERROR_STOP true` in the pg
 * adapter's file), which no server understands.
 *
 * @example
 * database.exec(authjsDdl('drizzle-sqlite'));
 */
export function authjsDdl(schema: AuthjsSchema): string {
	const text = readFileSync(new URL(`./authjs-schemas/${schema}.sql`, import.meta.url), 'utf8');
	return text
		.split('\n')
		.filter((line) => !line.startsWith('\\'))
		.join('\n');
}

/**
 * The statements of a schema file, one by one, without comments (D1 runs one per prepared
 * statement; drizzle-kit separates them with `--> statement-breakpoint`).
 *
 * @example
 * await d1.batch(authjsStatements('drizzle-sqlite').map((statement) => d1.prepare(statement)));
 */
export function authjsStatements(schema: AuthjsSchema): string[] {
	return authjsDdl(schema)
		.split(/;\s*(?:--> statement-breakpoint)?\s*(?:\n|$)/)
		.map((statement) =>
			statement
				.split('\n')
				.filter((line) => !line.trimStart().startsWith('--'))
				.join('\n')
				.trim()
		)
		.filter(Boolean);
}

/**
 * A SQLite file with the tables of `schema`, and the function that removes it.
 *
 * @example
 * const { filename, remove } = sqliteFromDdl('drizzle-sqlite');
 */
export function sqliteFromDdl(schema: AuthjsSchema): { filename: string; remove: () => void } {
	const folder = mkdtempSync(join(tmpdir(), `kitgate-${schema}-`));
	const filename = join(folder, 'auth.sqlite');
	const database = new Database(filename);
	database.exec(authjsDdl(schema));
	database.close();
	return { filename, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * A new PostgreSQL database beside the one of `serverUrl`, with the tables of `schema` in its
 * `public` schema (drizzle-kit's foreign keys name "public" explicitly), and the function that drops it.
 *
 * @example
 * const { connectionString, drop } = await postgresFromDdl(inject('databaseUrl'), 'pg-adapter');
 */
export async function postgresFromDdl(
	serverUrl: string,
	schema: AuthjsSchema
): Promise<{ connectionString: string; drop: () => Promise<void> }> {
	const name = `authjs_${schema.replace(/-/g, '_')}_${randomBytes(4).toString('hex')}`;
	const admin = new pg.Client({ connectionString: serverUrl });
	await admin.connect();
	try {
		await admin.query(`CREATE DATABASE ${name}`);
	} finally {
		await admin.end();
	}
	const url = new URL(serverUrl);
	url.pathname = `/${name}`;
	const connectionString = url.href;
	const client = new pg.Client({ connectionString });
	await client.connect();
	try {
		await client.query(authjsDdl(schema));
	} finally {
		await client.end();
	}
	return {
		connectionString,
		drop: async () => {
			const dropper = new pg.Client({ connectionString: serverUrl });
			await dropper.connect();
			try {
				await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
			} finally {
				await dropper.end();
			}
		}
	};
}

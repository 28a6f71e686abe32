// The SQLite migrations as files for Cloudflare's `wrangler d1 migrations apply`, from the one source
// (sqlite-migrations.js): one folder for kitgate's own auth tables and one for use beside a table mapping.
// scripts/write-sql-files.js writes them to `migrations/d1/<folder>/<name>.sql`, which the package ships.
import { sqliteMigrations } from './sqlite-migrations.js';

/**
 * The D1 folders, by whose auth tables the database has: kitgate's (`kitgate-tables`), or another
 * library's reached through a table mapping (`table-mapping`).
 *
 * @type {readonly ('kitgate-tables' | 'table-mapping')[]}
 * @example
 * for (const folder of d1Folders) console.log(`migrations/d1/${folder}/`);
 */
export const d1Folders = ['kitgate-tables', 'table-mapping'];

/**
 * The files of one D1 folder: each SQLite migration that applies to those tables, as it is (no
 * BEGIN or COMMIT: D1 refuses them, and wrangler runs each file as one batch), followed by its
 * record in `kitgate_migrations`, so kitgate's own runner (`autoMigrate`) finds it applied.
 *
 * @param {'kitgate-tables' | 'table-mapping'} folder
 * @returns {{ file: string; name: string; sql: string }[]}
 * @example
 * const files = d1MigrationFiles('kitgate-tables'); // 0001_initial.sql, 0002_rate_limits.sql, …
 */
export function d1MigrationFiles(folder) {
	return sqliteMigrations
		.filter((migration) => !migration.onlyWith || migration.onlyWith === folder)
		.map((migration) => ({
			file: `${migration.name}.sql`,
			name: migration.name,
			sql: `${migration.sql}
-- Recorded for kitgate's own migration runner too, which then finds this migration applied.
CREATE TABLE IF NOT EXISTS kitgate_migrations (name TEXT NOT NULL PRIMARY KEY, applied_at INTEGER NOT NULL);
INSERT OR IGNORE INTO kitgate_migrations (name, applied_at) VALUES ('${migration.name}', CAST(strftime('%s', 'now') AS INTEGER) * 1000);
`
		}));
}

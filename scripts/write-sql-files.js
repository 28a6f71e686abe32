// Writes the SQL adapters' migrations as plain .sql files, src/lib/server/adapters/sql/migrations/<dialect>/<name>.sql,
// and the SQLite ones for Cloudflare D1's wrangler in migrations/d1/<kitgate-tables|table-mapping>/<name>.sql
// (git-ignored; svelte-package ships them), from their one source, the migration lists the runner applies.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { d1Folders, d1MigrationFiles } from '../src/lib/server/adapters/sql/d1-migrations.js';
import { postgresMigrations } from '../src/lib/server/adapters/sql/postgres-migrations.js';
import { sqliteMigrations } from '../src/lib/server/adapters/sql/sqlite-migrations.js';

const scriptPath = fileURLToPath(import.meta.url);
/** Where the .sql files go: beside the lists, so the package has them at dist/server/adapters/sql/migrations/. */
export const sqlFilesDir = join(dirname(scriptPath), '../src/lib/server/adapters/sql/migrations');

/**
 * Writes each migration whose file is missing or differs (unchanged files keep their time, so nothing
 * that watches src/lib rebuilds) and removes files of migrations no longer listed. Returns the files written.
 */
export function writeSqlFiles() {
	const folders = {
		postgres: postgresMigrations.map((migration) => ({ file: `${migration.name}.sql`, sql: migration.sql })),
		sqlite: sqliteMigrations.map((migration) => ({ file: `${migration.name}.sql`, sql: migration.sql })),
		...Object.fromEntries(d1Folders.map((folder) => [join('d1', folder), d1MigrationFiles(folder)]))
	};
	const written = [];
	for (const [name, files] of Object.entries(folders)) {
		const folder = join(sqlFilesDir, name);
		mkdirSync(folder, { recursive: true });
		const listed = new Set(files.map(({ file }) => file));
		for (const file of readdirSync(folder)) if (file.endsWith('.sql') && !listed.has(file)) rmSync(join(folder, file), { force: true });
		for (const { file: fileName, sql } of files) {
			const file = join(folder, fileName);
			if (existsSync(file) && readFileSync(file, 'utf8') === sql) continue;
			// written whole, then renamed: a packager reading meanwhile sees the old file or the new one
			const temporary = `${file}.${process.pid}.tmp`;
			writeFileSync(temporary, sql);
			renameSync(temporary, file);
			written.push(file);
		}
	}
	return written;
}

if (process.argv[1] && scriptPath === process.argv[1]) {
	const written = writeSqlFiles();
	console.log(written.length ? `wrote: ${written.map((file) => file.slice(sqlFilesDir.length + 1)).join(', ')}` : 'sql files up to date');
}

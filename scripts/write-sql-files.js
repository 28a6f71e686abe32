// Writes the SQL adapters' migrations as plain .sql files, src/lib/server/adapters/sql/migrations/<dialect>/<name>.sql
// (git-ignored; svelte-package ships them), from their one source, the migration lists the runner applies.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
	const written = [];
	for (const [dialect, migrations] of Object.entries({ postgres: postgresMigrations, sqlite: sqliteMigrations })) {
		const folder = join(sqlFilesDir, dialect);
		mkdirSync(folder, { recursive: true });
		const listed = new Set(migrations.map((migration) => `${migration.name}.sql`));
		for (const file of readdirSync(folder)) if (file.endsWith('.sql') && !listed.has(file)) rmSync(join(folder, file), { force: true });
		for (const migration of migrations) {
			const file = join(folder, `${migration.name}.sql`);
			if (existsSync(file) && readFileSync(file, 'utf8') === migration.sql) continue;
			// written whole, then renamed: a packager reading meanwhile sees the old file or the new one
			const temporary = `${file}.${process.pid}.tmp`;
			writeFileSync(temporary, migration.sql);
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

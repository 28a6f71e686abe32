// API report of every public entry point: API Extractor (api-extractor.json) once per entry of
// package.json `exports`, over the built declarations in dist/ (run `npm run package` first).
//
//   node scripts/api-report.js           check (npm run api:check): writes the reports to a temp
//                                        folder and fails when one differs from api/<name>.api.md,
//                                        is missing, or a checked-in report has no entry any more
//   node scripts/api-report.js --update  accept the change (npm run api:update): rewrites api/
//
// Before that it checks the built surface: every file `exports` points to exists in dist/, no export
// is a wildcard, and every other module under dist/server/providers and dist/server/adapters is
// refused by Node's resolver (src/lib/public-surface.test.ts checks the same against the sources).

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const API = join(ROOT, 'api');
const update = process.argv.includes('--update');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/**
 * Per-entry settings. `./components` exports Svelte components: its declarations re-export
 * `.svelte` modules (`SignIn.svelte.d.ts`), which TypeScript finds only with bundler resolution
 * (as every Svelte library's consumers resolve them: a bundler or svelte-check); their `Props`
 * interfaces are not exported by name, so the report includes them (forgotten exports) to show
 * every prop.
 */
const ENTRY_OPTIONS = {
	'./components': { compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' }, includeForgottenExports: true }
};

/** `./providers/github` → `kitgate-providers-github` (the report is api/<that>.api.md). */
const reportName = (subpath) => (subpath === '.' ? pkg.name : `${pkg.name}-${subpath.slice(2).replace(/[/.]/g, '-')}`);

const problems = [];

// 1. The built surface matches the list.
for (const [subpath, value] of Object.entries(pkg.exports)) {
	if (subpath.includes('*')) problems.push(`exports has a wildcard: ${subpath}`);
	for (const target of typeof value === 'string' ? [value] : Object.values(value)) {
		if (!existsSync(join(ROOT, target))) problems.push(`exports["${subpath}"] points to ${target}, which is not built (npm run package first)`);
	}
}
const require = createRequire(join(ROOT, 'package.json'));
for (const folder of ['providers', 'adapters']) {
	const base = join(ROOT, 'dist/server', folder);
	if (!existsSync(base)) continue;
	for (const file of readdirSync(base, { recursive: true })) {
		if (!String(file).endsWith('.js')) continue;
		const subpath = `./${folder}/${String(file).replace(/\.js$/, '').split('\\').join('/')}`;
		let exported = true;
		try {
			require.resolve(`${pkg.name}${subpath.slice(1)}`);
		} catch (error) {
			if (error.code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw error;
			exported = false;
		}
		if (exported !== subpath in pkg.exports) {
			problems.push(`${pkg.name}${subpath.slice(1)} is ${exported ? 'importable but not listed in exports' : 'listed but not importable'}`);
		}
	}
}

// 2. One API report per entry with types.
const entries = Object.entries(pkg.exports)
	.filter(([, value]) => typeof value === 'object' && value.types)
	.map(([subpath, value]) => ({ subpath, types: join(ROOT, value.types), name: reportName(subpath), options: ENTRY_OPTIONS[subpath] ?? {} }))
	// entries of the same compiler options share one TypeScript program
	.map((entry) => ({ ...entry, program: JSON.stringify(entry.options.compilerOptions ?? {}) }));

const base = ExtractorConfig.loadFile(join(ROOT, 'api-extractor.json'));
const temp = mkdtempSync(join(tmpdir(), 'kitgate-api-report-'));
if (update) mkdirSync(API, { recursive: true });
let changed = 0;
// one TypeScript program for all the entries of the same compiler options, not one per entry (35)
const programs = new Map();
try {
	for (const entry of entries) {
		if (!existsSync(entry.types)) continue; // reported above
		const tsconfig = base.compiler.overrideTsconfig;
		const configObject = {
			...base,
			mainEntryPointFilePath: entry.types,
			compiler: {
				...base.compiler,
				overrideTsconfig: { ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, ...entry.options.compilerOptions }, include: [entry.types] }
			},
			apiReport: {
				...base.apiReport,
				includeForgottenExports: entry.options.includeForgottenExports ?? base.apiReport.includeForgottenExports,
				reportFileName: entry.name,
				reportFolder: API,
				reportTempFolder: temp
			}
		};
		const config = ExtractorConfig.prepare({
			configObject,
			configObjectFullPath: join(ROOT, 'api-extractor.json'),
			packageJsonFullPath: join(ROOT, 'package.json')
		});
		if (!programs.has(entry.program)) {
			const others = entries.filter((other) => other !== entry && other.program === entry.program && existsSync(other.types));
			programs.set(entry.program, CompilerState.create(config, { additionalEntryPoints: others.map((other) => other.types) }));
		}
		const result = Extractor.invoke(config, {
			compilerState: programs.get(entry.program),
			localBuild: update,
			printApiReportDiff: !update,
			messageCallback: (message) => {
				// one line per entry instead of API Extractor's preamble
				if (message.messageId === 'console-preamble' || message.messageId === 'console-compiler-version-notice') message.handled = true;
			}
		});
		if (result.apiReportChanged) changed++;
		if (!result.succeeded) problems.push(`${entry.subpath}: ${result.errorCount} errors, ${result.warningCount} warnings (see above)`);
		else console.log(`api report: ${entry.subpath} → ${relative(ROOT, join(API, `${entry.name}.api.md`))}${result.apiReportChanged ? ' (updated)' : ''}`);
	}
} finally {
	rmSync(temp, { recursive: true, force: true });
}

// 3. No report of an entry that is gone.
const expected = new Set(entries.map((entry) => `${entry.name}.api.md`));
for (const file of existsSync(API) ? readdirSync(API) : []) {
	if (!file.endsWith('.api.md') || expected.has(file)) continue;
	if (update) {
		unlinkSync(join(API, file));
		console.log(`api report: removed api/${file} (no such entry)`);
	} else {
		problems.push(`api/${file} reports an entry package.json no longer exports`);
	}
}

if (problems.length) {
	console.error(`\napi report: ${problems.length} problem(s):\n${problems.map((p) => `- ${p}`).join('\n')}`);
	if (!update) console.error('If the change of the public API is intended: npm run api:update, and commit api/.');
	process.exit(1);
}
console.log(`api report: ${entries.length} entries ${update ? `checked, ${changed} updated` : 'match api/'}`);

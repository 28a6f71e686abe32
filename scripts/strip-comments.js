// Removes comments from the JavaScript that svelte-package wrote to dist/ (run after it).
// Node keeps every module's source text in the heap for as long as the process lives, and V8
// sizes its old generation from the live heap (bench/RESULTS.md, memory): comments cost resident
// memory under load. The TSDoc users read is in the .d.ts files, which stay as they are; `.svelte`
// components ship as source. esbuild keeps pure annotations and changes nothing else but layout.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every `.js` file under `dir` (not `.d.ts`, which ends otherwise). */
function javascriptFiles(dir) {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return javascriptFiles(path);
		return entry.name.endsWith('.js') ? [path] : [];
	});
}

/** Strips the comments of every module in `dir`; returns the bytes before and after. */
export function stripComments(dir = join(ROOT, 'dist')) {
	let before = 0;
	let after = 0;
	for (const file of javascriptFiles(dir)) {
		const source = readFileSync(file, 'utf8');
		// target node20: no syntax is lowered; legalComments none: kitgate's modules carry no licence text
		const { code } = transformSync(source, { loader: 'js', format: 'esm', target: 'node20', legalComments: 'none', sourcefile: file });
		writeFileSync(file, code);
		before += Buffer.byteLength(source);
		after += Buffer.byteLength(code);
	}
	return { before, after };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { before, after } = stripComments(process.argv[2] ?? join(ROOT, 'dist'));
	console.log(`dist/ JavaScript without comments: ${before} → ${after} bytes`);
}

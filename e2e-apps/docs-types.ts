// Every TypeScript, JavaScript and Svelte block of docs/ and the README, type-checked in the real
// apps (kitgate from the tarball): blocks that use Express in the Express app with tsc, the others
// in the SvelteKit app with svelte-check. A doc that drifts from the types fails the suite.

import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codeBlocks, type CodeBlock } from './guide.js';

const ROOT = resolve(import.meta.dirname, '..');
const CODE = new Set(['ts', 'typescript', 'js', 'javascript', 'svelte']);

/** Names docs use for the app's own code (its database, mailer…), declared for the check. */
const APP_AMBIENT = `// The app's own code that examples in the docs call; kitgate's types are the ones checked.
declare global {
	/** The app's database client. */
	const db: {
		users: { findByEmail(email: string): Promise<{ id: string; name: string; email: string; passwordHash: string } | null> };
		[table: string]: unknown;
	};
	/** The app's own permission lookup (docs/security.md, session callback). */
	function permissionsOf(userId: string | undefined): Promise<string[]>;
}
export {};
`;

/** The code blocks to check, with the file name each is written to. */
export function docBlocks(): (CodeBlock & { name: string; express: boolean })[] {
	const files = [...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), 'README.md'];
	// whole apps, built and checked as such: the guides, the recipes on top of one (with-tailwind,
	// with-skeleton) and the platforms of docs/deploying.md (deploying.spec.ts: tsc, deno check, then run)
	// and docs/testing.md, whose tests need vitest and Playwright (testing-fixtures.spec.ts)
	const guides = new Set(['docs/getting-started-sveltekit.md', 'docs/getting-started-express.md', 'docs/with-tailwind.md', 'docs/with-skeleton.md', 'docs/deploying.md', 'docs/testing.md']);
	return files.flatMap((file) =>
		codeBlocks(join(ROOT, file), file)
			.filter((block) => CODE.has(block.lang) && !(guides.has(file) && block.file))
			.map((block) => {
				const line = block.source.split(':')[1];
				const slug = file.replace(/[^\w]+/g, '-');
				const ext = block.lang === 'svelte' ? 'svelte' : block.lang.startsWith('j') ? 'js' : 'ts';
				// Express blocks, and plain Node ones (`process.env`), go to the Express app; SvelteKit reads its
				// environment through $env, so a SvelteKit block that uses `process` fails there, as it should
				const node = /from ['"](express|kitgate\/express)['"]/.test(block.code) || (/\bprocess\./.test(block.code) && !/kitgate\/sveltekit|\$env\/|\$app\//.test(block.code));
				// a remote functions module keeps its name, so that the page block beside it imports it (`./auth.remote`)
				const name = block.file && /\.remote\.[jt]s$/.test(block.file) ? (block.file.split('/').pop() as string) : `${slug}-${line}.${ext}`;
				return { ...block, name, express: node };
			})
	);
}

/** One type error, mapped back to the doc block it came from. */
export interface DocTypeError {
	source: string;
	message: string;
}

/** Writes the blocks into the apps and type-checks them; returns the errors. */
export function checkDocBlocks(svelteKitDir: string, expressDir: string): DocTypeError[] {
	const blocks = docBlocks();
	const byName = new Map(blocks.map((block) => [block.name, block]));
	const kitFolder = join(svelteKitDir, 'src/docs-check');
	const expressFolder = join(expressDir, 'docs-check');
	for (const folder of [kitFolder, expressFolder]) {
		rmSync(folder, { recursive: true, force: true });
		mkdirSync(folder, { recursive: true });
		writeFileSync(join(folder, 'app-ambient.d.ts'), APP_AMBIENT);
	}
	for (const block of blocks) writeFileSync(join(block.express ? expressFolder : kitFolder, block.name), block.code);
	// a deliberate error in each app: if a checker's output is not understood, the check fails instead of passing
	for (const folder of [kitFolder, expressFolder]) writeFileSync(join(folder, 'canary.ts'), "export const canary: number = 'not a number';\n");
	const errors: DocTypeError[] = [];

	const kit = run('npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--output', 'machine'], svelteKitDir);
	for (const line of kit.split('\n')) {
		const match = /^\d+ ERROR "([^"]+)" (\d+):\d+ "(.*)"$/.exec(line);
		if (!match) continue;
		const name = match[1].split('/').pop() as string;
		const block = byName.get(name);
		const source = block ? `${block.source.split(':')[0]}:${Number(block.source.split(':')[1]) + Number(match[2])}` : match[1];
		errors.push({ source, message: match[3] });
	}

	writeFileSync(
		join(expressFolder, 'tsconfig.json'),
		JSON.stringify({ compilerOptions: { strict: true, allowJs: true, checkJs: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', skipLibCheck: true, types: ['node'] }, include: ['*.ts', '*.js'] })
	);
	// --pretty false: Playwright's workers set FORCE_COLOR, and coloured errors would match nothing below
	const tsc = run('npx', ['tsc', '--pretty', 'false', '-p', 'docs-check/tsconfig.json'], expressDir);
	for (const line of tsc.split('\n')) {
		const match = /^docs-check\/([^(]+)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line);
		if (!match) continue;
		const block = byName.get(match[1]);
		const source = block ? `${block.source.split(':')[0]}:${Number(block.source.split(':')[1]) + Number(match[2])}` : match[1];
		errors.push({ source, message: match[3] });
	}
	const canaries = errors.filter((error) => error.source.includes('canary.ts'));
	if (canaries.length !== 2) throw new Error(`The type checkers' output was not understood (canary errors found: ${canaries.length} of 2):\n${kit}\n${tsc}`);
	return errors.filter((error) => !error.source.includes('canary.ts'));
}

function run(command: string, args: string[], cwd: string): string {
	try {
		return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 5 * 60_000 });
	} catch (error) {
		const failed = error as { stdout?: string; stderr?: string };
		return `${failed.stdout ?? ''}\n${failed.stderr ?? ''}`;
	}
}

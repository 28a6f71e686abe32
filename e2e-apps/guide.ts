// Following a guide in docs/ word by word: its code blocks, in order, are files to write (a first
// line naming the path: `// src/auth.ts`, `<!-- src/routes/+page.svelte -->`, `/* src/app.css */`, `# .env`) or
// commands to run (```bash run). Also lists every code block of the docs, for the type check.

import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCommand } from './run-command.js';

/** One fenced code block of a markdown file. */
export interface CodeBlock {
	/** The language of the fence (`ts`, `svelte`, `bash`, …). */
	lang: string;
	/** What follows the language on the fence line (`run`). */
	meta: string;
	code: string;
	/** The file the block is, when its first line names one. */
	file?: string;
	/** Where it is: `docs/x.md:42`. */
	source: string;
}

const FILE_COMMENT = /^(?:\/\/|#|<!--|\/\*)\s*([\w.@$+[\]/-]+\.[\w]+|\.env)\b/;

/**
 * The fenced code blocks of `markdownPath`, in order.
 *
 * @example
 * codeBlocks('docs/getting-started-express.md').filter((b) => b.file);
 */
export function codeBlocks(markdownPath: string, label = markdownPath): CodeBlock[] {
	const lines = readFileSync(markdownPath, 'utf8').split('\n');
	const blocks: CodeBlock[] = [];
	for (let i = 0; i < lines.length; i++) {
		const fence = /^```(\w+)?\s*(.*)$/.exec(lines[i]);
		if (!fence) continue;
		const start = i;
		const body: string[] = [];
		for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
		const code = `${body.join('\n')}\n`;
		const file = FILE_COMMENT.exec(body[0] ?? '')?.[1];
		blocks.push({ lang: fence[1] ?? '', meta: fence[2] ?? '', code, file, source: `${label}:${start + 1}` });
	}
	return blocks;
}

/**
 * The code blocks of one `## ` section of a markdown file (between its heading and the next `## `).
 *
 * @example
 * markdownSection('docs/deploying.md', 'Deno').find((b) => b.lang === 'bash' && b.meta === 'start');
 */
export function markdownSection(markdownPath: string, heading: string, label = markdownPath): CodeBlock[] {
	const lines = readFileSync(markdownPath, 'utf8').split('\n');
	const starts = lines.flatMap((line, index) => (line.startsWith('## ') ? [{ line: index + 1, title: line.slice(3) }] : []));
	const at = starts.findIndex((start) => start.title === heading);
	if (at < 0) throw new Error(`${label} has no section "${heading}"`);
	const end = starts[at + 1]?.line ?? Infinity;
	const lineOf = (block: CodeBlock) => Number(block.source.split(':').at(-1));
	return codeBlocks(markdownPath, label).filter((block) => lineOf(block) > starts[at].line && lineOf(block) < end);
}

/** What to change while following a guide: the package to install instead of `kitgate`, and `.env` values. */
export interface GuideOptions {
	/** Path of the packed kitgate tarball: `npm install kitgate` installs it. */
	tarball: string;
	/** Values that replace (or add to) the guide's `.env`, as a user fills in their own. */
	env?: Record<string, string>;
	/** Environment of the commands. */
	commandEnv?: NodeJS.ProcessEnv;
}

/**
 * Follows `guidePath` in `appDir`: writes its files, appends its `.env` blocks, runs its
 * ```bash run blocks, then sets `options.env` in `.env`. Returns the files written.
 *
 * @example
 * await followGuide('/tmp/app', 'docs/getting-started-express.md', { tarball, env: { AUTH_URL: origin } });
 */
export async function followGuide(appDir: string, guidePath: string, options: GuideOptions): Promise<string[]> {
	const written: string[] = [];
	for (const block of codeBlocks(guidePath)) {
		if ((block.lang === 'bash' || block.lang === 'sh') && /\brun\b/.test(block.meta)) {
			await runCommands(appDir, block.code, options);
		} else if (block.file === '.env') {
			appendFileSync(join(appDir, '.env'), block.code.split('\n').slice(1).join('\n'));
		} else if (block.file) {
			mkdirSync(dirname(join(appDir, block.file)), { recursive: true });
			writeFileSync(join(appDir, block.file), block.code);
			written.push(block.file);
		}
	}
	if (options.env) setEnvFile(appDir, options.env);
	return written;
}

/** Runs a guide's commands with bash, installing the tarball where the guide installs `kitgate`. */
async function runCommands(appDir: string, script: string, options: GuideOptions): Promise<void> {
	const local = script.replace(/^(npm install\b.*?)\bkitgate\b/gm, (_, head: string) => `${head}${options.tarball}`);
	const run = await runCommand('bash', ['-e', '-c', local], {
		cwd: appDir,
		env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_loglevel: 'error', ...options.commandEnv },
		timeout: 15 * 60_000
	});
	// what the commands printed, kept for the specs that read it (the build's warnings: startup.spec.ts)
	appendFileSync(join(appDir, GUIDE_OUTPUT), `$ ${script.trim()}\n${run.stdout}${run.stderr}\n`);
	process.stderr.write(run.stderr);
	if (run.status !== 0) throw new Error(`The guide's commands failed in ${appDir} (${run.error?.message ?? `exit ${run.status}`}):\n${local}\n${run.stderr.slice(-4000)}`);
}

/** The file in an app's folder where `followGuide` keeps what the guide's commands printed (stdout, then stderr, per block). */
export const GUIDE_OUTPUT = '.guide-output.log';

/** Sets `values` in `appDir/.env` (or another dotenv file, such as wrangler's `.dev.vars`), replacing lines of the same names. */
export function setEnvFile(appDir: string, values: Record<string, string>, file = '.env'): void {
	const path = join(appDir, file);
	let lines: string[] = [];
	try {
		lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
	} catch {
		// no .env yet
	}
	const kept = lines.filter((line) => !Object.hasOwn(values, line.split('=')[0]));
	writeFileSync(path, [...kept, ...Object.entries(values).map(([name, value]) => `${name}=${value}`)].join('\n') + '\n');
}

/** The variables of `appDir/.env`. */
export function readEnvFile(appDir: string): Record<string, string> {
	const values: Record<string, string> = {};
	for (const line of readFileSync(join(appDir, '.env'), 'utf8').split('\n')) {
		const at = line.indexOf('=');
		if (at > 0 && !line.startsWith('#')) values[line.slice(0, at).trim()] = line.slice(at + 1);
	}
	return values;
}

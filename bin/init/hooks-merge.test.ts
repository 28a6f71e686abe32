// planHooks on the shapes of src/hooks.server an app may have: the merged file is run (with
// SvelteKit's own sequence()) to see that kitgate's handle answers first and the app's runs after it
// with event.locals.auth; the shapes it cannot rewrite safely are refused; comments and strings do
// not fool it.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { with_request_store } from '@sveltejs/kit/internal/server';
import { afterAll, describe, expect, it } from 'vitest';
import { planHooks } from './hooks.js';

const folder = mkdtempSync(join(tmpdir(), 'kitgate-hooks-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
// SvelteKit's sequence() itself (the package exports it for `import` only)
const sequenceModule = fileURLToPath(new URL('../../node_modules/@sveltejs/kit/src/exports/hooks/index.js', import.meta.url)).replace(/\\/g, '/');
let files = 0;

type Event = { url: URL; locals: Record<string, unknown>; ran: string[] };
type Handle = (input: { event: Event; resolve: (event: Event) => Promise<Response> }) => Promise<Response>;

/**
 * Runs the hooks file `text` (TypeScript) with a stand-in `./auth` whose handle records itself,
 * sets `locals.auth` and answers /auth/* itself; answers what ran for `path` and the answer's body.
 */
async function runHooks(text: string, path = '/'): Promise<{ ran: string[]; body: string }> {
	const name = `hooks-${files++}`;
	writeFileSync(
		join(folder, `${name}-auth.ts`),
		`export const handle = async ({ event, resolve }) => {
	event.ran.push('kitgate');
	event.locals.auth = async () => null;
	if (event.url.pathname.startsWith('/auth/')) return new Response('kitgate route');
	return resolve(event);
};\n`
	);
	const source = text
		.replace(/(['"])\.\/auth\1/g, `'./${name}-auth.ts'`)
		.replace(/(['"])@sveltejs\/kit\/hooks\1/g, `'${sequenceModule}'`)
		.replace(/import type [^;]+;\r?\n/g, '');
	writeFileSync(join(folder, `${name}.ts`), source);
	const { handle } = (await import(/* @vite-ignore */ join(folder, `${name}.ts`))) as { handle: Handle };
	const event: Event = { url: new URL(path, 'http://localhost'), locals: {}, ran: [] };
	// what SvelteKit's server sets up around the handle for sequence() (its request store; no tracing)
	const state = { tracing: { record_span: ({ fn }: { fn: (span: unknown) => unknown }) => fn({}) } };
	const response = await with_request_store({ event, state } as never, () => handle({ event, resolve: async () => new Response('page') }));
	return { ran: event.ran, body: await response.text() };
}

/** The app's handle of most shapes: records itself and needs event.locals.auth. */
const APP_BODY = `{
	event.ran.push(typeof event.locals.auth === 'function' ? 'app with auth' : 'app without auth');
	return resolve(event);
}`;

function merged(existing: string): string {
	const plan = planHooks(existing);
	expect(plan, JSON.stringify(plan)).toMatchObject({ action: 'write', merged: true });
	return (plan as { text: string }).text;
}

describe('the shapes it merges: kitgate first, the app after it with event.locals.auth', () => {
	const shapes: Record<string, string> = {
		'export const with a Handle type (the SvelteKit docs)': `import type { Handle } from '@sveltejs/kit';\n\nexport const handle: Handle = async ({ event, resolve }) => ${APP_BODY};\n`,
		'export async function': `export async function handle({ event, resolve }) ${APP_BODY}\n`,
		'export function': `export function handle({ event, resolve }) ${APP_BODY}\n`,
		'export let': `export let handle = async ({ event, resolve }) => ${APP_BODY};\n`,
		'export const with satisfies': `import type { Handle } from '@sveltejs/kit';\nexport const handle = (async ({ event, resolve }) => ${APP_BODY}) satisfies Handle;\n`,
		'a sequence() of its own, sequence already imported': `import { sequence } from '@sveltejs/kit/hooks';\nconst one = async ({ event, resolve }) => ${APP_BODY};\nexport const handle = sequence(one);\n`,
		'beside handleError and init': `export async function init() {}\nexport const handle = async ({ event, resolve }) => ${APP_BODY};\nexport const handleError = ({ error }) => ({ message: String(error) });\n`,
		'indented (a formatter or a careless paste)': `  export const handle = async ({ event, resolve }) => ${APP_BODY};\n`,
		'with CRLF line endings': `import type { Handle } from '@sveltejs/kit';\r\n\r\nexport const handle: Handle = async ({ event, resolve }) => ${APP_BODY.replace(/\n/g, '\r\n')};\r\n`
	};
	for (const [shape, existing] of Object.entries(shapes)) {
		it(shape, async () => {
			const text = merged(existing);
			expect(text).toMatch(/export const handle = sequence\(authHandle, appHandle\);/);
			expect(await runHooks(text)).toEqual({ ran: ['kitgate', 'app with auth'], body: 'page' });
			// kitgate's routes answer: the app's handle does not stand in their way
			expect(await runHooks(text, '/auth/signin')).toEqual({ ran: ['kitgate'], body: 'kitgate route' });
			// a second look at the merged file changes nothing
			expect(planHooks(text)).toEqual({ action: 'unchanged' });
		});
	}

	it('keeps CRLF: every line of the merged file ends in CRLF, the app’s own text byte for byte', () => {
		const text = merged(shapes['with CRLF line endings']);
		expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
		expect(text).toContain(shapes['with CRLF line endings'].replace('const handle', 'const appHandle').trimEnd());
	});
});

describe('comments and strings do not fool it', () => {
	it('a comment that names `./auth` does not count as kitgate being set up', async () => {
		const existing = `// TODO: import { handle } from './auth'\nexport const handle = async ({ event, resolve }) => ${APP_BODY};\n`;
		expect(await runHooks(merged(existing))).toEqual({ ran: ['kitgate', 'app with auth'], body: 'page' });
	});

	it("another import from './auth' (signIn) does not count as kitgate's handle being there", async () => {
		const existing = `import { signIn } from './auth';\nexport const handle = async ({ event, resolve }) => { void signIn; ${APP_BODY.slice(1)};\n`;
		expect(await runHooks(merged(existing))).toEqual({ ran: ['kitgate', 'app with auth'], body: 'page' });
	});

	it("a '/*' in a string does not hide the handle after it (no second export of handle)", async () => {
		const existing = `const glob = '/*';\nexport const handle = async ({ event, resolve }) => ${APP_BODY};\nconst end = '*/';\nvoid glob; void end;\n`;
		const text = merged(existing);
		expect(text.match(/export (?:const|\{) ?handle\b/g)).toHaveLength(1);
		expect(await runHooks(text)).toEqual({ ran: ['kitgate', 'app with auth'], body: 'page' });
	});

	it('`export const handle` inside a template literal or a comment is neither counted nor renamed', async () => {
		const example = '`\nexport const handle = example;\n`';
		const existing = `/*\nexport const handle = old;\n*/\nexport const docs = ${example};\nexport const handle = async ({ event, resolve }) => ${APP_BODY};\n`;
		const text = merged(existing);
		expect(text).toContain('/*\nexport const handle = old;\n*/');
		expect(text).toContain(example);
		expect(await runHooks(text)).toEqual({ ran: ['kitgate', 'app with auth'], body: 'page' });
	});

	it("the word handle in a string or a regular expression is not taken for a use of the app's handle", async () => {
		const existing = `const label = 'handle';\nconst pattern = /handle/;\nexport const handle = async ({ event, resolve }) => ${APP_BODY};\nvoid label; void pattern;\n`;
		expect(await runHooks(merged(existing))).toEqual({ ran: ['kitgate', 'app with auth'], body: 'page' });
	});
});

describe('already set up', () => {
	it("export { handle } from './auth' is left as it is", () => {
		expect(planHooks("export { handle } from './auth';\n")).toEqual({ action: 'unchanged' });
	});

	it("kitgate's handle wired after the app's own is left, with a warning that names the fix", () => {
		const existing = `import { sequence } from '@sveltejs/kit/hooks';\nimport { handle as kitgate } from './auth';\nconst guard = async ({ event, resolve }) => resolve(event);\nexport const handle = sequence(guard, kitgate);\n`;
		const plan = planHooks(existing);
		expect(plan).toMatchObject({ action: 'unchanged', warning: expect.stringMatching(/`guard` runs before kitgate's handle .*put `kitgate` first/) });
	});

	it('no hooks file, or only handleError: kitgate’s handle is the handle', async () => {
		expect(planHooks(undefined)).toEqual({ action: 'write', merged: false, text: "export { handle } from './auth';\n" });
		const plan = planHooks('export const handleError = ({ error }) => ({ message: String(error) });\n');
		expect(plan).toMatchObject({ action: 'write', merged: false });
		expect(await runHooks((plan as { text: string }).text)).toEqual({ ran: ['kitgate'], body: 'page' });
	});
});

describe('the shapes it refuses (and writes nothing)', () => {
	const refused: Record<string, [string, RegExp]> = {
		'an export list': ['const mine = async ({ event, resolve }) => resolve(event);\nexport { mine as handle };\n', /export \{ … \}/],
		'two declarations': ['export let handle = a;\nexport let handle = b;\n', /more than one declaration/],
		'declared together with other names': ['export const handle = a, other = b;\n', /together with other names/],
		'the name handle used elsewhere': ['export let handle = a;\nhandle = wrap(handle);\n', /refers to `handle` elsewhere/],
		'a named function expression called handle': ['export const handle = async function handle({ event, resolve }) { return resolve(event); };\n', /refers to `handle` elsewhere/],
		'the name appHandle taken': ['const appHandle = 1;\nexport const handle = a;\n', /`appHandle`/],
		'a sequence of its own that is not SvelteKit’s': ['const sequence = (...h) => h[0];\nexport const handle = sequence(a);\n', /named `sequence`/]
	};
	for (const [shape, [existing, reason]] of Object.entries(refused)) {
		it(shape, () => {
			expect(planHooks(existing)).toEqual({ action: 'refuse', reason: expect.stringMatching(reason) });
		});
	}
});

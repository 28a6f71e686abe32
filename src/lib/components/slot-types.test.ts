// The type check of Auth.js's markup: svelte-check (the checker SvelteKit apps run) accepts the
// fixtures that pass `credentials`, `email` and `submitButton` as named slots and as snippets,
// and reports an error at each unknown slot or snippet name instead of dropping it silently.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');

/** Parents that use names the components do not have; each line with `bogus` must be an error. */
const unknownNames = {
	'UnknownSlotLegacy.svelte': `<script>\n\timport SignIn from '$COMPONENTS/SignIn.svelte';\n</script>\n\n<SignIn provider="credentials">\n\t<div slot="bogus"><input name="username" /></div>\n</SignIn>\n`,
	'UnknownSlotRunes.svelte': `<script lang="ts">\n\timport SignIn from '$COMPONENTS/SignIn.svelte';\n\tlet { label }: { label: string } = $props();\n</script>\n\n<SignIn provider="credentials">\n\t<span slot="bogus">{label}</span>\n</SignIn>\n`,
	'UnknownSnippetSignIn.svelte': `<script lang="ts">\n\timport SignIn from '$COMPONENTS/SignIn.svelte';\n</script>\n\n<SignIn provider="credentials">\n\t{#snippet bogus()}<input name="username" />{/snippet}\n</SignIn>\n`,
	// SignOut has a submitButton and nothing else: the sign-in names are unknown to it (marked bogus)
	'UnknownSlotSignOut.svelte': `<script>\n\timport SignOut from '$COMPONENTS/SignOut.svelte';\n</script>\n\n<SignOut>\n\t<div slot="credentials"><!-- bogus --></div>\n</SignOut>\n`,
	'UnknownSnippetSignOut.svelte': `<script lang="ts">\n\timport SignOut from '$COMPONENTS/SignOut.svelte';\n</script>\n\n<SignOut>\n\t{#snippet email()}<input name="email" /><!-- bogus -->{/snippet}\n</SignOut>\n`
};

/** Fixtures the render tests use; svelte-check must accept them as they are. */
const knownNames = ['AuthjsSlots.svelte', 'AuthjsSnippets.svelte', 'LegacyParent.svelte'];

interface Diagnostic {
	file: string;
	line: number;
	kind: string;
	message: string;
}

/** Runs svelte-check (machine output) on a tsconfig; the diagnostics it printed. */
async function svelteCheck(tsconfig: string, workspace: string): Promise<Diagnostic[]> {
	const bin = join(root, 'node_modules', 'svelte-check', 'bin', 'svelte-check');
	const run = promisify(execFile)(process.execPath, [bin, '--workspace', workspace, '--tsconfig', tsconfig, '--output', 'machine'], {
		cwd: root,
		maxBuffer: 16 * 1024 * 1024
	});
	// it exits 1 when it found errors: the output is what counts
	const { stdout } = await run.catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
	expect(stdout, 'svelte-check ran to its end').toMatch(/COMPLETED \d+ FILES/);
	return stdout
		.split('\n')
		.map((line) => /^\d+ (ERROR|WARNING) "([^"]+)" (\d+):\d+ (.*)$/.exec(line))
		.filter((match) => match !== null)
		.map(([, kind, file, line, message]) => ({ kind, file: file.replace(/^.*\//, ''), line: Number(line), message: JSON.parse(message) as string }));
}

test('svelte-check accepts the Auth.js slot and snippet names and fails on unknown ones', { timeout: 120_000 }, async () => {
	// outside src/ (and ignored by git and lint), so the project's own svelte-check never sees the failing fixtures
	const folder = mkdtempSync(join(root, '.svelte-kit', 'slot-types-'));
	try {
		const components = relative(folder, here);
		for (const [name, source] of Object.entries(unknownNames)) writeFileSync(join(folder, name), source.replace('$COMPONENTS', components));
		const include = [...Object.keys(unknownNames).map((name) => `./${name}`), ...knownNames.map((name) => join(here, 'test', name))];
		writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ extends: join(root, 'tsconfig.json'), include: [join(root, '.svelte-kit', 'ambient.d.ts'), ...include] }));

		const diagnostics = await svelteCheck(join(folder, 'tsconfig.json'), folder);

		// the known-name fixtures, and the components themselves, have nothing to report
		expect(diagnostics.filter((d) => !(d.file in unknownNames))).toEqual([]);
		for (const [name, source] of Object.entries(unknownNames)) {
			const lines = source.split('\n');
			const bogusLine = lines.findIndex((line) => line.includes('bogus')) + 1;
			const found = diagnostics.filter((d) => d.file === name);
			expect(found.filter((d) => d.kind === 'ERROR' && d.line === bogusLine), `${name}: an error at line ${bogusLine}`).not.toEqual([]);
			expect(found.filter((d) => d.line !== bogusLine), `${name}: nothing else`).toEqual([]);
		}
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
});

// Both integrations are experimental (the interface kitgate implements says so of both; README
// too): the TSDoc of `SvelteKitAuth` and `ExpressAuth`, which editors show on hover and which the
// declarations in dist/ carry as written, says so and that their API may change (issue 31, item 2).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

/** The TSDoc of the exported function `name` in `file`: its text and its tags. */
function tsdocOf(file: string, name: string): { text: string; tags: string[] } {
	const path = join(import.meta.dirname, file);
	const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
	const declaration = source.statements.find((statement): statement is ts.FunctionDeclaration => ts.isFunctionDeclaration(statement) && statement.name?.text === name);
	if (!declaration) throw new Error(`${name} is not declared in ${file}`);
	const docs = ts.getJSDocCommentsAndTags(declaration).filter(ts.isJSDoc);
	return {
		text: docs.map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '').join('\n'),
		tags: docs.flatMap((doc) => (doc.tags ?? []).map((tag) => tag.tagName.text))
	};
}

test.each([
	['sveltekit/index.ts', 'SvelteKitAuth', 'kitgate/sveltekit'],
	['express/index.ts', 'ExpressAuth', 'kitgate/express']
])('the TSDoc of %s says %s is experimental and its API may change', (file, name, entry) => {
	const { text, tags } = tsdocOf(file, name);
	expect(tags).toContain('experimental');
	expect(text).toMatch(/experimental/i);
	expect(text).toContain(entry);
	expect(text).toMatch(/API may (still )?change/);
});

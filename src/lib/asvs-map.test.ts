// docs/asvs.md maps every OWASP ASVS 5.0 V6, V7 and V9 requirement of levels 1 and 2, and the V10
// requirements of an OAuth client and OpenID relying party, to a status and, for "met", to the tests
// that prove it. This reads the page and fails when a claim names no real test.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const PAGE = readFileSync(join(ROOT, 'docs/asvs.md'), 'utf8');
const STATUSES = ['met', 'not met', "the app's job", 'not applicable'] as const;
type Status = (typeof STATUSES)[number];

/**
 * ASVS 5.0.0 (5.0/en/0x15-V6-Authentication.md, 0x16-V7-Session-Management.md,
 * 0x18-V9-Self-contained-Tokens.md, 0x19-V10-OAuth-and-OIDC.md): the level 1 and 2 ids; of V10 the
 * client's sections only (10.1 generic, 10.2 OAuth client, 10.5 OIDC client), 10.2.3 (level 3) included.
 */
const REQUIRED: Record<string, 1 | 2 | 3> = {
	...Object.fromEntries(['6.1.1', '6.2.1', '6.2.2', '6.2.3', '6.2.4', '6.2.5', '6.2.6', '6.2.7', '6.2.8', '6.3.1', '6.3.2', '6.4.1', '6.4.2'].map((id) => [id, 1 as const])),
	...Object.fromEntries(
		['6.1.2', '6.1.3', '6.2.9', '6.2.10', '6.2.11', '6.2.12', '6.3.3', '6.3.4', '6.4.3', '6.4.4', '6.5.1', '6.5.2', '6.5.3', '6.5.4', '6.5.5', '6.6.1', '6.6.2', '6.6.3', '6.8.1', '6.8.2', '6.8.3', '6.8.4'].map((id) => [id, 2 as const])
	),
	...Object.fromEntries(['7.2.1', '7.2.2', '7.2.3', '7.2.4', '7.4.1', '7.4.2'].map((id) => [id, 1 as const])),
	...Object.fromEntries(['7.1.1', '7.1.2', '7.1.3', '7.3.1', '7.3.2', '7.4.3', '7.4.4', '7.4.5', '7.5.1', '7.5.2', '7.6.1', '7.6.2'].map((id) => [id, 2 as const])),
	...Object.fromEntries(['9.1.1', '9.1.2', '9.1.3', '9.2.1'].map((id) => [id, 1 as const])),
	...Object.fromEntries(['9.2.2', '9.2.3', '9.2.4'].map((id) => [id, 2 as const])),
	...Object.fromEntries(['10.1.1', '10.1.2', '10.2.1', '10.2.2', '10.5.1', '10.5.2', '10.5.3', '10.5.4', '10.5.5'].map((id) => [id, 2 as const])),
	'10.2.3': 3
};

/** The V10 sections of the other roles (resource server, authorization server, OpenID Provider, consent): one paragraph says kitgate is a client. */
const OTHER_ROLES = ['10.3', '10.4', '10.6', '10.7'];
/** The chapters the page maps, each with its totals line. */
const CHAPTERS = ['6', '7', '9', '10'];

interface Row {
	id: string;
	level: number;
	requirement: string;
	status: string;
	notes: string;
	tests: { file: string; title: string }[];
}

/** The requirement rows of the page's tables: `| id | level | requirement | status | proof and notes |`. */
function rows(): Row[] {
	return PAGE.split('\n')
		.filter((line) => /^\| \d+\.\d+\.\d+ \|/.test(line))
		.map((line) => {
			const cells = line.slice(1, -1).split(' | ').map((cell) => cell.trim());
			const [id, level, requirement, status, ...rest] = cells;
			const notes = rest.join(' | ');
			const tests = [...notes.matchAll(/`([^`]+)` › “([^”]*)”/g)].map(([, file, title]) => ({ file, title }));
			return { id, level: Number(level), requirement, status, notes, tests };
		});
}

/**
 * The titles of the tests in a source file, as written: `test('…'`, `it('…'`, `test.each(…)('…'`,
 * `test.only`/`concurrent`/`serial`, Playwright's `test('…'` too. Skipped and todo tests are not
 * tests that prove anything, so they are left out.
 */
function testTitles(source: string): string[] {
	const start = /\b(?:test|it)(?:\.(?:only|concurrent|serial))?(?:\.each\s*(?:\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)|`[^`]*`))?\(\s*(['"`])/g;
	const titles: string[] = [];
	for (const match of source.matchAll(start)) {
		const quote = match[1];
		let title = '';
		for (let i = match.index + match[0].length; i < source.length && source[i] !== quote; i++) {
			// an escaped character stands for itself (\' in a single-quoted title)
			if (source[i] === '\\') i++;
			title += source[i];
		}
		titles.push(title);
	}
	return titles;
}

/** Test files may live here; a named file elsewhere is refused. */
const TEST_FILE = /^(src|e2e|e2e-apps)\/.+\.(test|spec)\.ts$/;
const titleCache = new Map<string, string[]>();
function titlesOf(file: string): string[] {
	if (!titleCache.has(file)) titleCache.set(file, testTitles(readFileSync(join(ROOT, file), 'utf8')));
	return titleCache.get(file)!;
}

describe('testTitles', () => {
	test('reads plain, each, escaped and Playwright titles, and leaves skipped ones out', () => {
		const source = [
			"test('plain one', () => {});",
			'it("double \\"quoted\\"", () => {});',
			"test('it\\'s escaped', () => {});",
			"test.each(['a', 'b'])('each %s', (x) => {});",
			"test.each([[1, 2], [3, fn(4)]])('nested %i', () => {});",
			'test(`${app.name}: template`, async ({ page }) => {});',
			"test.skip('skipped', () => {});",
			"test.todo('later');",
			"test.describe('a group', () => {});",
			"await page.waitFor('x'); split('y');"
		].join('\n');
		expect(testTitles(source)).toEqual(['plain one', 'double "quoted"', "it's escaped", 'each %s', 'nested %i', '${app.name}: template']);
	});
});

describe('docs/asvs.md', () => {
	const table = rows();

	test('every level 1 and 2 requirement of V6, V7 and V9, and every client requirement of V10, has exactly one row, with its level', () => {
		expect(table.map((row) => row.id).sort()).toEqual(Object.keys(REQUIRED).sort());
		for (const row of table) expect(row.level, row.id).toBe(REQUIRED[row.id]);
	});

	test('the V10 sections of the other roles are named as not applicable, in the V10 part of the page', () => {
		const v10 = PAGE.slice(PAGE.indexOf('## V10 '));
		expect(v10.length).toBeLessThan(PAGE.length);
		const paragraph = v10.split('\n\n').find((text) => OTHER_ROLES.every((section) => text.includes(`V${section}`)));
		expect(paragraph, `one paragraph naming ${OTHER_ROLES.map((section) => `V${section}`).join(', ')}`).toBeDefined();
		expect(paragraph).toMatch(/not applicable/);
	});

	test('every status is one of the four, and every row that is not met says why in a note', () => {
		for (const row of table) {
			expect(STATUSES, row.id).toContain(row.status);
			expect(row.requirement.length, row.id).toBeGreaterThan(20);
			if (row.status !== 'met') expect(row.notes.replace(/`[^`]+` › “[^”]*”/g, '').trim().length, row.id).toBeGreaterThan(10);
		}
	});

	test('every "met" names at least one test', () => {
		expect(table.filter((row) => row.status === 'met' && row.tests.length === 0).map((row) => row.id)).toEqual([]);
	});

	test('every named test exists, with that exact title, in that file', () => {
		const missing: string[] = [];
		for (const row of table) {
			for (const { file, title } of row.tests) {
				if (!TEST_FILE.test(file) || !existsSync(join(ROOT, file))) missing.push(`${row.id}: no test file ${file}`);
				else if (!titlesOf(file).includes(title)) missing.push(`${row.id}: ${file} has no test “${title}”`);
			}
		}
		expect(missing).toEqual([]);
	});

	test('no test reference is malformed (a reference the parser cannot read would go unchecked)', () => {
		for (const row of table) {
			const written = (row.notes.match(/›/g) ?? []).length;
			expect(row.tests.length, `${row.id}: every › must be \`file\` › “title”`).toBe(written);
		}
	});

	test('the totals the page states are the totals of its rows', () => {
		const count = (chapter: string, status: Status) => table.filter((row) => row.id.startsWith(chapter) && row.status === status).length;
		const [met, notMet, app, none] = STATUSES.map((status) => count('', status));
		expect(PAGE).toContain(`**Totals (${table.length} requirements):** met ${met} · not met ${notMet} · the app's job ${app} · not applicable ${none}.`);
		for (const chapter of CHAPTERS) {
			const [m, n, a, x] = STATUSES.map((status) => count(`${chapter}.`, status));
			expect(PAGE).toContain(`V${chapter}: met ${m} · not met ${n} · the app's job ${a} · not applicable ${x}.`);
		}
	});

	test('a typo in a title is caught (the check is exact)', () => {
		const [first] = table.filter((row) => row.status === 'met').flatMap((row) => row.tests);
		expect(titlesOf(first.file)).toContain(first.title);
		expect(titlesOf(first.file)).not.toContain(first.title.replace(/.$/, (last) => (last === 'x' ? 'y' : 'x')));
		expect(titlesOf(first.file)).not.toContain(`${first.title} `);
	});
});

describe('test files', () => {
	test('the test folders exist (a moved folder would silently empty the check)', () => {
		for (const folder of ['src', 'e2e', 'e2e-apps']) expect(readdirSync(join(ROOT, folder)).length).toBeGreaterThan(0);
	});
});

// Tests of the failure table: its rows are coherent, every text it shows exists in every language,
// and `docs/errors.md` is generated from it (rewrite it with `npm run docs:errors`).

import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { errorPageMessageIds, errorPageStatus, failures, isErrorType, signInMessageId, type ErrorType, type FailureRule } from './failures.js';
import { en } from './messages/en.js';
import { messages } from './messages/index.js';

const rows = Object.entries(failures) as [ErrorType, FailureRule][];
const DOC = new URL('../../docs/errors.md', import.meta.url);

describe('the failure table', () => {
	test('statuses are 4xx or 5xx; only start-up and server-side failures are 5xx', () => {
		for (const [type, rule] of rows) {
			expect(rule.status, type).toBeGreaterThanOrEqual(400);
			expect(rule.status, type).toBeLessThan(600);
			if (rule.startup) expect(rule.status, type).toBe(503);
		}
	});

	test('a start-up problem is never retried by the user and always logged as an error', () => {
		for (const [type, rule] of rows.filter(([, r]) => r.startup)) {
			expect(rule.retry, type).toBe(false);
			expect(rule.log, type).toBe('error');
			expect(rule.page, type).toBe('error');
		}
	});

	test('every text a row shows exists in every language', () => {
		for (const [type, rule] of rows) {
			const ids = rule.page === 'signIn' ? [`signin.error.${rule.message}`] : rule.page === 'error' ? [`error.${rule.message}.title`, `error.${rule.message}.body`] : [];
			for (const [locale, table] of Object.entries(messages)) {
				for (const id of ids) expect(Object.hasOwn(table, id), `${locale}: ${type} → ${id}`).toBe(true);
			}
		}
	});

	test('lookups follow the rows', () => {
		expect(isErrorType('RateLimited')).toBe(true);
		expect(isErrorType('constructor')).toBe(false);
		expect(errorPageStatus('MissingCSRF')).toBe(403);
		// the error page shows a failure that already happened: never 5xx, whatever `?error=` says
		expect(errorPageStatus('AdapterError')).toBe(400);
		expect(errorPageStatus('Nope')).toBe(200);
		expect(errorPageMessageIds('MissingAdapter')).toEqual({ title: 'error.Configuration.title', body: 'error.Configuration.body' });
		expect(errorPageMessageIds('__proto__')).toEqual({ title: 'error.Default.title', body: 'error.Default.body' });
		expect(signInMessageId('SessionRequired', {})).toBe('signin.error.SessionRequired');
		expect(signInMessageId('AccessDenied', en)).toBe('signin.error.AccessDenied');
		expect(signInMessageId('AccessDenied', {})).toBe('signin.error.Default');
		expect(signInMessageId('hasOwnProperty', en)).toBe('signin.error.Default');
	});
});

describe('docs/errors.md', () => {
	test('is generated from the failure table', () => {
		const expected = errorsDoc();
		if (process.env.KITGATE_UPDATE_DOCS === '1') writeFileSync(DOC, expected);
		const actual = readFileSync(DOC, 'utf8');
		expect(actual, 'docs/errors.md is out of date: run `npm run docs:errors`').toBe(expected);
	});
});

const PAGE: Record<FailureRule['page'], string> = { signIn: 'sign-in page', error: 'error page', none: 'none (logged only)' };

/** The English text a row shows, for the doc. */
function shownText(rule: FailureRule): string {
	const table = en as Record<string, string>;
	if (rule.page === 'signIn') return table[`signin.error.${rule.message}`];
	if (rule.page === 'error') return `**${table[`error.${rule.message}.title`]}.** ${table[`error.${rule.message}.body`]}`;
	return '—';
}

function errorsDoc(): string {
	const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
	const lines = rows.map(
		([type, rule]) =>
			`| \`${type}\` | ${rule.status} | ${PAGE[rule.page]} | ${rule.retry ? 'yes' : 'no'} | ${rule.log}${rule.startup ? ', stops start-up' : ''} | ${cell(rule.meaning)} | ${cell(shownText(rule))} |`
	);
	return `<!-- Generated from src/lib/failures.ts by \`npm run docs:errors\`; edit the table there, not this file. -->

# Errors

Every failure kitgate reports has a stable code: the \`type\` of the error classes exported from
\`kitgate\`, the \`error\` parameter of the sign-in and error pages, and the \`error\` field of its
JSON answers. One table in the source decides, for each code, what happens; this page is
generated from it.

- **Status**: the HTTP status of a JSON answer (the \`session\`, \`csrf\`, \`providers\` and passkey
  routes, and any request sent with \`X-Auth-Return-Redirect: 1\`, which also gets the page's
  \`url\`). The error page uses the same status, except that it is never 5xx: it shows a failure
  that already happened, and anyone can type its \`?error=\`.
- **Browser goes to**: where a form post or a navigation is redirected. The sign-in page keeps
  \`callbackUrl\` (and a credentials failure adds \`code\`); the error page links to the sign-in page
  only when **Retry** says trying again can help.
- **Log**: the level the failure is logged at, with its cause. \`error\` needs the operator,
  \`warn\` is a refused or broken request, \`debug\` is noise (shown with \`debug: true\`). A code
  that stops start-up is thrown by \`Auth()\`, \`SvelteKitAuth()\` or \`ExpressAuth()\` with a message
  that says what to change; met while a per-request config is resolved, it answers 503.
- **Text**: the English text the built-in pages show (\`messages\` overrides it; see
  [theming.md](theming.md)).

| Code | Status | Browser goes to | Retry | Log | What happened | Text |
| --- | --- | --- | --- | --- | --- | --- |
${lines.join('\n')}

An \`?error=\` that is not one of these codes shows the generic text (\`error.Default\`), with
status 200.

## In code

\`isAuthError(error, code)\` narrows an unknown error to one code, also for errors thrown by another
copy of kitgate:

\`\`\`ts
import { isAuthError } from 'kitgate';

export function describeFailure(error: unknown): string {
	if (isAuthError(error, 'CredentialsSignin')) return \`refused (\${error.code})\`;
	if (isAuthError(error)) return error.type;
	return 'unexpected';
}
\`\`\`
`;
}

// The stories keep up with the pages: every error type with its own text has a story of the page
// that shows it, and every built-in page and exported component has a stories file.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { messages } from '../lib/messages/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const source = (file: string) => readFileSync(join(here, file), 'utf8');
/** Error types that have a text with this id prefix and suffix in the English table. */
const typesWithText = (prefix: string, suffix = '') =>
	Object.keys(messages.en)
		.filter((id) => id.startsWith(prefix) && id.endsWith(suffix))
		.map((id) => id.slice(prefix.length, id.length - suffix.length));

describe('stories', () => {
	test('every sign-in error with a text has a sign-in page story', () => {
		const stories = source('SignInPage.stories.ts');
		for (const type of typesWithText('signin.error.')) expect(stories, type).toContain(`export const Error${type}: Story = withError('${type}');`);
	});

	test('every error page type with a text has an error page story', () => {
		const stories = source('ErrorPage.stories.ts');
		for (const type of typesWithText('error.', '.title')) expect(stories, type).toContain(`export const Error${type}: Story = page('${type}');`);
	});

	test('every built-in page and every component has stories, with light and dark', () => {
		const files = readdirSync(here).filter((file) => file.endsWith('.stories.ts'));
		for (const name of ['SignInPage', 'SignOutPage', 'ErrorPage', 'VerifyRequestPage', 'VerifyEmailPage', 'SignIn', 'SignOut', 'PasskeySignIn', 'PasskeyRegister']) {
			expect(files).toContain(`${name}.stories.ts`);
			expect(source(`${name}.stories.ts`), name).toMatch(/colorScheme: 'dark'|theme: 'dark'/);
		}
	});
});

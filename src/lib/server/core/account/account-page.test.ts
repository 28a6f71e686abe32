// Who gets the built-in account page (prefersAccountPage, account-page.ts): a browser that asks for
// HTML first gets the page; a script (JSON, X-Auth-Return-Redirect, anything else) the overview.

import { describe, expect, test } from 'vitest';
import { prefersAccountPage } from './account-page.js';

/** What a browser sends when it follows a link. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('prefersAccountPage', () => {
	test.each([
		[BROWSER, true],
		['text/html', true],
		['*/*', false],
		['', false],
		['application/json', false],
		['application/json, text/html;q=0.5', false],
		['text/html, application/json', false],
		['text/html;q=0.9, application/json;q=0.5', true],
		['text/html;q=0', false]
	])('Accept %j → page %s', (accept, page) => {
		expect(prefersAccountPage(new Headers(accept ? { accept } : {}))).toBe(page);
	});

	test('X-Auth-Return-Redirect asks for JSON whatever Accept says', () => {
		expect(prefersAccountPage(new Headers({ accept: BROWSER, 'x-auth-return-redirect': '1' }))).toBe(false);
	});
});

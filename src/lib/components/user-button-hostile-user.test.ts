// UserButton with a user whose name, email or image is hostile (an OAuth profile, or a name an
// update stored): everything is text or a safe image URL, on the server and when the session comes
// from the session state (what the browser learned), so nothing runs.

import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import type { Session } from '../server/core/types.js';
import UserButton from './UserButton.svelte';
import WithLearnedSession from './test/WithLearnedSession.svelte';

const SCRIPT = '"><script>alert(1)</script><img src=x onerror=alert(1)>';
const hostile = (image: string): Session => ({ user: { name: SCRIPT, email: `${SCRIPT}@example.com`, image }, expires: '2100-01-01T00:00:00.000Z' });
const IMAGES = ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', '" onerror="alert(1)'];

/** The markup the browser would parse: no element or attribute the user's fields made. */
function expectInert(body: string) {
	expect(body).not.toMatch(/<script/i);
	expect(body).not.toMatch(/<img src=x/i);
	expect(body).not.toMatch(/src="\s*(javascript|vbscript|data:text)/i);
	// the only onerror is Svelte's own (it replays an error that came before hydration)
	for (const handler of body.match(/\sonerror="[^"]*"/gi) ?? []) expect(handler).toBe(' onerror="this.__e=event"');
	// the name is there, as text
	expect(body).toContain('&lt;script>alert(1)&lt;/script>');
}

describe('UserButton with a hostile user', () => {
	test.each(IMAGES)('from the layout session, image %j', (image) => {
		const body = render(UserButton, { props: { session: hostile(image), open: true } }).body;
		expectInert(body);
		expect(body).not.toContain('<img');
	});

	test.each(IMAGES)('from a session the browser learned, image %j', (image) => {
		const body = render(WithLearnedSession, { props: { state: null, learned: hostile(image) } }).body;
		expectInert(body);
		expect(body).not.toContain('<img');
	});

	test('an https image is shown as an image, its URL an attribute value', () => {
		const body = render(UserButton, { props: { session: hostile('https://example.com/a.png?"onerror="alert(1)') } }).body;
		expect(body).toContain('<img src="https://example.com/a.png?&quot;onerror=&quot;alert(1)"');
		expectInert(body);
	});
});

// UserButton and SignOut with the layout's session state (setSessionContext): UserButton shows the
// state's session, which is what the browser learned since the load; a `session` prop still wins.
// Both stay plain HTML on the server (no JavaScript needed, safe to prerender).

import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import type { Session } from '../server/core/types.js';
import SignOut from './SignOut.svelte';
import UserButton from './UserButton.svelte';
import WithLearnedSession from './test/WithLearnedSession.svelte';
import WithSessionState from './test/WithSessionState.svelte';
import { withoutMarkers } from './test/html.js';

const sessionOf = (name: string): Session => ({ user: { name, email: `${name.toLowerCase()}@example.com` }, expires: '2100-01-01T00:00:00.000Z' });
const menuOf = (body: string) => /aria-label="Account menu of ([^"]+)"/.exec(body)?.[1];

describe('UserButton with a session state', () => {
	test("shows the state's session", () => {
		expect(menuOf(render(WithSessionState, { props: { state: sessionOf('Ada') } }).body)).toBe('Ada');
		expect(render(WithSessionState, { props: { state: null } }).body).not.toContain('kg-userbutton');
	});

	test('shows what the state learned over the layout session: signed in, or signed out', () => {
		expect(menuOf(render(WithLearnedSession, { props: { state: null, learned: sessionOf('Grace') } }).body)).toBe('Grace');
		expect(render(WithLearnedSession, { props: { state: sessionOf('Ada'), learned: null } }).body).not.toContain('kg-userbutton');
	});

	test('a `session` prop still wins over the state (null: nobody)', () => {
		expect(menuOf(render(WithSessionState, { props: { state: sessionOf('Ada'), session: sessionOf('Grace') } }).body)).toBe('Grace');
		expect(render(WithSessionState, { props: { state: sessionOf('Ada'), session: null } }).body).not.toContain('kg-userbutton');
	});

	test('without a state it is as before: the prop, else nothing outside SvelteKit', () => {
		expect(menuOf(render(UserButton, { props: { session: sessionOf('Ada') } }).body)).toBe('Ada');
		expect(render(UserButton, {}).body).not.toContain('kg-userbutton');
	});
});

describe('SignOut with a session state', () => {
	test('is the same plain POST form as without one (works without JavaScript)', () => {
		const alone = withoutMarkers(render(SignOut, {}).body).trim();
		// the UserButton left out (session: null), so the page is the SignOut form alone
		const withState = withoutMarkers(render(WithSessionState, { props: { state: sessionOf('Ada'), session: null } }).body).trim();
		expect(alone).toMatch(/^<form method="POST" action="\/signout"[^>]*><input type="hidden" name="callbackUrl" disabled=""\/>/);
		expect(withState).toBe(alone);
	});
});

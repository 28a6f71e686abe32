// Auth.js's markup for SignIn and SignOut, rendered on the server as SvelteKit (and a prerender)
// does: named slots from a Svelte 4 style parent, snippets from a runes parent, snippet props, and
// the props `provider`, `signInPage`, `signOutPage`, `options`, `authorizationParams`,
// `className`. Each form keeps its own submit button and posts to the app's action under the base path.

import { createRawSnippet } from 'svelte';
import { render } from 'svelte/server';
import { afterEach, describe, expect, test } from 'vitest';
// what SvelteKit itself calls while rendering a page (paths.relative) or under `kit.paths.base`
import * as paths from '$app/paths/internal/server';
import SignIn from './SignIn.svelte';
import SignOut from './SignOut.svelte';
import AuthjsSlots from './test/AuthjsSlots.svelte';
import AuthjsSnippets from './test/AuthjsSnippets.svelte';
import LegacyParent from './test/LegacyParent.svelte';
import { buttons, inputs, withoutMarkers } from './test/html.js';

const html = (text: string) => createRawSnippet(() => ({ render: () => text }));

/** The one `<form>` of some HTML: its opening tag and its inner HTML. */
function form(body: string): { tag: string; inner: string } {
	const forms = [...withoutMarkers(body).matchAll(/(<form[^>]*>)([\s\S]*?)<\/form>/g)];
	expect(forms).toHaveLength(1);
	return { tag: forms[0][1], inner: forms[0][2] };
}

/** What a credentials form written the Auth.js way must be, whichever syntax wrote it. */
function expectCredentialsForm(body: string, label: string) {
	const { tag, inner } = form(body);
	expect(tag).toBe('<form method="POST" action="/login" class="kg-form kg-signin signInButton auth-form">');
	expect(inputs(inner)).toEqual([
		{ type: 'hidden', name: 'providerId', value: 'credentials' },
		{ type: 'hidden', name: 'callbackUrl', value: '/after' },
		{ name: 'username', autocomplete: 'username' },
		{ name: 'password', type: 'password', autocomplete: 'current-password' }
	]);
	// the fields come before the form's own submit button, whose content is the submitButton markup
	expect(inner.indexOf('name="password"')).toBeLessThan(inner.indexOf('<button'));
	expect(buttons(inner)).toEqual([{ attributes: 'type="submit" class="kg-button"', content: expect.stringContaining(label) }]);
	expect(inner).not.toContain('Sign in with');
}

afterEach(() => paths.reset());

describe('SignIn with Auth.js markup', () => {
	test('credentials as a named slot (Svelte 4 style parent): the inputs render, the button keeps submitting', () => {
		const body = render(AuthjsSlots, { props: { form: 'credentials', label: 'Log in' } }).body;
		expectCredentialsForm(body, 'Log in');
		expect(buttons(body)[0].content).toBe('<span slot="submitButton">Log in</span>');
	});

	test('credentials as a snippet (runes parent)', () => {
		const body = render(AuthjsSnippets, { props: { form: 'credentials', label: 'Log in' } }).body;
		expectCredentialsForm(body, 'Log in');
		expect(buttons(body)[0].content).toBe('<span>Log in</span>');
	});

	test('a runes parent may still pass slot="credentials" and slot="submitButton"', () => {
		const { inner } = form(render(AuthjsSnippets, { props: { form: 'slots', label: 'Enter' } }).body);
		expect(inputs(inner)).toContainEqual({ name: 'username' });
		expect(buttons(inner)).toEqual([{ attributes: 'type="submit" class="kg-button"', content: '<span slot="submitButton">Enter</span>' }]);
	});

	test('credentials, email and submitButton as snippet props (what createRawSnippet or a story passes)', () => {
		const credentials = render(SignIn, {
			props: { provider: 'credentials', credentials: html('<input name="pin" type="password">'), submitButton: html('<b>Unlock</b>') }
		}).body;
		expect(inputs(form(credentials).inner)).toContainEqual({ name: 'pin', type: 'password' });
		expect(buttons(credentials)).toEqual([{ attributes: 'type="submit" class="kg-button"', content: '<b>Unlock</b>' }]);
		const email = render(SignIn, { props: { provider: 'email', email: html('<input name="email" type="email">') } }).body;
		expect(inputs(email)).toEqual([{ type: 'hidden', name: 'providerId', value: 'email' }, { name: 'email', type: 'email' }]);
		expect(buttons(email)).toEqual([{ attributes: 'type="submit" class="kg-button"', content: expect.stringContaining('Sign in with email') }]);
	});

	test('email as a named slot and as a snippet replaces the default email field', () => {
		for (const body of [render(AuthjsSlots, { props: { form: 'email' } }).body, render(AuthjsSnippets, { props: { form: 'email' } }).body]) {
			const { tag, inner } = form(body);
			expect(tag).toBe('<form method="POST" action="/signin" class="kg-form kg-signin signInButton">');
			expect(inputs(inner)).toEqual([{ type: 'hidden', name: 'providerId', value: 'email' }, { name: 'email', type: 'email' }]);
			expect(inner).toContain('Your email');
			expect(inner).not.toContain('Email address');
			expect(buttons(inner)).toEqual([{ attributes: 'type="submit" class="kg-button"', content: 'Email me a link' }]);
		}
	});

	test('submitButton is the content of the form\'s button for an OAuth provider too (brand button kept)', () => {
		const { inner } = form(render(AuthjsSlots, { props: { form: 'oauth' } }).body);
		expect(inputs(inner)).toEqual([
			{ type: 'hidden', name: 'providerId', value: 'github' },
			{ type: 'hidden', name: 'callbackUrl', value: '/repos' },
			{ type: 'hidden', name: 'authorizationParams.prompt', value: 'login' }
		]);
		expect(buttons(inner)).toEqual([{ attributes: 'type="submit" class="kg-button kg-provider"', content: '<span slot="submitButton">Continue with GitHub</span>' }]);
	});

	test('the snippets kitgate already had keep working: children (default content) and submitButton from a Svelte 4 parent', () => {
		const { inner } = form(render(LegacyParent, { props: { label: 'Continue with GitHub' } }).body);
		expect(inputs(inner)).toContainEqual({ type: 'hidden', name: 'extra', value: '1' });
		expect(buttons(inner)).toEqual([{ attributes: 'type="submit" class="kg-button kg-provider"', content: '<span class="legacy">Continue with GitHub</span>' }]);
		const children = render(SignIn, { props: { provider: 'idp', children: html('<input name="remember" type="checkbox">') } }).body;
		expect(inputs(children)).toContainEqual({ name: 'remember', type: 'checkbox' });
		expect(buttons(children)).toHaveLength(1);
	});

	test('authorizationParams in each of Auth.js\'s forms become authorizationParams.<name> fields', () => {
		const expected = [
			{ type: 'hidden', name: 'providerId', value: 'idp' },
			{ type: 'hidden', name: 'authorizationParams.prompt', value: 'login' },
			{ type: 'hidden', name: 'authorizationParams.login_hint', value: 'a@b.c' }
		];
		for (const authorizationParams of [
			{ prompt: 'login', login_hint: 'a@b.c' },
			new URLSearchParams({ prompt: 'login', login_hint: 'a@b.c' }),
			'prompt=login&login_hint=a%40b.c',
			'?prompt=login&login_hint=a%40b.c',
			[['prompt', 'login'], ['login_hint', 'a@b.c']]
		]) {
			expect(inputs(render(SignIn, { props: { provider: 'idp', authorizationParams } }).body), String(authorizationParams)).toEqual(expected);
		}
		// an empty value is not sent (the identity provider would see `prompt=`)
		expect(inputs(render(SignIn, { props: { provider: 'idp', authorizationParams: { prompt: '' } } }).body)).toHaveLength(1);
	});

	test('options.redirectTo becomes the callbackUrl field, also from FormData', () => {
		const data = new FormData();
		data.set('redirectTo', '/from-form-data');
		expect(inputs(render(SignIn, { props: { provider: 'idp', options: data } }).body)).toContainEqual({ type: 'hidden', name: 'callbackUrl', value: '/from-form-data' });
		expect(inputs(render(SignIn, { props: { provider: 'idp', options: {} } }).body)).toEqual([{ type: 'hidden', name: 'providerId', value: 'idp' }]);
	});

	test('className and class both reach the form', () => {
		expect(form(render(SignIn, { props: { className: 'a', class: 'b' } }).body).tag).toBe('<form method="POST" action="/signin" class="kg-form kg-signin signInButton a b">');
		expect(form(render(SignIn, { props: { className: 'a' } }).body).tag).toContain('class="kg-form kg-signin signInButton a"');
	});

	test('under kit.paths.base the form posts to {base}/{signInPage}', () => {
		paths.override({ base: '/app', assets: '/app' });
		expect(form(render(AuthjsSlots, { props: { form: 'credentials' } }).body).tag).toContain('action="/app/login"');
		expect(form(render(AuthjsSnippets, { props: { form: 'email' } }).body).tag).toContain('action="/app/signin"');
		// SvelteKit renders pages with a relative base (paths.relative): the action stays relative to the page
		paths.override({ base: '..', assets: '..' });
		expect(form(render(SignIn, { props: { signInPage: '/login' } }).body).tag).toContain('action="../login"');
	});
});

describe('SignOut with Auth.js markup', () => {
	test('submitButton as a named slot and as a snippet is the button\'s content; signOutPage, options, className', () => {
		for (const body of [render(AuthjsSlots, { props: { form: 'signout', label: 'Leave' } }).body, render(AuthjsSnippets, { props: { form: 'signout', label: 'Leave' } }).body]) {
			const { tag, inner } = form(body);
			expect(tag).toBe('<form method="POST" action="/logout" class="kg-form kg-signout signOutButton auth-out">');
			expect(inputs(inner)).toEqual([{ type: 'hidden', name: 'callbackUrl', value: '/bye' }]);
			expect(buttons(inner)).toEqual([{ attributes: 'type="submit" class="kg-button"', content: expect.stringMatching(/^<span( slot="submitButton")?>Leave<\/span>$/) }]);
		}
	});

	test('a snippet prop, FormData options and the base path', () => {
		const data = new FormData();
		data.set('redirectTo', '/later');
		const body = render(SignOut, { props: { options: data, submitButton: html('<i>Bye</i>') } }).body;
		expect(inputs(body)).toEqual([{ type: 'hidden', name: 'callbackUrl', value: '/later' }]);
		expect(buttons(body)).toEqual([{ attributes: 'type="submit" class="kg-button"', content: '<i>Bye</i>' }]);
		paths.override({ base: '/app', assets: '/app' });
		expect(form(render(AuthjsSlots, { props: { form: 'signout' } }).body).tag).toContain('action="/app/logout"');
	});
});

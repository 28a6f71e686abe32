// The components rendered on the server (as SvelteKit does, and as a prerender does): plain forms
// posting to the form actions, labelled fields, announced errors, brand colours with contrast,
// texts from the message table (English, French, a layout's `setMessages`), and no session.

import { createRawSnippet } from 'svelte';
import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import { messages, resolveMessages } from '../messages/index.js';
import { enForms } from '../messages/en-forms.js';
import { enPasskey } from '../messages/en-passkey.js';
import { rgbContrast, parseHexColor } from '../styles/contrast.js';
import PasskeyRegister from './PasskeyRegister.svelte';
import PasskeySignIn from './PasskeySignIn.svelte';
import SignIn from './SignIn.svelte';
import SignOut from './SignOut.svelte';
import LegacyParent from './test/LegacyParent.svelte';
import WithMessages from './test/WithMessages.svelte';
import { buttons, inputs, withoutMarkers } from './test/html.js';

const content = (text: string) => createRawSnippet(() => ({ render: () => `<span class="mine">${text}</span>` }));

describe('SignIn', () => {
	test('is a POST form to the sign-in action with the provider and the callback URL', () => {
		const { body } = render(SignIn, { props: { provider: 'github', options: { redirectTo: '/after' } } });
		expect(body).toMatch(/<form method="POST" action="\/signin"/);
		expect(inputs(body)).toEqual([
			{ type: 'hidden', name: 'providerId', value: 'github' },
			{ type: 'hidden', name: 'callbackUrl', value: '/after' }
		]);
		expect(body).toContain('Sign in with github');
		expect(body).not.toContain('<a ');
	});

	test('signInPage changes the action; a leading slash cannot make it protocol-relative', () => {
		expect(render(SignIn, { props: { signInPage: 'login' } }).body).toContain('action="/login"');
		expect(render(SignIn, { props: { signInPage: '//evil.example/x' } }).body).toContain('action="/evil.example/x"');
	});

	test('without a provider it posts no provider id and says "Sign in"', () => {
		const { body } = render(SignIn, {});
		expect(inputs(body)).toEqual([]);
		expect(body).toMatch(/<button[^>]*class="kg-button"[^>]*>[\s\S]*Sign in<\/span>/);
	});

	test('authorizationParams become authorizationParams.<name> fields for the action to forward', () => {
		const { body } = render(SignIn, { props: { provider: 'idp', authorizationParams: { prompt: 'login', login_hint: 'a@b.c' } } });
		expect(inputs(body)).toContainEqual({ type: 'hidden', name: 'authorizationParams.prompt', value: 'login' });
		expect(inputs(body)).toContainEqual({ type: 'hidden', name: 'authorizationParams.login_hint', value: 'a@b.c' });
	});

	test('credentials fields are labelled inputs with their types and autocomplete', () => {
		const { body } = render(SignIn, {
			props: {
				provider: 'credentials',
				credentials: { username: { label: 'Username', autocomplete: 'username' }, password: { type: 'password', autocomplete: 'current-password' } }
			}
		});
		// the field naming the user also offers passkeys (autofill: `webauthn`, after its own tokens)
		expect(body).toMatch(/<label class="kg-field"><span>Username<\/span> <input name="username" type="text" required="" autocomplete="username webauthn"\/><\/label>/);
		expect(body).toMatch(/<label class="kg-field"><span>password<\/span> <input name="password" type="password" required="" autocomplete="current-password"\/><\/label>/);
		// a form with fields keeps the theme's brand button
		expect(body).toMatch(/<button type="submit" class="kg-button">/);
	});

	test('email mode renders one labelled email field', () => {
		const { body } = render(SignIn, { props: { provider: 'email', providerName: 'Email', email: true } });
		expect(body).toContain('<span>Email address</span>');
		expect(inputs(body)).toContainEqual({ name: 'email', type: 'email', required: '', autocomplete: 'email webauthn' });
		expect(body).toContain('Sign in with Email');
	});

	test('provider="email" renders the email field by default (as Auth.js does); email={false} leaves it out', () => {
		const byDefault = render(SignIn, { props: { provider: 'email' } }).body;
		expect(inputs(byDefault)).toContainEqual({ name: 'email', type: 'email', required: '', autocomplete: 'email webauthn' });
		const without = render(SignIn, { props: { provider: 'email', email: false } }).body;
		expect(inputs(without).some((input) => input.name === 'email')).toBe(false);
	});

	test('an error is announced with role="alert"; unknown types get the generic text', () => {
		const failed = render(SignIn, { props: { provider: 'credentials', credentials: {}, error: 'CredentialsSignin' } }).body;
		expect(failed).toMatch(/<p class="kg-alert" role="alert">Sign in failed\. Check the details you provided are correct\.<\/p>/);
		const unknown = render(SignIn, { props: { error: '<script>x</script>' } }).body;
		expect(unknown).toContain('role="alert">Unable to sign in. Please try again.</p>');
		expect(unknown).not.toContain('<script>');
		expect(render(SignIn, { props: { error: null } }).body).not.toContain('role="alert"');
	});

	test('a provider brand colour reaches the button as --kg-b (the stylesheet picks the text colour of higher contrast)', () => {
		const dark = render(SignIn, { props: { provider: 'github', providerStyle: { brandColor: '#24292f', logo: '/github.svg' } } }).body;
		expect(dark).toContain('class="kg-button kg-provider" style="--kg-b:#24292f"');
		expect(dark).toContain('<img src="/github.svg" alt=""/>');
		expect(render(SignIn, { props: { provider: 'y', providerStyle: { brandColor: '#fc0' } } }).body).toContain('style="--kg-b:#fc0"');
		// the contrast maths the stylesheet does (checked in Chromium by e2e/ui-components.spec.ts) agree with the WCAG ones
		for (const [color, text] of [['#24292f', '#fff'], ['#ffcc00', '#000'], ['#0f766e', '#fff']]) {
			expect(rgbContrast(parseHexColor(color)!, parseHexColor(text)!)).toBeGreaterThanOrEqual(4.5);
		}
	});

	test('a brand colour that is not a hex colour never reaches the style attribute', () => {
		for (const brandColor of ['red;}body{display:none', 'url(javascript:alert(1))', 'expression(alert(1))']) {
			const { body } = render(SignIn, { props: { provider: 'x', providerStyle: { brandColor } } });
			expect(body).not.toContain('style=');
		}
	});

	test('a submitButton snippet is the content of the form\'s own button, also from a Svelte 4 style parent', () => {
		const { body } = render(SignIn, { props: { provider: 'github', submitButton: content('Go') } });
		expect(buttons(body)).toEqual([{ attributes: 'type="submit" class="kg-button kg-provider"', content: '<span class="mine">Go</span>' }]);
		expect(body).not.toContain('Sign in with github');
		const legacy = render(LegacyParent, { props: { label: 'Continue with GitHub' } }).body;
		expect(buttons(legacy)).toEqual([{ attributes: 'type="submit" class="kg-button kg-provider"', content: '<span class="legacy">Continue with GitHub</span>' }]);
		expect(legacy).not.toContain('Sign in with github');
	});

	test('texts come from the message table: a messages prop, or a layout\'s setMessages', () => {
		const french = render(SignIn, { props: { provider: 'idp', providerName: 'Démo', messages: resolveMessages('fr') } }).body;
		expect(french).toContain('Se connecter avec Démo');
		const viaContext = withoutMarkers(render(WithMessages, { props: { table: resolveMessages('fr') } }).body);
		expect(viaContext).toContain('Se connecter avec Démo');
		expect(viaContext).toContain('role="alert">La connexion a échoué.');
		expect(viaContext).toContain('>Se déconnecter</button>');
		const override = render(SignIn, { props: { error: 'CredentialsSignin', messages: { 'signin.error.CredentialsSignin': 'Nope.' } } }).body;
		expect(override).toContain('role="alert">Nope.</p>');
	});
});

describe('SignOut', () => {
	test('is a POST form to the sign-out action; without redirectTo its callbackUrl is not sent', () => {
		const { body } = render(SignOut, {});
		expect(body).toMatch(/<form method="POST" action="\/signout"/);
		expect(inputs(body)).toEqual([{ type: 'hidden', name: 'callbackUrl', disabled: '' }]);
		expect(buttons(body)).toEqual([{ attributes: 'type="submit" class="kg-button"', content: 'Sign out' }]);
	});

	test('signOutPage, redirectTo, submitButton and French texts', () => {
		const { body } = render(SignOut, { props: { signOutPage: 'logout', options: { redirectTo: '/bye' } } });
		expect(body).toContain('action="/logout"');
		expect(inputs(body)).toEqual([{ type: 'hidden', name: 'callbackUrl', value: '/bye' }]);
		expect(buttons(render(SignOut, { props: { submitButton: content('Leave') } }).body)).toEqual([
			{ attributes: 'type="submit" class="kg-button"', content: '<span class="mine">Leave</span>' }
		]);
		expect(buttons(render(SignOut, { props: { messages: resolveMessages('fr') } }).body)[0].content).toBe('Se déconnecter');
	});
});

describe('passkey components', () => {
	test('PasskeySignIn renders a disabled button (until hydrated) and a noscript note', () => {
		const { body } = render(PasskeySignIn, { props: { withEmail: true } });
		expect(body).toMatch(/<button type="submit" class="kg-button kg-provider" disabled="">Sign in with a passkey<\/button>/);
		expect(body).toContain('<span>Email (to create a passkey)</span>');
		expect(body).toContain('<noscript>');
	});

	test('PasskeyRegister lists passkeys from the server load, labels each remove button, in French too', () => {
		const passkeys = [{ credentialID: 'abcdefghijkl', credentialDeviceType: 'multiDevice', credentialBackedUp: true, transports: ['internal'] }];
		const english = render(PasskeyRegister, { props: { passkeys } }).body;
		expect(english).toContain('aria-label="Remove: Passkey …ghijkl"');
		expect(english).toContain('Synced across devices');
		const french = render(PasskeyRegister, { props: { passkeys, messages: resolveMessages('fr') } }).body;
		expect(french).toContain('aria-label="Supprimer: Clé d’accès …ghijkl"');
		expect(render(PasskeyRegister, { props: { passkeys: null } }).body).toContain('Sign in to manage your passkeys.');
	});
});

describe('one message table', () => {
	test('the components\' default texts are the table\'s English texts, and French translates them all', () => {
		for (const [id, value] of Object.entries({ ...enForms, ...enPasskey })) {
			expect(messages.en[id], id).toBe(value);
			expect(messages.fr[id], id).toBeTruthy();
			expect(messages.fr[id], id).not.toBe(value);
		}
	});

	test('French keeps every placeholder of the English text', () => {
		for (const [id, value] of Object.entries(messages.en)) {
			const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
			expect(placeholders(messages.fr[id]), id).toEqual(placeholders(value));
		}
	});
});

// Tests of the page message table: complete translations, locale choice, overrides, placeholder
// formatting and the fallbacks the pages rely on for error types.

import { describe, expect, test } from 'vitest';
import {
	errorMessageIds,
	format,
	localeOf,
	messages,
	resolveMessages,
	signInErrorId,
	text
} from './messages.js';

const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message tables', () => {
	const english = Object.keys(messages.en);

	test.each(Object.keys(messages) as (keyof typeof messages)[])('%s has every English key, none empty', (locale) => {
		const table = messages[locale];
		expect(english.filter((id) => !Object.hasOwn(table, id))).toEqual([]);
		expect(Object.keys(table).filter((id) => !Object.hasOwn(messages.en, id))).toEqual([]);
		for (const id of english) expect(table[id].trim(), id).not.toBe('');
	});

	test('French keeps the placeholders of each English text', () => {
		for (const id of english) expect(placeholders(messages.fr[id]), id).toEqual(placeholders(messages.en[id]));
	});

	test('French is translated, not copied', () => {
		const copied = english.filter((id) => messages.fr[id] === messages.en[id]);
		expect(copied).toEqual([]);
	});

	test('has the texts the pages and the engine rely on', () => {
		const required = [
			'signin.title',
			'signin.with',
			'signin.or',
			'signin.email.label',
			'signin.passkey.noscript',
			'signout.title',
			'signout.confirm',
			'signout.button',
			'verify.title',
			'verify.body',
			'link.signin',
			'link.home',
			...[
				'OAuthSignin',
				'OAuthCallbackError',
				'OAuthAccountNotLinked',
				'EmailSignin',
				'CredentialsSignin',
				'MissingCSRF',
				'SessionRequired',
				'Default'
			].map((type) => `signin.error.${type}`),
			...[
				'Configuration',
				'AccessDenied',
				'Verification',
				'UntrustedHost',
				'MissingAdapterMethod',
				'MissingCSRF',
				'InvalidProvider',
				'UnknownAction',
				'Default'
			].flatMap((type) => [`error.${type}.title`, `error.${type}.body`])
		];
		expect(required.filter((id) => !Object.hasOwn(messages.en, id))).toEqual([]);
	});

	test('English wording of the main texts', () => {
		expect(messages.en['signin.with']).toBe('Sign in with {provider}');
		expect(messages.en['signin.error.CredentialsSignin']).toBe(
			'Sign in failed. Check the details you provided are correct.'
		);
		expect(messages.en['signin.error.OAuthAccountNotLinked']).toBe(
			'To confirm your identity, sign in with the same account you used originally.'
		);
		expect(messages.en['error.Configuration.title']).toBe('There is a problem with the server configuration');
		expect(messages.en['error.Configuration.body']).toBe('Check the server logs for more information.');
		expect(messages.en['error.AccessDenied.title']).toBe('Access denied');
		expect(messages.en['error.Default.title']).toBe('Error');
		expect(messages.en['error.Default.body']).toBe('Something went wrong.');
		expect(messages.en['verify.title']).toBe('Check your email');
		expect(messages.en['signout.confirm']).toBe('Are you sure you want to sign out?');
	});
});

describe('resolveMessages and localeOf', () => {
	test('picks French for any French tag, English otherwise', () => {
		expect(localeOf('fr')).toBe('fr');
		expect(localeOf('fr-CA')).toBe('fr');
		expect(localeOf('FR_be')).toBe('fr');
		expect(localeOf(' fr ')).toBe('fr');
		for (const tag of [undefined, '', 'en-GB', 'de', 'zz', '__proto__', 'constructor', 'toString']) {
			expect(localeOf(tag)).toBe('en');
		}
	});

	test('returns the chosen table, English for unknown locales', () => {
		expect(resolveMessages('fr')['signout.button']).toBe(messages.fr['signout.button']);
		expect(resolveMessages('de')).toEqual(messages.en);
		expect(resolveMessages()).toEqual(messages.en);
	});

	test('overrides win, other keys stay', () => {
		const table = resolveMessages('fr', { 'signin.title': 'Bienvenue', 'custom.id': 'Extra' });
		expect(table['signin.title']).toBe('Bienvenue');
		expect(table['custom.id']).toBe('Extra');
		expect(table['signin.or']).toBe(messages.fr['signin.or']);
	});

	test('returns a fresh object: changing it leaves the built-in tables alone', () => {
		const table = resolveMessages('en');
		table['signin.title'] = 'changed';
		expect(messages.en['signin.title']).not.toBe('changed');
	});
});

describe('format and text', () => {
	test('fills placeholders, repeated ones too', () => {
		expect(format('Sign in with {provider}', { provider: 'GitHub' })).toBe('Sign in with GitHub');
		expect(format('{a} and {a}', { a: 'x' })).toBe('x and x');
	});

	test('leaves unknown placeholders as written', () => {
		expect(format('Hello {name}', {})).toBe('Hello {name}');
		expect(format('Hello {name}')).toBe('Hello {name}');
		expect(format('{toString}', {})).toBe('{toString}');
	});

	test('inserts values literally (no replacement patterns, no nested placeholders)', () => {
		expect(format('{p}', { p: '$& $1 $$' })).toBe('$& $1 $$');
		expect(format('{p} {q}', { p: '{q}', q: 'Q' })).toBe('{q} Q');
	});

	test('text falls back to English, then to the id', () => {
		expect(text({}, 'signin.or')).toBe(messages.en['signin.or']);
		expect(text({}, 'no.such.id')).toBe('no.such.id');
		expect(text(messages.fr, 'signin.with', { provider: 'GitHub' })).toBe('Se connecter avec GitHub');
	});
});

describe('error type lookups', () => {
	test('the error page uses the type’s own texts, or Default', () => {
		expect(errorMessageIds(messages.en, 'AccessDenied')).toEqual({
			title: 'error.AccessDenied.title',
			body: 'error.AccessDenied.body'
		});
		for (const type of ['Nope', '', '__proto__', 'constructor']) {
			expect(errorMessageIds(messages.en, type)).toEqual({
				title: 'error.Default.title',
				body: 'error.Default.body'
			});
		}
	});

	test('the sign-in alert uses the type’s own sentence, or Default', () => {
		expect(signInErrorId(messages.en, 'CredentialsSignin')).toBe('signin.error.CredentialsSignin');
		expect(signInErrorId(messages.en, 'Nope')).toBe('signin.error.Default');
		expect(signInErrorId(messages.en, 'constructor')).toBe('signin.error.Default');
	});

	test('a code without an error-page text of its own shows the failure table’s text', () => {
		expect(errorMessageIds(messages.en, 'AdapterError')).toEqual({ title: 'error.Configuration.title', body: 'error.Configuration.body' });
		expect(errorMessageIds(messages.en, 'OAuthSignin')).toEqual({ title: 'error.Default.title', body: 'error.Default.body' });
		// an override may give any code a text of its own
		expect(errorMessageIds({ ...messages.en, 'error.AdapterError.title': 'Database down' }, 'AdapterError').title).toBe('error.AdapterError.title');
	});
});

// The built-in pages: every page and provider type renders accessible forms, hostile values stay
// escaped, themes are sanitised, and the message tables are complete.

import { describe, expect, test } from 'vitest';
import { contrastRatio, contrastText, sanitizeColor } from './colors.js';
import { messages, resolveMessages } from './messages.js';
import { renderPage } from './render.js';
import { defaultPalettes, safeImageUrl, themeStyles } from './theme.js';
import type { PageProvider } from './types.js';

const common = { theme: {}, messages: resolveMessages('en'), lang: 'en' };
const XSS = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';

const providers: PageProvider[] = [
	{ id: 'idp', name: 'Demo IdP', type: 'oauth', style: { brandColor: '#0f766e' }, action: '/auth/signin/idp' },
	{ id: 'email', name: 'Email', type: 'email', action: '/auth/signin/email' },
	{
		id: 'credentials',
		name: 'Password',
		type: 'credentials',
		credentials: { username: { label: 'Username' }, password: { type: 'password' } },
		action: '/auth/callback/credentials'
	}
];

/** `for` attributes of labels, and ids of inputs. */
function labelPairs(html: string) {
	const labels = [...html.matchAll(/<label[^>]*\bfor="([^"]+)"/g)].map((m) => m[1]);
	const inputs = [...html.matchAll(/<input[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
	return { labels, inputs };
}

describe('sign-in page', () => {
	const html = renderPage('signin', { ...common, providers, csrfToken: 'tok', callbackUrl: 'http://localhost/after' });

	test('is a complete document with one h1 and a main landmark', () => {
		expect(html.startsWith('<!doctype html>')).toBe(true);
		expect(html).toContain('<html lang="en">');
		expect(html.match(/<h1/g)).toHaveLength(1);
		expect(html).toMatch(/<main/);
		expect(html).toMatch(/<title>Sign in<\/title>/);
	});

	test('has one form per provider posting to its action with the CSRF token and callback URL', () => {
		for (const provider of providers) expect(html).toContain(`action="${provider.action}"`);
		expect(html.match(/name="csrfToken" value="tok"/g)).toHaveLength(3);
		expect(html.match(/name="callbackUrl" value="http:\/\/localhost\/after"/g)).toHaveLength(3);
		expect(html).toContain('Sign in with Demo IdP');
	});

	test('renders email and credentials fields with labels tied to unique inputs', () => {
		expect(html).toMatch(/<input[^>]*type="email"[^>]*>/);
		expect(html).toMatch(/<input[^>]*name="password"[^>]*type="password"|<input[^>]*type="password"[^>]*name="password"/);
		const { labels, inputs } = labelPairs(html);
		expect(inputs.length).toBeGreaterThanOrEqual(3);
		expect(new Set(inputs).size).toBe(inputs.length);
		for (const id of inputs) expect(labels).toContain(id);
	});

	test('shows an error type as an alert with a readable sentence', () => {
		const withError = renderPage('signin', { ...common, providers, csrfToken: 't', callbackUrl: '/', error: 'CredentialsSignin' });
		expect(withError).toMatch(/role="alert"[^>]*>[\s\S]*Sign in failed/);
	});

	test('escapes hostile provider names, callback URLs, emails and error strings', () => {
		const hostile = renderPage('signin', {
			...common,
			providers: [{ ...providers[0], name: XSS }, { ...providers[1] }],
			csrfToken: XSS,
			callbackUrl: XSS,
			email: XSS,
			error: XSS
		});
		expect(hostile).not.toContain('<script>alert(1)</script>');
		expect(hostile).not.toMatch(/<img src=x/);
		expect(hostile).toContain('&lt;script>');
	});
});

describe('other pages', () => {
	test('sign-out asks for confirmation and posts with CSRF', () => {
		const html = renderPage('signout', { ...common, csrfToken: 'tok', callbackUrl: '/', action: '/auth/signout' });
		expect(html).toContain('action="/auth/signout"');
		expect(html).toContain('name="csrfToken" value="tok"');
		expect(html).toContain('Are you sure you want to sign out?');
	});

	test.each(['Configuration', 'AccessDenied', 'Verification', 'Default', 'UntrustedHost', 'MissingAdapterMethod'])(
		'error page for %s has a heading and a way home',
		(error) => {
			const html = renderPage('error', { ...common, error, signInUrl: '/auth/signin', homeUrl: 'http://localhost/' });
			expect(html).toMatch(/<h1[^>]*>[^<]+<\/h1>/);
			expect(html).toContain('href="http://localhost/"');
		}
	);

	test('verify-request says to check the email', () => {
		expect(renderPage('verify-request', { ...common, homeUrl: '/' })).toContain('Check your email');
	});

	test('French texts are used with locale fr', () => {
		const html = renderPage('signout', { ...common, messages: resolveMessages('fr'), lang: 'fr', csrfToken: 't', callbackUrl: '/', action: '/x' });
		expect(html).toContain('<html lang="fr">');
		expect(html).not.toContain('Are you sure you want to sign out?');
	});
});

describe('messages', () => {
	test('French has every English key, and no empty text', () => {
		for (const key of Object.keys(messages.en)) expect(messages.fr[key], key).toBeTruthy();
	});

	test('overrides win and unknown locales fall back to English', () => {
		expect(resolveMessages('xx')['signin.title']).toBe(messages.en['signin.title']);
		expect(resolveMessages('en', { 'signin.title': 'Log in' })['signin.title']).toBe('Log in');
	});
});

describe('theme', () => {
	test('only plain colours reach the CSS', () => {
		expect(sanitizeColor('#4f46e5')).toBe('#4f46e5');
		expect(sanitizeColor('red;}body{display:none')).toBeUndefined();
		expect(sanitizeColor('url(javascript:alert(1))')).toBeUndefined();
		const css = themeStyles({ brandColor: 'red;}*{display:none}', buttonText: 'expression(alert(1))' });
		expect(css).not.toContain('display:none');
		expect(css).not.toContain('expression');
	});

	test('a logo with a script URL is dropped', () => {
		expect(safeImageUrl('javascript:alert(1)')).toBeUndefined();
		expect(safeImageUrl(' java\tscript:alert(1)')).toBeUndefined();
		expect(safeImageUrl('https://example.com/logo.png')).toBe('https://example.com/logo.png');
		const html = renderPage('signout', { ...common, theme: { logo: 'javascript:alert(1)' }, csrfToken: 't', callbackUrl: '/', action: '/x' });
		expect(html).not.toContain('javascript:');
	});

	test('dark, light and auto schemes', () => {
		expect(themeStyles({ colorScheme: 'auto' })).toContain('prefers-color-scheme');
		expect(themeStyles({ colorScheme: 'dark' })).not.toContain('prefers-color-scheme');
	});

	test('button text is chosen for contrast, and the default palettes meet WCAG AA', () => {
		expect(contrastText('#ffff00')).toBe('#000');
		expect(contrastText('#1e1b4b')).toBe('#fff');
		for (const palette of Object.values(defaultPalettes)) {
			expect(contrastRatio(palette.text, palette.card)).toBeGreaterThanOrEqual(4.5);
			expect(contrastRatio(palette.muted, palette.card)).toBeGreaterThanOrEqual(4.5);
		}
	});
});

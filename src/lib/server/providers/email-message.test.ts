// The sign-in email: subject, plain text and HTML made from the theme and the message tables; only
// the link is secret, colours are sanitised, and the text says when the link expires.

import { describe, expect, test } from 'vitest';
import { describeDuration } from '../pages/duration.js';
import { renderVerificationEmail } from './email-message.js';
import { resolveMessages } from '../pages/messages.js';

const url = 'https://app.example.com/auth/callback/email?token=0123abcd&email=ada%40example.com&callbackUrl=https%3A%2F%2Fapp.example.com%2F';
const base = { url, expires: new Date(Date.now() + 86400_000), theme: {}, provider: { id: 'email', name: 'Email', type: 'email' as const, maxAge: 86400, sendVerificationRequest: () => {} } };

describe('renderVerificationEmail', () => {
	test('subject and plain text name the host, carry the link once and say when it expires', () => {
		const mail = renderVerificationEmail(base);
		expect(mail.subject).toBe('Sign in to app.example.com');
		expect(mail.text).toContain('Open this link to sign in to app.example.com:');
		expect(mail.text.split(url)).toHaveLength(2);
		expect(mail.text).toContain('The link expires in 24 hours and works only once.');
		expect(mail.text).toContain('you can ignore this email');
	});

	test('the HTML is a document with the link as a button and as text, and no other copy of the token', () => {
		const { html } = renderVerificationEmail(base);
		expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
		const escaped = url.replaceAll('&', '&amp;');
		expect(html.match(new RegExp(`href="${escaped.replace(/[.?*+^$()|[\]\\]/g, '\\$&')}"`, 'g'))).toHaveLength(2);
		expect(html.split('0123abcd')).toHaveLength(4); // two hrefs and the visible link text
		expect(html).toContain('>Sign in</a>');
		expect(html).not.toContain('<!--');
	});

	test('the theme colours the button; unsafe colours are ignored', () => {
		expect(renderVerificationEmail({ ...base, theme: { brandColor: '#0f766e', buttonText: '#fefefe' } }).html).toMatch(
			/background-color:#0f766e[^>]*>\s*<a[^>]*color:#fefefe/
		);
		expect(renderVerificationEmail({ ...base, theme: { brandColor: '#0f766e' } }).html).toContain('bgcolor="#0f766e"');
		// no buttonText: a readable text colour is chosen for the brand
		expect(renderVerificationEmail({ ...base, theme: { brandColor: '#ffff00' } }).html).toMatch(/color:#000;text-decoration:none/);
		const hostile = renderVerificationEmail({ ...base, theme: { brandColor: 'red;background:url(https://evil.example/x)' } }).html;
		expect(hostile).not.toContain('evil.example');
	});

	test('a logo appears only as an absolute URL', () => {
		expect(renderVerificationEmail({ ...base, theme: { logo: 'https://cdn.example.com/logo.png' } }).html).toContain(
			'src="https://cdn.example.com/logo.png"'
		);
		expect(renderVerificationEmail({ ...base, theme: { logo: '/logo.png' } }).html).not.toContain('<img');
		expect(renderVerificationEmail({ ...base, theme: { logo: 'javascript:alert(1)' } }).html).not.toContain('javascript:');
	});

	test('French texts and overrides from the config', () => {
		const fr = renderVerificationEmail({ ...base, locale: 'fr', messages: resolveMessages('fr', { 'email.button': 'Entrer' }) });
		expect(fr.subject).toBe('Connexion à app.example.com');
		expect(fr.text).toMatch(/expire dans 24\sheures/); // Intl puts a no-break space in French
		expect(fr.html).toContain('<html lang="fr">');
		expect(fr.html).toContain('>Entrer</a>');
	});

	test('without a provider maxAge the lifetime comes from expires', () => {
		const { text } = renderVerificationEmail({ url, theme: {}, expires: new Date(Date.now() + 15 * 60_000 + 500) });
		expect(text).toContain('15 minutes');
	});
});

describe('describeDuration', () => {
	test.each([
		[30, 'en', '30 seconds'],
		[60, 'en', '1 minute'],
		[600, 'en', '10 minutes'],
		[5400, 'en', '90 minutes'],
		[3600, 'en', '1 hour'],
		[86400, 'en', '24 hours'],
		[7 * 86400, 'en', '7 days'],
		[600, 'not a locale!', '10 minutes']
	])('%i s in %s → %s', (seconds, locale, expected) => {
		expect(describeDuration(seconds, locale)).toBe(expected);
	});

	test('French days and hours', () => {
		expect(describeDuration(86400, 'fr')).toMatch(/^24\sheures$/);
		expect(describeDuration(3 * 86400, 'fr-CA')).toMatch(/^3\sjours$/);
	});
});

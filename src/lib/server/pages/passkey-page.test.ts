// The passkey button of the built-in sign-in page: present only with a passkey provider, disabled
// until its script runs, and the only script the page's Content-Security-Policy allows.

import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { resolveMessages } from './messages.js';
import { pageSecurityHeaders, renderPage } from './render.js';
import type { PageProvider, SignInPageProps } from './types.js';

const passkey: PageProvider = {
	id: 'passkey',
	name: 'Passkey',
	type: 'webauthn',
	action: '/auth/callback/passkey',
	optionsUrl: '/auth/webauthn-options/passkey'
};
const credentials: PageProvider = { id: 'credentials', name: 'Password', type: 'credentials', credentials: {}, action: '/auth/callback/credentials' };

function props(providers: PageProvider[], locale = 'en'): SignInPageProps {
	return { theme: {}, messages: resolveMessages(locale), lang: locale, providers, csrfToken: 'tok', callbackUrl: '/after' };
}

/** Inline scripts of a page with the CSP source that allows each. */
function inlineScripts(html: string): string[] {
	return [...html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map(
		(m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`
	);
}

describe('built-in sign-in page with a passkey provider', () => {
	const html = renderPage('signin', props([credentials, passkey]));

	test('shows a disabled passkey button wired to the options and callback routes, with a no-script note', () => {
		expect(html).toMatch(/<form[^>]*action="\/auth\/callback\/passkey"[^>]*data-kitgate-passkey="passkey"/);
		expect(html).toContain('data-options-url="/auth/webauthn-options/passkey"');
		expect(html).toMatch(/<button[^>]*type="button"[^>]*disabled[^>]*>[\s\S]*?Sign in with Passkey/);
		expect(html).toContain('<noscript><p class="kg-hint">Passkeys need JavaScript.');
		expect(html).toContain('data-unsupported="This browser cannot use passkeys here.');
	});

	test('ships exactly one inline script, and the CSP allows exactly that one by hash', () => {
		const scripts = inlineScripts(html);
		expect(scripts).toHaveLength(1);
		const csp = pageSecurityHeaders('signin', props([credentials, passkey]))['content-security-policy'];
		expect(csp).toBe(`script-src ${scripts[0]}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`);
	});

	test('speaks French too', () => {
		const french = renderPage('signin', props([passkey], 'fr'));
		expect(french).toContain('Se connecter avec Passkey');
		expect(french).toContain('Les clés d’accès nécessitent JavaScript.');
	});
});

describe('pages without a passkey provider', () => {
	test('ship no script and forbid every script', () => {
		expect(inlineScripts(renderPage('signin', props([credentials])))).toEqual([]);
		expect(pageSecurityHeaders('signin', props([credentials]))['content-security-policy']).toMatch(/^script-src 'none';/);
		const signOut = { theme: {}, messages: resolveMessages('en'), lang: 'en', csrfToken: 't', callbackUrl: '/', action: '/auth/signout' };
		expect(inlineScripts(renderPage('signout', signOut))).toEqual([]);
		expect(pageSecurityHeaders('signout', signOut)['x-frame-options']).toBe('DENY');
	});
});

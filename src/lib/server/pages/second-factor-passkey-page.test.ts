// The "Use a passkey" button of the built-in second-step page: shown only when the engine offers
// the passkey step, disabled until its script runs, with a no-script note, and its script the only
// one the page's Content-Security-Policy allows.

import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { resolveMessages } from './messages.js';
import { pageSecurityHeaders, renderPage } from './render.js';
import { SECOND_FACTOR_PASSKEY_SCRIPT } from './second-factor-passkey-script.js';
import type { SecondFactorPageProps } from './types.js';

function props(passkey: boolean, locale = 'en'): SecondFactorPageProps {
	return {
		theme: {},
		messages: resolveMessages(locale),
		lang: locale,
		action: '/auth/second-factor',
		csrfToken: 'tok',
		signInUrl: '/auth/signin',
		...(passkey ? { passkey: { url: '/auth/second-factor/passkey' } } : {})
	};
}

/** Inline scripts of a page with the CSP source that allows each. */
function inlineScripts(html: string): string[] {
	return [...html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
}

describe('the second-step page with the passkey step offered', () => {
	const html = renderPage('second-factor', props(true));

	test('shows the code form and a disabled "Use a passkey" button wired to the passkey step, with a no-script note', () => {
		expect(html).toContain('name="code"');
		expect(html).toMatch(/<form[^>]*action="\/auth\/second-factor\/passkey"[^>]*data-kitgate-second-factor-passkey/);
		expect(html).toMatch(/<button[^>]*type="button"[^>]*disabled[^>]*>Use a passkey<\/button>/);
		expect(html).toContain('<noscript><p class="kg-hint">Passkeys need JavaScript.');
		expect(html).toContain('data-failed="That passkey did not work.');
	});

	test('ships exactly its one inline script, and the CSP allows exactly that one by hash', () => {
		const scripts = inlineScripts(html);
		expect(scripts).toHaveLength(1);
		expect(html).toContain(SECOND_FACTOR_PASSKEY_SCRIPT);
		const csp = pageSecurityHeaders('second-factor', props(true))['content-security-policy'];
		expect(csp).toBe(`script-src ${scripts[0]}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`);
	});

	test('speaks French too', () => {
		const french = renderPage('second-factor', props(true, 'fr'));
		expect(french).toContain('Utiliser une clé d’accès');
		expect(french).not.toContain('Use a passkey');
	});
});

describe('the second-step page without it', () => {
	test('shows no passkey button, ships no script and forbids every script', () => {
		const html = renderPage('second-factor', props(false));
		expect(html).not.toContain('data-kitgate-second-factor-passkey');
		expect(inlineScripts(html)).toEqual([]);
		expect(pageSecurityHeaders('second-factor', props(false))['content-security-policy']).toMatch(/^script-src 'none';/);
	});
});

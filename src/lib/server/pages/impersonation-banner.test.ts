// The impersonation banner of the built-in pages: on every page of an impersonated session, the
// line "Signed in as <user> by <admin>" and a Stop button posting to stop-impersonating with the
// CSRF token; escaped names; French texts; absent otherwise.

import { describe, expect, test } from 'vitest';
import { resolveMessages } from './messages.js';
import { renderPage } from './render.js';

const impersonation = { user: 'Ada', admin: 'Grace <script>x</script>', action: '/auth/admin/stop-impersonating', csrfToken: 'tok123' };
const common = { theme: {}, messages: resolveMessages('en'), lang: 'en' };

describe('the impersonation banner', () => {
	test.each([
		['error', { error: 'ImpersonationForbidden', signInUrl: '/auth/signin', homeUrl: 'http://localhost/' }],
		['signout', { csrfToken: 'c', callbackUrl: '/', action: '/auth/signout' }],
		['verify-request', { signInUrl: '/auth/signin', homeUrl: 'http://localhost/' }]
	] as const)('on the %s page: the line and a Stop form with the CSRF token', (kind, props) => {
		const html = renderPage(kind, { ...common, ...props, impersonation } as never);
		expect(html).toContain('Signed in as Ada by Grace &lt;script>x&lt;/script>');
		expect(html).not.toContain('<script>x');
		expect(html).toMatch(/<form method="post" action="\/auth\/admin\/stop-impersonating">\s*<input type="hidden" name="csrfToken" value="tok123"/);
		expect(html).toContain('Stop impersonating');
	});

	test('in French', () => {
		const html = renderPage('signout', { ...common, messages: resolveMessages('fr'), lang: 'fr', csrfToken: 'c', callbackUrl: '/', action: '/auth/signout', impersonation });
		expect(html).toContain('Connecté en tant que Ada par Grace');
		expect(html).toContain('Arrêter l’usurpation');
	});

	test('no banner on a page of a session that is not impersonated', () => {
		const html = renderPage('signout', { ...common, csrfToken: 'c', callbackUrl: '/', action: '/auth/signout' });
		expect(html).not.toContain('stop-impersonating');
		expect(html).not.toContain('Signed in as');
	});
});

// The built-in account page: `GET /auth/account` answers a browser the page (AccountSettings in the
// pages' shell, the same render on every integration) and scripts the JSON overview; no session
// goes to sign in and back; `pages.account` replaces the page; the page's own forms work end to
// end and come back to it with the notice; hostile values stay text; the CSP allows only its script.
// Which requests get the page (prefersAccountPage alone): account/account-page.test.ts.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import type { AccountOverview } from '../../../index.js';
import { renderPage } from '../../pages/render.js';
import { resolveMessages } from '../../pages/messages.js';
import { PASSKEY_REGISTER_SCRIPT_SOURCE } from '../../pages/passkey-script.js';
import { accountWorld, ORIGIN } from './account-fixture.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const STRATEGIES = ['jwt', 'database'] as const;

/** The forms of a page: action and fields (hidden and typed, with their values). */
function pageForms(html: string): { action: string; fields: Record<string, string> }[] {
	return [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map(([, action, inner]) => ({
		action: action.replaceAll('&amp;', '&'),
		fields: Object.fromEntries([...inner.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map(([, name, value]) => [name, value]))
	}));
}

describe.each(STRATEGIES)('%s sessions', (strategy) => {
	test('a browser gets the page: the user, every section, forms with this browser’s CSRF token coming back to the page', async () => {
		const w = accountWorld(MemoryAdapter(), strategy);
		const ada = await w.signedIn();
		const credentialID = await ada.addPasskey();
		const response = await ada.request('/auth/account', { headers: { accept: BROWSER } });
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect(response.headers.get('cache-control')).toBe('no-store');
		expect(response.headers.get('vary')).toBe('Accept, Cookie');
		expect(response.headers.get('content-security-policy')).toContain(`script-src ${PASSKEY_REGISTER_SCRIPT_SOURCE};`);
		const html = await response.text();
		expect(html).toMatch(/<title>Your account<\/title>/);
		expect(html.match(/<h1/g)).toHaveLength(1);
		expect(html).toContain('Signed in as ada@example.com');
		for (const title of ['Connected accounts', 'Passkeys', 'Where you are signed in', 'Email address', 'Delete your account']) expect(html).toContain(`>${title}</h2>`);
		const csrfToken = await ada.client.csrfToken();
		const forms = pageForms(html);
		expect(forms.length).toBeGreaterThan(4);
		for (const form of forms) {
			expect(form.action.startsWith(`${ORIGIN}/auth/account/`) || form.action.startsWith('/auth/account/')).toBe(true);
			expect(form.fields.csrfToken).toBe(csrfToken);
			expect(form.fields.callbackUrl).toBe(`${ORIGIN}/auth/account`);
		}
		expect(html).toContain(`data-credential-id="${credentialID}"`);
		expect(html).toContain('<script type="module">');
	});

	test('the page’s rename form works and comes back to the page with the notice and the new name', async () => {
		const w = accountWorld(MemoryAdapter(), strategy);
		const ada = await w.signedIn();
		await ada.addPasskey();
		const page = await (await ada.request('/auth/account', { headers: { accept: BROWSER } })).text();
		const rename = pageForms(page).find((form) => form.action.endsWith('/account/rename-passkey'))!;
		const posted = await ada.request(rename.action, { form: { ...rename.fields, name: 'Phone' } });
		expect(posted.status).toBe(302);
		const back = posted.headers.get('location')!;
		expect(back).toBe(`${ORIGIN}/auth/account?account=passkey-renamed`);
		const after = await (await ada.request(back, { headers: { accept: BROWSER } })).text();
		expect(after).toMatch(/role="status">\s*Passkey renamed\.\s*</);
		expect(after).toMatch(/kitgate-passkey-name">Phone</);
		const refused = await (await ada.request('/auth/account?accountError=LastSignInMethod', { headers: { accept: BROWSER } })).text();
		expect(refused).toMatch(/role="alert">\s*This is your last way to sign in\./);
	});

	test('scripts keep the JSON overview, with where the routes are and the passkey provider', async () => {
		const w = accountWorld(MemoryAdapter(), strategy);
		const ada = await w.signedIn();
		for (const accept of ['*/*', 'application/json']) {
			const response = await ada.request('/auth/account', { headers: { accept } });
			expect(response.headers.get('content-type')).toContain('application/json');
			const overview = (await response.json()) as AccountOverview;
			expect(overview.basePath).toBe('/auth');
			expect(overview.passkeyProvider).toBe('passkey');
		}
	});

	test('without a session a browser goes to sign in and comes back; right after a deletion it sees the notice', async () => {
		const w = accountWorld(MemoryAdapter(), strategy);
		const visitor = w.browser();
		const response = await visitor.request('/auth/account', { headers: { accept: BROWSER } });
		expect(response.status).toBe(302);
		expect(response.headers.get('location')).toBe(`${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/auth/account`)}`);

		const ada = await w.signedIn();
		const page = await (await ada.request('/auth/account', { headers: { accept: BROWSER } })).text();
		const deletion = pageForms(page).find((form) => form.action.endsWith('/account/delete'))!;
		const deleted = await ada.request(deletion.action, { form: deletion.fields });
		expect(deleted.headers.get('location')).toBe(`${ORIGIN}/auth/account?account=account-deleted`);
		const notice = await ada.request(deleted.headers.get('location')!, { headers: { accept: BROWSER } });
		expect(notice.status).toBe(200);
		const html = await notice.text();
		expect(html).toMatch(/role="status">\s*Your account was deleted\.\s*</);
		expect(html).not.toContain('<form');
		expect(html).not.toContain('<script');
		expect(notice.headers.get('content-security-policy')).toContain("script-src 'none'");
	});
});

test('pages.account replaces the page: browsers go there with the result; JSON stays', async () => {
	const w = accountWorld(MemoryAdapter(), 'database', { pages: { account: '/settings' } });
	const ada = await w.signedIn();
	const response = await ada.request('/auth/account?account=unlinked&accountError=<x>', { headers: { accept: BROWSER } });
	expect(response.status).toBe(302);
	expect(response.headers.get('location')).toBe(`${ORIGIN}/settings?account=unlinked`);
	expect((await ada.request('/auth/account')).headers.get('content-type')).toContain('application/json');
});

test('account: false: a browser goes to the "page not found" error page, a script gets the JSON 404', async () => {
	const w = accountWorld(MemoryAdapter(), 'database', { account: false });
	const page = await w.browser().request('/auth/account', { headers: { accept: BROWSER } });
	expect(page.status).toBe(302);
	expect(page.headers.get('location')).toBe(`${ORIGIN}/auth/error?error=UnknownAction`);
	const json = await w.browser().request('/auth/account');
	expect(await json.json()).toEqual({ error: 'UnknownAction' });
});

test('the French page, and no script without a passkey provider', async () => {
	const w = accountWorld(MemoryAdapter(), 'database', { locale: 'fr' });
	const ada = await w.signedIn();
	const html = await (await ada.request('/auth/account', { headers: { accept: BROWSER } })).text();
	expect(html).toContain('<html lang="fr">');
	expect(html).toContain('<title>Votre compte</title>');
	expect(html).toContain('Où vous êtes connecté');

	const common = { theme: {}, messages: resolveMessages('en'), lang: 'en', callbackUrl: '/auth/account', homeUrl: '/', signOutUrl: '/auth/signout' };
	const overview = (await (await ada.request('/auth/account')).json()) as AccountOverview;
	const plain = renderPage('account', { ...common, overview: { ...overview, passkeyProvider: null } });
	expect(plain).not.toContain('<script');
	expect(plain).not.toContain('Add a passkey');
});

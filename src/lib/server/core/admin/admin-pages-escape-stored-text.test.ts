// Attacks on the built-in admin pages through text users and requests control, through `Auth()` on
// memory and SQLite: a user's name, address and picture, a ban reason and the audit trail holding
// markup or `javascript:` URLs, a search reflected in the page, notices naming object keys, and
// the pages' own headers (script policy, framing, caching).

import { describe, expect, test } from 'vitest';
import { memoryAndSqliteAdapters } from '../test/stored-adapters.js';
import { adminWorld } from '../test/admin-fixture.js';
import { expectUnframedScriptlessUncached } from '../test/built-in-pages.js';
import type { Adapter } from '../types.js';

const adapters = memoryAndSqliteAdapters('admin-pages-escape');

const SCRIPT = '<script>alert(1)</script>';
const BREAKOUT = '"><img src=x onerror=alert(1)>';

async function page(browser: { request(path: string, init?: { headers?: Record<string, string> }): Promise<Response> }, path: string) {
	const response = await browser.request(path, { headers: { accept: 'text/html' } });
	expect(response.status, path).toBe(200);
	return { html: await response.text(), headers: response.headers };
}

/** Markup an attacker planted, as it would appear unescaped. */
function expectNoPlantedMarkup(html: string) {
	expect(html).not.toContain('<script>alert');
	expect(html).not.toContain('<img src=x');
	// an attribute a planted quote would open: `<… onerror=` outside text
	expect(html).not.toMatch(/<[^>]*\sonerror=/i);
	expect(html).not.toMatch(/(?:href|src|action|formaction)\s*=\s*["']?\s*javascript:/i);
}

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	test('names, pictures, ban reasons and audit details with markup are shown as text', async () => {
		const world = adminWorld(makeAdapter() as Adapter, 'database');
		const admin = await world.signedInAdmin();
		const bob = await world.signedInUser('bob@example.com');
		// what a hostile identity provider's profile would leave: markup in the name, a script URL as picture
		await world.adapter.updateUser({ id: bob.user.id, name: `${SCRIPT}${BREAKOUT}`, image: 'javascript:alert(1)' });
		const banned = await admin.post('ban', { userId: bob.user.id, reason: `${SCRIPT} ${BREAKOUT}` });
		expect(banned.status).toBe(302);
		await world.adapter.createAuditEntry({ id: 'planted', at: new Date(world.clock.now), actorId: null, subjectId: bob.user.id, action: SCRIPT, detail: `{"note":"${BREAKOUT.replace(/"/g, '\\"')}"}` });

		// an account of a provider no longer configured: its stored id is shown as its name
		await world.adapter.linkAccount({ userId: bob.user.id, type: 'oauth', provider: SCRIPT, providerAccountId: BREAKOUT });
		const list = await page(admin, '/auth/admin');
		expectNoPlantedMarkup(list.html);
		expect(list.html).toContain('&lt;script>alert(1)&lt;/script>');
		const detail = await page(admin, `/auth/admin/user?id=${encodeURIComponent(bob.user.id)}`);
		expectNoPlantedMarkup(detail.html);
		expect(detail.html).toContain('&lt;img src=x onerror=alert(1)>');
		expect(detail.html).toContain('&lt;script>alert(1)&lt;/script>');
	});

	test('the search and the notices of the query are escaped or dropped, never a 500', async () => {
		const world = adminWorld(makeAdapter() as Adapter, 'jwt');
		const admin = await world.signedInAdmin();
		const searched = await page(admin, `/auth/admin?q=${encodeURIComponent(BREAKOUT)}`);
		expectNoPlantedMarkup(searched.html);
		for (const code of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', 'Default', SCRIPT]) {
			const shown = await page(admin, `/auth/admin?admin=${encodeURIComponent(code)}&adminError=${encodeURIComponent(code)}`);
			expect(shown.html, code).not.toContain('[native code]');
			expect(shown.html, code).not.toContain('function ');
			expectNoPlantedMarkup(shown.html);
		}
		const unicode = await admin.request(`/auth/admin?q=${encodeURIComponent('\ud83d\ude00%_\\\'";--')}`, { headers: { accept: 'application/json' } });
		expect(unicode.status).toBe(200);
		// a NUL byte is no text to search for (docs/admin.md): refused, not a match of everyone
		const nul = await admin.request(`/auth/admin?q=${encodeURIComponent('\u0000')}`, { headers: { accept: 'application/json' } });
		expect(nul.status).toBe(400);
		const huge = await admin.request(`/auth/admin?q=${'x'.repeat(10_000)}`, { headers: { accept: 'text/html' } });
		expect(huge.status).toBeLessThan(500);
	});

	test('users without address or name, and odd stored records, are listed and shown, never a 500', async () => {
		const world = adminWorld(makeAdapter() as Adapter, 'database');
		const admin = await world.signedInAdmin();
		const odd = [
			{ id: crypto.randomUUID(), email: '', name: null },
			{ id: crypto.randomUUID(), email: '', name: '' },
			{ id: crypto.randomUUID(), email: 'x@example.com', name: '\u202e nimda' },
			{ id: `${SCRIPT}`, email: 'id@example.com', name: null }
		];
		for (const user of odd) {
			await world.adapter.createUser({ ...user, emailVerified: null, image: null });
			await world.adapter.setUserAdmin({ userId: user.id, role: 'r'.repeat(64), bannedAt: new Date(world.clock.now), banReason: null, banExpires: new Date(world.clock.now - 1000) });
		}
		const list = await page(admin, '/auth/admin');
		expectNoPlantedMarkup(list.html);
		for (const user of odd) {
			const detail = await page(admin, `/auth/admin/user?id=${encodeURIComponent(user.id)}`);
			expectNoPlantedMarkup(detail.html);
			const json = await admin.request(`/auth/admin/user?id=${encodeURIComponent(user.id)}`, { headers: { accept: 'application/json' } });
			expect(((await json.json()) as { user: { status: string } }).user.status).toBe('active');
		}
	});

	test('the admin pages forbid framing and inline scripts, and no shared cache keeps them', async () => {
		const world = adminWorld(makeAdapter() as Adapter, 'database');
		const admin = await world.signedInAdmin();
		const bob = await world.signedInUser('bob@example.com');
		for (const path of ['/auth/admin', `/auth/admin/user?id=${bob.user.id}`]) {
			const { headers } = await page(admin, path);
			expectUnframedScriptlessUncached(headers, path);
		}
	});
});

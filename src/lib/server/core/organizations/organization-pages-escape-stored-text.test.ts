// Attacks on the built-in organization pages (list, settings, invitation) through text members
// control, through both integrations, on memory, SQLite and a real PostgreSQL: organization and
// team names with markup, a member's name and picture, a logo written straight into the database
// as a `javascript:` or `data:` URL (kitgate's routes refuse them; an app or an old row might not),
// notices naming object keys, a hostile token in the invitation page's query, and the pages' own
// headers (script policy, framing, caching). Always text, never markup or a script URL.

import { beforeAll, describe, expect, test } from 'vitest';
import type { Adapter, AdapterOrganization } from '../types.js';
import { sinkProvider } from '../test/email-fixtures.js';
import { Browser, INTEGRATIONS, type AppServer } from '../test/integrations.js';
import { address, attackConfig, attackWorld } from '../test/attacks/flows.js';
import { signedInByEmail, type SignedInPerson } from '../test/attacks/signed-in-person.js';
import { invitationLinkIn, post } from './test/invitation-fixture.js';
import { memorySqliteAndPostgresAdapters } from '../test/stored-adapters-with-postgres.js';
import { expectUnframedScriptlessUncached } from '../test/built-in-pages.js';

const adapters: [string, () => Required<Adapter>][] = memorySqliteAndPostgresAdapters('organization-pages-escape');
const world = attackWorld({ sink: true });

const SCRIPT = '<script>alert(1)</script>';
const BREAKOUT = '"><img src=x onerror=alert(1)>';

/** Markup an attacker planted, as it would appear unescaped, or a script URL in an attribute. */
function expectNoPlantedMarkup(html: string, where: string) {
	expect(html, where).not.toContain('<script>alert');
	expect(html, where).not.toContain('<img src=x');
	expect(html, where).not.toMatch(/<[^>]*\sonerror=/i);
	expect(html.match(/(?:href|src|action|formaction|srcset)\s*=\s*["']?\s*(?:javascript|data|vbscript):.{0,40}/gi) ?? [], where).toEqual([]);
	expect(html, where).not.toMatch(/(?:href|src|action|formaction)\s*=\s*["']?\s*\/\/evil/i);
}

type Person = SignedInPerson;

describe.each(INTEGRATIONS)('%s', (integration) => {
	describe.each(adapters)('%s adapter', (_adapterName, makeAdapter) => {
		const app = (): AppServer => world.apps[integration];
		let store: Required<Adapter>;
		let olga: Person, mia: Person;
		let org: AdapterOrganization;

		const signedIn = (name: string) => signedInByEmail(app(), world.sink, store, address(`${name}-${crypto.randomUUID().slice(0, 8)}`));

		async function page(person: Person | Browser, path: string, status = 200) {
			const browser = person instanceof Browser ? person : person.browser;
			const response = await browser.request(`${app().origin}${path}`, { headers: { accept: 'text/html' } });
			expect(response.status, path).toBe(status);
			expect(response.headers.get('content-type') ?? '', path).toMatch(/^text\/html/);
			return { html: await response.text(), headers: response.headers };
		}

		beforeAll(async () => {
			store = makeAdapter();
			app().use(attackConfig(store, 'jwt', { providers: [sinkProvider(world.sink)], organizations: {}, url: app().origin, rateLimit: false }));
			[olga, mia] = [await signedIn('olga'), await signedIn('mia')];
			const created = await post(app(), olga, 'create', { name: `${SCRIPT}${BREAKOUT}`, slug: `x-${crypto.randomUUID().slice(0, 8)}` });
			expect(created.status).toBe(200);
			org = (await store.listMemberships(olga.user.id))[0].organization;
			await store.createMember({ id: crypto.randomUUID(), organizationId: org.id, userId: mia.user.id, role: 'admin', createdAt: new Date() });
			await store.updateUser({ id: mia.user.id, name: `${BREAKOUT}${SCRIPT}`, image: 'javascript:alert(1)' });
			expect((await post(app(), olga, 'create-team', { organizationId: org.id, name: `${BREAKOUT} team` })).status).toBe(200);
		});

		test('organization, team and member names with markup are text on the list and settings pages', async () => {
			for (const path of ['/auth/organizations', `/auth/organizations/settings?id=${encodeURIComponent(org.id)}`]) {
				for (const person of [olga, mia]) {
					const { html } = await page(person, path);
					expectNoPlantedMarkup(html, path);
					expect(html, path).toContain('&lt;script>alert(1)&lt;/script>');
				}
			}
		});

		test('a logo stored as a javascript:, data: or //host URL is never put in a page', async () => {
			for (const logo of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'data:image/svg+xml,<svg onload=alert(1)>', '//evil.example/x.png', '/\\evil.example/x.png']) {
				await store.updateOrganization({ id: org.id, logo });
				for (const path of ['/auth/organizations', `/auth/organizations/settings?id=${encodeURIComponent(org.id)}`]) {
					const { html } = await page(olga, path);
					expectNoPlantedMarkup(html, `${path} with ${logo}`);
					expect(html, `${path} with ${logo}`).not.toMatch(/\ssrc=["']?\s*\/\\/);
				}
				// nor in the session an app renders (creating the organization made it the active one)
				const session = (await olga.browser.session(app().origin)) as { organization?: { id: string; logo: string | null } } | null;
				expect(session?.organization, logo).toMatchObject({ id: org.id, logo: null });
			}
			// an allowed logo is shown
			await store.updateOrganization({ id: org.id, logo: '/logos/acme.svg' });
			expect((await page(olga, '/auth/organizations')).html).toContain('src="/logos/acme.svg"');
			await store.updateOrganization({ id: org.id, logo: null });
		});

		test('notices naming object keys or markup, and a hostile invitation token, show no markup and never a 500', async () => {
			for (const code of ['constructor', '__proto__', 'toString', 'hasOwnProperty', SCRIPT]) {
				for (const path of [`/auth/organizations?organization=${encodeURIComponent(code)}&organizationError=${encodeURIComponent(code)}`, `/auth/organizations/settings?id=${encodeURIComponent(org.id)}&organization=${encodeURIComponent(code)}&organizationError=${encodeURIComponent(code)}`]) {
					const { html } = await page(olga, path);
					expect(html, path).not.toContain('[native code]');
					expect(html, path).not.toContain('function ');
					expectNoPlantedMarkup(html, path);
				}
			}
			for (const token of [SCRIPT, `${BREAKOUT}.x`, 'constructor', '__proto__.__proto__']) {
				const response = await mia.browser.request(`${app().origin}/auth/organizations/invitation?token=${encodeURIComponent(token)}`, { headers: { accept: 'text/html' } });
				// a 4xx page, or a safe redirect to the error page that does not carry the token along
				if (response.status === 302) {
					const location = new URL(response.headers.get('location')!, app().origin);
					expect(location.origin, token).toBe(app().origin);
					expect(location.href, token).not.toContain(encodeURIComponent(token));
					expect(location.searchParams.get('error'), token).toBe('InvitationInvalid');
				} else {
					expect(response.status, token).toBeGreaterThanOrEqual(400);
					expect(response.status, token).toBeLessThan(500);
				}
				const shown = await mia.browser.follow(response);
				expect(shown.status, token).toBeLessThan(500);
				expectNoPlantedMarkup(await shown.text(), token);
			}
		});

		test("an invitation page shows the organization's and the inviter's names with markup as text", async () => {
			const email = address(`guest-${crypto.randomUUID().slice(0, 8)}`);
			expect((await post(app(), mia, 'invite', { organizationId: org.id, email })).status).toBe(200);
			const link = invitationLinkIn(world.sink, email);
			const guest = new Browser();
			const response = await guest.request(link, { headers: { accept: 'text/html' } });
			expect(response.status).toBe(200);
			const html = await response.text();
			expectNoPlantedMarkup(html, 'invitation page');
			expect(html).toContain('&lt;script>alert(1)&lt;/script>');
		});

		test('the organization pages forbid framing and inline scripts, and no shared cache keeps them', async () => {
			for (const path of ['/auth/organizations', `/auth/organizations/settings?id=${encodeURIComponent(org.id)}`]) {
				const { headers } = await page(olga, path);
				expectUnframedScriptlessUncached(headers, path);
			}
		});
	});
});

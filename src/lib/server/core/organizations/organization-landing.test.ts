// Where creating and joining land, through both integrations and both session strategies: the
// organization a user creates, or joins from an invitation, becomes the session's active one (the
// next read carries it with the role), and a browser asking for the organization routes gets the
// built-in pages, the invitation page with its token kept from referrers and caches.

import { expect, test } from 'vitest';
import type { Adapter } from '../types.js';
import { sinkProvider } from '../test/email-fixtures.js';
import { Browser } from '../test/integrations.js';
import { address, attackConfig, attackWorld } from '../test/attacks/flows.js';
import { describeEachApp } from '../test/attacks/each-app.js';
import { signedInByEmail } from '../test/attacks/signed-in-person.js';
import { accept, invitationLinkIn, invite, organizationWith, post, type Person } from './test/invitation-fixture.js';

const world = attackWorld({ sink: true });
const HTML = { accept: 'text/html' };

describeEachApp(world, ({ app, strategy, makeAdapter }) => {
	let adapter: Required<Adapter>;

	function use() {
		adapter = makeAdapter();
		app().use(attackConfig(adapter, strategy, { providers: [sinkProvider(world.sink)], organizations: {} }));
	}

	const person = (name: string): Promise<Person> => signedInByEmail(app(), world.sink, adapter, address(name));

	const sessionOf = async (someone: Person) => (await (await someone.browser.request(`${app().origin}/auth/session`)).json()) as { organization?: unknown } | null;

	test('the organization a user creates is their active one on the next read, and the list page shows it', async () => {
		use();
		const owner = await person('creator');
		expect((await sessionOf(owner))?.organization).toBeUndefined();
		const created = (await (await post(app(), owner, 'create', { name: 'Acme Labs' })).json()) as { result: string; organizationId: string };
		expect(created.result).toBe('created');
		expect((await sessionOf(owner))?.organization).toMatchObject({ id: created.organizationId, name: 'Acme Labs', role: 'owner' });

		const page = await owner.browser.request(`${app().origin}/auth/organizations`, { headers: HTML });
		expect(page.status).toBe(200);
		expect(page.headers.get('content-type')).toMatch(/text\/html/);
		expect(page.headers.get('vary')).toMatch(/Cookie/);
		const html = await page.text();
		expect(html).toContain('Acme Labs');
		expect(html).toContain('action="/auth/organizations/set-active"');

		const settings = await owner.browser.request(`${app().origin}/auth/organizations/settings?id=${created.organizationId}`, { headers: HTML });
		expect(settings.status).toBe(200);
		expect(await settings.text()).toContain('action="/auth/organizations/invite"');
	});

	test('joining from an invitation makes that organization active, and the link opens the built-in invitation page', async () => {
		use();
		const owner = await person('owner');
		const bo = await person('joiner');
		const organization = await organizationWith(adapter, 'Globex', owner.user);
		world.sink.clear();
		expect((await invite(app(), owner, organization.id, bo.email, 'member')).status).toBe(200);
		const link = invitationLinkIn(world.sink, bo.email);

		const page = await bo.browser.request(link, { headers: HTML });
		expect(page.status).toBe(200);
		expect(page.headers.get('referrer-policy')).toBe('no-referrer');
		expect(page.headers.get('cache-control')).toBe('no-store');
		const html = await page.text();
		expect(html).toContain('Globex');
		expect(html).toContain('action="/auth/organizations/accept-invitation"');
		expect(await adapter.getMembership(organization.id, bo.user.id)).toBeNull();

		expect((await (await accept(app(), bo, link.searchParams.get('token')!)).json()) as object).toMatchObject({ result: 'joined' });
		expect((await sessionOf(bo))?.organization).toMatchObject({ id: organization.id, name: 'Globex', role: 'member' });
	});

	test('a signed-out browser opening the organizations page is sent to sign in and back', async () => {
		use();
		const response = await new Browser().request(`${app().origin}/auth/organizations`, { headers: HTML });
		expect(response.status).toBe(302);
		const location = new URL(response.headers.get('location')!, app().origin);
		expect(location.pathname).toBe('/auth/signin');
		expect(location.searchParams.get('callbackUrl')).toBe(`${app().origin}/auth/organizations`);
	});
});

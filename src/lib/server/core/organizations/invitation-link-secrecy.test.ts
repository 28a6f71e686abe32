// The secret of an invitation link stays in the link: over HTTP through both integrations, with
// `debug: true`, no log line, event, answer after accepting or page shown afterwards carries it;
// the invitation page (JSON, the built-in page, its failures) sends no referrer and is not cached.

import { inspect } from 'node:util';
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
	const logged: string[] = [];
	const events: unknown[] = [];

	function use() {
		adapter = makeAdapter();
		logged.length = 0;
		events.length = 0;
		const keep = (level: string) => (...args: unknown[]) => void logged.push(`${level} ${inspect(args, { depth: 8 })}`);
		app().use(
			attackConfig(adapter, strategy, {
				providers: [sinkProvider(world.sink)],
				organizations: {},
				debug: true,
				logger: { error: keep('error'), warn: keep('warn'), debug: keep('debug') },
				events: { organizationChange: (message) => void events.push(message) }
			})
		);
	}

	const person = (name: string): Promise<Person> => signedInByEmail(app(), world.sink, adapter, address(name));

	test('the secret is in no log line (debug on), no event, no answer after accepting and no page after it', async () => {
		use();
		const owner = await person('owner');
		const bo = await person('bo');
		const eve = await person('eve');
		const organization = await organizationWith(adapter, 'Acme', owner.user);
		world.sink.clear();
		expect((await invite(app(), owner, organization.id, bo.email, 'member')).status).toBe(200);
		const link = invitationLinkIn(world.sink, bo.email);
		const token = link.searchParams.get('token')!;
		const [id, secret] = token.split('.');

		// everything an attacker and the invitee do with it
		await new Browser().request(link);
		await new Browser().request(link, { headers: HTML });
		await accept(app(), eve, token);
		await accept(app(), bo, `${id}.${'B'.repeat(43)}`);
		await post(app(), bo, 'accept-invitation', { token }, { csrf: false });
		const csrfToken = await bo.browser.csrfToken(app().origin);
		const joined = await bo.browser.request(`${app().origin}/auth/organizations/accept-invitation`, { form: { csrfToken, token }, headers: HTML });
		expect([302, 303]).toContain(joined.status);
		const landing = joined.headers.get('location')!;
		expect(landing).not.toContain(secret);
		expect(new URL(landing, app().origin).searchParams.get('organization')).toBe('joined');
		const page = await bo.browser.request(new URL(landing, app().origin), { headers: HTML });
		expect(page.status).toBe(200);
		expect(await page.text()).not.toContain(secret);
		// replays after it was used
		await accept(app(), bo, token);
		await bo.browser.request(link, { headers: HTML });

		expect(logged.length).toBeGreaterThan(0);
		expect(logged.filter((line) => line.includes(secret))).toEqual([]);
		expect(events.length).toBeGreaterThan(0);
		expect(JSON.stringify(events)).not.toContain(secret);
		expect(await adapter.getMembership(organization.id, bo.user.id)).not.toBeNull();
	});

	test('the invitation page, as JSON and as the built-in page, and its failures send no referrer and are not cached', async () => {
		use();
		const owner = await person('owner');
		const organization = await organizationWith(adapter, 'Acme', owner.user);
		const bo = address('bo');
		world.sink.clear();
		await invite(app(), owner, organization.id, bo, 'member');
		const link = invitationLinkIn(world.sink, bo);
		const [id] = link.searchParams.get('token')!.split('.');
		const forged = new URL(link);
		forged.searchParams.set('token', `${id}.${'C'.repeat(43)}`);
		const [invitation] = await adapter.listInvitations(organization.id);
		const answers: [string, Response][] = [
			['JSON', await new Browser().request(link)],
			['page', await new Browser().request(link, { headers: HTML })],
			['forged JSON', await new Browser().request(forged)],
			['forged page', await new Browser().request(forged, { headers: HTML })]
		];
		await post(app(), owner, 'revoke-invitation', { organizationId: organization.id, invitationId: invitation.id });
		answers.push(['revoked JSON', await new Browser().request(link)], ['revoked page', await new Browser().request(link, { headers: HTML })]);
		for (const [name, response] of answers) {
			expect(response.status, name).toBeLessThan(500);
			const location = response.headers.get('location');
			if (location) {
				// a browser's failure leaves the link for the error page: same site, without the token
				expect(new URL(location, app().origin).origin, name).toBe(app().origin);
				expect(location, name).not.toContain(id);
				continue;
			}
			expect(response.headers.get('referrer-policy'), name).toBe('no-referrer');
			expect(response.headers.get('cache-control'), name).toContain('no-store');
		}
		expect(answers.map(([, response]) => response.status)).toEqual([200, 200, 404, expect.any(Number), 410, expect.any(Number)]);
	});
});

// Attacks through the invitation mail over HTTP, through both integrations, with the mail read from
// a real smtp-server: headers added through an inviter's or organization's name, HTML in those names,
// a forged Host or X-Forwarded-Host moving the link off the configured URL, and mail bombing one
// address from several organizations. Memory storage: none of this depends on the adapter.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import type { Adapter, AuthConfig } from '../types.js';
import { sinkProvider } from '../test/email-fixtures.js';
import { INTEGRATIONS, type AppServer } from '../test/integrations.js';
import { address, attackConfig, attackWorld } from '../test/attacks/flows.js';
import { signedInByEmail } from '../test/attacks/signed-in-person.js';
import { INVITATIONS_PER_ADDRESS } from './invitation-limits.js';
import { answer, invitationLinkIn, invite, organizationWith, type Person } from './test/invitation-fixture.js';

const world = attackWorld({ sink: true });

describe.each(INTEGRATIONS)('%s', (integration) => {
	const app = (): AppServer => world.apps[integration];
	let adapter: Required<Adapter>;

	function use(overrides: Partial<AuthConfig> = {}) {
		adapter = MemoryAdapter();
		app().use(attackConfig(adapter, 'database', { providers: [sinkProvider(world.sink)], organizations: {}, ...overrides }));
	}

	const person = (name: string): Promise<Person> => signedInByEmail(app(), world.sink, adapter, address(name));

	test('line breaks in the inviter or organization name add no header and no recipient', async () => {
		use();
		const owner = await person('owner');
		const bcc = address('bcc', 'evil.example');
		await adapter.updateUser({ id: owner.user.id, name: `Olga\r\nBcc: ${bcc}\r\nX-Injected: 1` });
		const organization = await organizationWith(adapter, 'Acme', owner.user);
		await adapter.updateOrganization({ id: organization.id, name: `Acme\nBcc: ${bcc}` });
		const bo = address('bo');
		world.sink.clear();
		expect((await invite(app(), owner, organization.id, bo, 'member')).status).toBe(200);
		const mails = world.sink.messages();
		expect(mails).toHaveLength(1);
		expect(mails[0].envelope.to).toEqual([bo]);
		expect(mails[0].to).toEqual([bo]);
		expect(mails[0].subject).not.toMatch(/[\r\n]/);
		expect(mails[0].subject).toContain('Acme');
	});

	test('HTML in the inviter or organization name is text in the mail', async () => {
		use();
		const owner = await person('owner');
		await adapter.updateUser({ id: owner.user.id, name: '<a href="https://evil.example/phish">Olga</a>' });
		const organization = await organizationWith(adapter, 'Acme', owner.user);
		await adapter.updateOrganization({ id: organization.id, name: '<img src=x onerror=alert(1)>Acme' });
		const bo = address('bo');
		world.sink.clear();
		expect((await invite(app(), owner, organization.id, bo, 'member')).status).toBe(200);
		const mail = world.sink.messages()[0];
		expect(mail.html).not.toContain('<img src=x');
		expect(mail.html).not.toContain('<a href="https://evil.example');
		expect(mail.html).toContain('&lt;img');
		// the only link of the HTML part is kitgate's own (a URL written in a name stays text)
		const anchors = [...mail.html.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((match) => new URL(match[1].replace(/&amp;/g, '&')).origin);
		expect(anchors.length).toBeGreaterThan(0);
		expect(new Set(anchors)).toEqual(new Set([app().origin]));
		expect(mail.html).not.toMatch(/<img\s[^>]*src=x/);
	});

	test('with `url` configured, a forged Host and X-Forwarded-Host do not move the link', async () => {
		use({ url: app().origin });
		const owner = await person('owner');
		const organization = await organizationWith(adapter, 'Acme', owner.user);
		const bo = address('bo');
		world.sink.clear();
		const sent = await invite(app(), owner, organization.id, bo, 'member', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', forwarded: 'host=evil.example;proto=https' });
		expect(sent.status).toBe(200);
		expect(invitationLinkIn(world.sink, bo).origin).toBe(app().origin);
	});

	test(`one address gets at most ${INVITATIONS_PER_ADDRESS} invitations an hour, however many organizations send them`, async () => {
		use();
		const victim = address('victim');
		const senders = [await person('eve1'), await person('eve2'), await person('eve3')];
		const organizations = await Promise.all(senders.map((sender, index) => organizationWith(adapter, `Spam ${index}`, sender.user)));
		world.sink.clear();
		const refused: unknown[] = [];
		for (let round = 0; round < 4; round++) {
			for (const [index, sender] of senders.entries()) {
				const sent = await answer(await invite(app(), sender, organizations[index].id, victim, 'member'));
				if (sent.status !== 200) refused.push(sent);
			}
		}
		expect(world.sink.messages().filter((mail) => mail.envelope.to.includes(victim))).toHaveLength(INVITATIONS_PER_ADDRESS);
		expect(refused[0]).toEqual({ status: 429, body: { error: 'RateLimited' } });
		// another address is not held up
		const other = address('other');
		expect((await invite(app(), senders[0], organizations[0].id, other, 'member')).status).toBe(200);
	});
});

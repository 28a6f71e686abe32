// Email sign-in when things go wrong, through the real SMTP server: links used twice, expired,
// for another address or made up; missing adapter methods; a mail server that is down; bad
// addresses; CSRF; and the same answer for known and unknown addresses.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import type { Adapter } from '../types.js';
import { testClient } from './client.js';
import {
	ORIGIN,
	confirmationForm,
	emailSetup,
	expectErrorRedirect,
	followLink,
	mailSinkWorld,
	mailTo,
	openLink,
	requestLink,
	setsSession,
	signInLink,
	sinkProvider,
	smtpOptions
} from './email-fixtures.js';
import Email from '../../providers/email.js';
import { closedPort } from './cuttable-proxy.js';

const world = mailSinkWorld();

/** Asserts a redirect to the error page with `Verification`, and that the page explains it. */
async function expectVerificationError(client: ReturnType<typeof testClient>, response: Response): Promise<void> {
	expectErrorRedirect(response, 'Verification', 'error');
	const page = await client.request(response.headers.get('location') as string);
	expect(page.status).toBe(403);
	expect(await page.text()).toContain('This sign in link cannot be used');
}

/** A memory adapter without `method`. */
function without(method: keyof Adapter): Required<Adapter> {
	const adapter: Partial<Required<Adapter>> = MemoryAdapter();
	delete adapter[method];
	return adapter as Required<Adapter>;
}

describe('links that cannot be used', () => {
	test('the second use of a link is Verification, and changes nothing', async () => {
		const { client, adapter, events, config } = emailSetup(world.sink, MemoryAdapter());
		await requestLink(client, 'ada@example.com');
		const link = signInLink(mailTo(world.sink, 'ada@example.com'));
		expect(setsSession(await followLink(client, link))).toBe(true);
		const user = await adapter.getUserByEmail('ada@example.com');
		const eventCount = events.length;

		const again = testClient(config);
		await expectVerificationError(again, await followLink(again, link));
		expect(await adapter.getUserByEmail('ada@example.com')).toEqual(user);
		expect(events).toHaveLength(eventCount);
		const session = await (await again.request('/auth/session')).json();
		expect(session).toBeNull();
	});

	test('an expired link (injectable clock) is Verification; nothing is created', async () => {
		const { client, adapter, events, clock, log } = emailSetup(world.sink, MemoryAdapter());
		await requestLink(client, 'ada@example.com');
		const link = signInLink(mailTo(world.sink, 'ada@example.com'));
		clock.now += 24 * 3600 * 1000;
		await expectVerificationError(client, await followLink(client, link));
		expect(await adapter.getUserByEmail('ada@example.com')).toBeNull();
		expect(await adapter.getAccount('ada@example.com', 'email')).toBeNull();
		expect(events).toHaveLength(0);
		expect(log.text()).toContain('expired at');
	});

	test('a link one second before expiry still works', async () => {
		const { client, clock } = emailSetup(world.sink, MemoryAdapter());
		await requestLink(client, 'ada@example.com');
		clock.now += 24 * 3600 * 1000 - 1000;
		expect(setsSession(await followLink(client, signInLink(mailTo(world.sink, 'ada@example.com'))))).toBe(true);
	});

	test('a token used with another address is Verification; both links stay usable', async () => {
		const { client, adapter, config } = emailSetup(world.sink, MemoryAdapter());
		await requestLink(client, 'ada@example.com');
		await requestLink(client, 'grace@example.com');
		const adaLink = signInLink(mailTo(world.sink, 'ada@example.com'));
		const graceLink = signInLink(mailTo(world.sink, 'grace@example.com'));

		const swapped = new URL(adaLink);
		swapped.searchParams.set('email', 'grace@example.com');
		await expectVerificationError(client, await followLink(client, swapped));
		expect(await adapter.getUserByEmail('grace@example.com')).toBeNull();

		expect(setsSession(await followLink(testClient(config), adaLink))).toBe(true);
		expect(setsSession(await followLink(testClient(config), graceLink))).toBe(true);
	});

	test('made-up tokens and addresses end on the Verification error page, never a 5xx', async () => {
		const { client, adapter } = emailSetup(world.sink, MemoryAdapter());
		const callback = `${ORIGIN}/auth/callback/email`;
		// a well-formed link with a token nobody issued: the page shows, its POST fails
		const { action, fields } = confirmationForm((await openLink(client, `${callback}?token=garbage&email=ada%40example.com`)).html);
		await expectVerificationError(client, await client.request(action, { form: fields }));

		const broken = [
			`${callback}`,
			`${callback}?token=abc`,
			`${callback}?email=ada%40example.com`,
			`${callback}?token=&email=ada%40example.com`,
			`${callback}?token=${'a'.repeat(600)}&email=ada%40example.com`,
			`${callback}?token=abc&email=${'a'.repeat(400)}%40example.com`
		];
		for (const url of broken) await expectVerificationError(client, await client.request(url));

		const csrfToken = await client.csrfToken();
		const posts: Record<string, string>[] = [
			{ csrfToken },
			{ csrfToken, token: 'abc', email: 'not an address' },
			{ csrfToken, token: '%00%ff', email: '<script>alert(1)</script>' },
			{ csrfToken, token: 'x'.repeat(513), email: 'ada@example.com' }
		];
		for (const form of posts) await expectVerificationError(client, await client.request(callback, { form }));
		// a JSON body comes from a script: the answer is JSON with the page to show
		const json = await client.request(callback, { json: { csrfToken, token: { $ne: null }, email: ['ada@example.com'] } });
		expect(json.status).toBe(403);
		const answer = (await json.json()) as { error: string; url: string };
		expect(answer.error).toBe('Verification');
		expect(new URL(answer.url).pathname).toBe('/auth/error');

		// hostile values in the link are escaped on the confirmation page
		const { html } = await openLink(client, `${callback}?token=%22%3E%3Cscript%3E&email=%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
		expect(html).not.toContain('<script>alert(1)');
		expect(await adapter.getUserByEmail('ada@example.com')).toBeNull();
	});

	test('two simultaneous confirmations of one link: exactly one signs in', async () => {
		const { client, config } = emailSetup(world.sink, MemoryAdapter());
		await requestLink(client, 'ada@example.com');
		const link = signInLink(mailTo(world.sink, 'ada@example.com'));
		const results = await Promise.all([followLink(testClient(config), link), followLink(testClient(config), link)]);
		expect(results.filter(setsSession)).toHaveLength(1);
	});
});

describe('CSRF on the confirmation', () => {
	test('a POST without or with a wrong CSRF token spends nothing; the real one then works', async () => {
		const { client, config } = emailSetup(world.sink, MemoryAdapter());
		await requestLink(client, 'ada@example.com');
		const link = signInLink(mailTo(world.sink, 'ada@example.com'));
		const { action, fields } = confirmationForm((await openLink(client, link)).html);

		const { csrfToken: _dropped, ...withoutCsrf } = fields;
		expectErrorRedirect(await client.request(action, { form: withoutCsrf }), 'MissingCSRF');
		expectErrorRedirect(await client.request(action, { form: { ...fields, csrfToken: 'forged' } }), 'MissingCSRF');
		// another site's form: the victim's cookies are not sent cross-site (SameSite=Lax), so no CSRF cookie
		const stranger = testClient(config);
		expectErrorRedirect(await stranger.request(action, { form: fields }), 'MissingCSRF');

		const confirmed = await client.request(action, { form: fields });
		expect(setsSession(confirmed)).toBe(true);
	});
});

describe('adapter without a needed method', () => {
	test('no createVerificationToken: MissingAdapterMethod, no mail, nothing written', async () => {
		const adapter = without('createVerificationToken');
		const { client, log } = emailSetup(world.sink, adapter);
		const response = await requestLink(client, 'ada@example.com');
		expectErrorRedirect(response, 'MissingAdapterMethod', 'error');
		expect(log.text()).toContain('createVerificationToken');
		expect(world.sink.messages()).toHaveLength(0);
		expect(await adapter.getUserByEmail('ada@example.com')).toBeNull();
	});

	test('no updateUser: the confirmation fails before the token is spent, and nothing is created', async () => {
		const adapter = without('updateUser');
		const { client, stored, log } = emailSetup(world.sink, adapter);
		await requestLink(client, 'ada@example.com');
		const response = await followLink(client, signInLink(mailTo(world.sink, 'ada@example.com')));
		expectErrorRedirect(response, 'MissingAdapterMethod', 'error');
		expect(log.text()).toContain('updateUser');
		expect(await adapter.getUserByEmail('ada@example.com')).toBeNull();
		// the token is still there, unspent
		expect(await adapter.useVerificationToken({ identifier: 'ada@example.com', token: stored[0].token })).not.toBeNull();
	});
});

describe('mail server down', () => {
	test('a clear EmailSignin error is logged, the user is back on the sign-in page, and the token is deleted', async () => {
		const port = await closedPort();
		const { client, stored, log, adapter } = emailSetup(world.sink, MemoryAdapter(), {
			providers: [Email({ server: smtpOptions(port), from: 'no-reply@kitgate.test' })]
		});
		const response = await requestLink(client, 'ada@example.com');
		expectErrorRedirect(response, 'EmailSignin');
		expect(new URL(response.headers.get('location') as string).searchParams.get('callbackUrl')).toBe(`${ORIGIN}/dashboard`);

		// a warning (the failure table's level for EmailSignin) that carries the mail server's error
		expect(log.errors).toEqual([]);
		expect(log.text()).toContain('EmailSignin Sending the sign-in email of provider "email" failed; its one-time token was deleted again.');
		expect(log.text()).toMatch(/ECONNREFUSED/);

		expect(stored).toHaveLength(1);
		expect(await adapter.useVerificationToken({ identifier: 'ada@example.com', token: stored[0].token })).toBeNull();
		const page = await (await client.request(response.headers.get('location') as string)).text();
		expect(page).toContain('We could not send a sign in link.');
	});
});

describe('addresses', () => {
	test.each([
		['a list with a comma', 'ada@example.com,grace@example.com'],
		['a list with a semicolon', 'ada@example.com; grace@example.com'],
		['two addresses with a space', 'ada@example.com grace@example.com'],
		['a display name', 'Ada <ada@example.com>'],
		['no @', 'ada.example.com'],
		['two @', 'ada@@example.com'],
		['no domain dot', 'ada@localhost'],
		['an empty value', '   '],
		['a leading dot', '.ada@example.com']
	])('%s is refused on the sign-in page with EmailSignin; no token, no mail, no callback', async (_label, typed) => {
		const { client, stored, signInCalls, log } = emailSetup(world.sink, MemoryAdapter());
		const response = await requestLink(client, typed);
		expectErrorRedirect(response, 'EmailSignin');
		expect(stored).toHaveLength(0);
		expect(signInCalls).toHaveLength(0);
		expect(world.sink.messages()).toHaveLength(0);
		expect(log.errors).toHaveLength(0);
		const page = await (await client.request(response.headers.get('location') as string)).text();
		expect(page).toContain('Check that you entered one valid email address');
	});

	test('a missing email field is refused the same way', async () => {
		const { client } = emailSetup(world.sink, MemoryAdapter());
		const csrfToken = await client.csrfToken();
		expectErrorRedirect(await client.request('/auth/signin/email', { form: { csrfToken } }), 'EmailSignin');
	});

	test('the typed value is put back into the form to fix it', async () => {
		const { client } = emailSetup(world.sink, MemoryAdapter());
		const response = await requestLink(client, 'ada@example.com, grace@example.com');
		const page = await (await client.request(response.headers.get('location') as string)).text();
		expect(page).toContain('value="ada@example.com, grace@example.com"');
	});

	test('known and unknown addresses get the same answer, and both get a mail', async () => {
		const { adapter, config } = emailSetup(world.sink, MemoryAdapter());
		await adapter.createUser({ id: 'u1', email: 'known@example.com', emailVerified: new Date() });
		const answers = [];
		for (const address of ['known@example.com', 'unknown@example.com']) {
			const client = testClient(config);
			const response = await requestLink(client, address);
			answers.push({
				status: response.status,
				location: response.headers.get('location'),
				cookies: response.headers.getSetCookie(),
				body: await response.text()
			});
		}
		expect(answers[0]).toEqual(answers[1]);
		expect(answers[0].location).toBe(`${ORIGIN}/auth/verify-request?provider=email&type=email`);
		expect(mailTo(world.sink, 'known@example.com').subject).toBe(mailTo(world.sink, 'unknown@example.com').subject);
	});
});

describe('configuration', () => {
	test('a provider with an invalid maxAge fails at start-up with the provider named', async () => {
		const { config, log } = emailSetup(world.sink, MemoryAdapter(), { providers: [sinkProvider(world.sink, { maxAge: -5 })] });
		const response = await testClient(config).request('/auth/signin');
		expect(response.status).toBe(503);
		expect(log.text()).toContain('Email provider "email": maxAge must be a positive number of seconds');
	});
});

// startTestMailbox: a real magic-link mail sent by kitgate's email provider (nodemailer over SMTP)
// arrives, its sign-in link is found for the address, and other processes read it over HTTP.

import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { MemoryAdapter } from '../server/adapters/memory.js';
import { testClient } from '../server/core/test/client.js';
import type { AuthConfig, Session } from '../server/core/types.js';
import Email from '../server/providers/email.js';
import { connectTestMailbox, startTestMailbox, type TestMailbox } from './mailbox.js';

const ORIGIN = 'http://localhost:3000';
let mailbox: TestMailbox;
let config: AuthConfig;

beforeAll(async () => {
	mailbox = await startTestMailbox({ httpPort: 0 });
	config = {
		secret: 'mailbox-test-secret-mailbox-test-secret-0',
		trustHost: true,
		adapter: MemoryAdapter(),
		providers: [Email({ server: mailbox.smtpUrl, from: 'Tests <no-reply@kitgate.test>' })],
		logger: { error: () => {}, warn: () => {}, debug: () => {} }
	};
});
afterAll(() => mailbox?.close());
beforeEach(() => mailbox.clear());

async function requestLink(browser: ReturnType<typeof testClient>, email: string): Promise<void> {
	const response = await browser.request('/auth/signin/email', { form: { csrfToken: await browser.csrfToken(), email, callbackUrl: '/dashboard' } });
	expect(response.status).toBe(302);
}

test('the sign-in link of a real magic-link mail signs in the address', async () => {
	const browser = testClient(config, ORIGIN);
	const since = new Date();
	await requestLink(browser, 'ada@example.com');
	const link = await mailbox.waitForLink('ADA@example.com', { since });
	expect(new URL(link).pathname).toBe('/auth/callback/email');
	expect(mailbox.messages('ada@example.com')).toHaveLength(1);
	expect(mailbox.messages('someone@example.com')).toEqual([]);

	// the link opens the confirmation page; its form's POST signs in
	const page = await (await browser.request(link)).text();
	const fields = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2].replace(/&amp;/g, '&')]));
	expect((await browser.request('/auth/callback/email', { form: fields })).status).toBe(302);
	const session = (await (await browser.request('/auth/session')).json()) as Session | null;
	expect(session?.user.email).toBe('ada@example.com');
});

test('another process reads the same mail through the listing; waitForLink gives the newest mail', async () => {
	expect(mailbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/messages$/);
	const remote = connectTestMailbox(mailbox.url as string);
	const browser = testClient(config, ORIGIN);
	await requestLink(browser, 'grace@example.com');
	const first = await remote.waitForLink('grace@example.com');
	await requestLink(browser, 'grace@example.com');
	await expect.poll(async () => (await remote.read('grace@example.com')).length).toBe(2);
	const newest = await remote.waitForLink('grace@example.com');
	expect(newest).not.toBe(first);
	expect(newest).toBe(mailbox.messages('grace@example.com')[0].links.find((href) => href.includes('/callback/')));
	await remote.clear();
	expect(mailbox.messages()).toEqual([]);
});

test('waiting for a mail that never comes fails after the timeout, naming the address; `since` leaves out older mail', async () => {
	const browser = testClient(config, ORIGIN);
	await requestLink(browser, 'old@example.com');
	await mailbox.waitForMail('old@example.com');
	await expect(mailbox.waitForMail('old@example.com', { since: new Date(Date.now() + 1000), timeout: 200 })).rejects.toThrow(/No mail to old@example.com .* 200 ms/);
	await expect(mailbox.waitForLink('nobody@example.com', { timeout: 100 })).rejects.toThrow(/nobody@example.com/);
});

/** A request to the listing as a browser sends it, with the `Host` its address bar names. */
function requestListing(method: string, host: string): Promise<{ status: number; body: string }> {
	const { port } = new URL(mailbox.url as string);
	return new Promise((resolve, reject) => {
		const request = httpRequest({ host: '127.0.0.1', port, path: '/messages', method, headers: { host } }, (response) => {
			let body = '';
			response.setEncoding('utf8');
			response.on('data', (chunk: string) => (body += chunk));
			response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
		});
		request.on('error', reject);
		request.end();
	});
}

test("a page of another site whose name now points at 127.0.0.1 (DNS rebinding) can neither read the sign-in links nor clear them", async () => {
	const browser = testClient(config, ORIGIN);
	await requestLink(browser, 'victim@example.com');
	await mailbox.waitForLink('victim@example.com');
	const { port } = new URL(mailbox.url as string);
	for (const host of [`attacker.example:${port}`, 'attacker.example', `127.0.0.1.attacker.example:${port}`]) {
		const read = await requestListing('GET', host);
		expect(read.status).toBe(403);
		expect(read.body).not.toContain('victim@example.com');
		expect((await requestListing('DELETE', host)).status).toBe(403);
	}
	expect(mailbox.messages('victim@example.com')).toHaveLength(1);
	// the loopback names still read it
	for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
		expect((await requestListing('GET', host)).body).toContain('victim@example.com');
	}
});

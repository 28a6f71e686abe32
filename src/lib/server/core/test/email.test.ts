// Email sign-in end to end through a real SMTP server: the link is sent with nodemailer, read from
// the received message, opened (a confirmation page that spends nothing), confirmed, and gives a
// session; JWT and database sessions, on the memory adapter and a real SQLite file.

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import Email, { renderVerificationEmail } from '../../providers/email.js';
import { hashVerificationToken } from '../flows/email/email-token.js';
import type { AdapterUser, SendVerificationRequestParams, Session } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { ORIGIN, confirmationForm, emailSetup, eventNames, followLink, mailSinkWorld, mailTo, openLink, requestLink, setsSession, signInByEmail, signInLink, sinkProvider } from './email-fixtures.js';
import { memoryAndSqliteAdapters } from './stored-adapters.js';

const world = mailSinkWorld();

const adapters = memoryAndSqliteAdapters('email');
const strategies = ['database', 'jwt'] as const;

describe.each(adapters)('email sign-in (%s adapter)', (_name, makeAdapter) => {
	describe.each(strategies)('%s sessions', (strategy) => {
		test('link by SMTP, confirmation page, POST with CSRF: a new verified user with an email account and a session', async () => {
			const { client, adapter, stored, events, clock } = emailSetup(world.sink, makeAdapter(), { session: { strategy } });

			const requested = await requestLink(client, '  Ada@Example.COM ');
			expect(requested.status).toBe(302);
			expect(requested.headers.get('location')).toBe(`${ORIGIN}/auth/verify-request?provider=email&type=email`);

			const mail = mailTo(world.sink, 'ada@example.com');
			expect(mail.subject).toBe('Sign in to localhost:3000');
			expect(mail.from).toContain('no-reply@kitgate.test');
			const link = signInLink(mail);
			expect(link.origin + link.pathname).toBe(`${ORIGIN}/auth/callback/email`);
			expect(link.searchParams.get('email')).toBe('ada@example.com');
			expect(link.searchParams.get('callbackUrl')).toBe(`${ORIGIN}/dashboard`);
			const token = link.searchParams.get('token') as string;
			expect(token).toMatch(/^[0-9a-f]{64}$/);

			// the adapter got the keyed hash, never the token of the link
			expect(stored).toHaveLength(1);
			expect(stored[0].identifier).toBe('ada@example.com');
			expect(stored[0].token).not.toBe(token);
			expect(stored[0].token).toBe(hashVerificationToken(token, TEST_SECRET, 'sign-in'));
			expect(new Date(stored[0].expires).getTime()).toBe(clock.now + 24 * 3600 * 1000);

			// the mail: text and HTML, the link in both, when it expires, and no other secret
			expect(mail.text).toContain('The link expires in 24 hours and works only once.');
			expect(mail.html).toContain('Sign in to localhost:3000');
			expect(mail.html).toContain(`href="${link.href.replaceAll('&', '&amp;')}"`);
			expect(JSON.stringify(mail)).not.toContain(stored[0].token);
			expect(JSON.stringify(mail)).not.toContain(TEST_SECRET);

			// opening the link (twice, as a mail scanner and then the user) spends nothing
			for (let i = 0; i < 2; i++) {
				const { response, html } = await openLink(client, link);
				expect(response.status).toBe(200);
				expect(setsSession(response)).toBe(false);
				expect(html).toContain('Confirm sign in');
				expect(html).toContain('ada@example.com');
				const { fields } = confirmationForm(html);
				expect(fields).toMatchObject({ token, email: 'ada@example.com', callbackUrl: `${ORIGIN}/dashboard` });
				expect(fields.csrfToken).toBeTruthy();
			}
			expect(await adapter.getUserByEmail('ada@example.com')).toBeNull();

			const confirmed = await followLink(client, link);
			expect(confirmed.status).toBe(302);
			expect(confirmed.headers.get('location')).toBe(`${ORIGIN}/dashboard`);
			expect(setsSession(confirmed)).toBe(true);

			const user = (await adapter.getUserByEmail('ada@example.com')) as AdapterUser;
			expect(user).toMatchObject({ email: 'ada@example.com', name: null });
			expect(new Date(user.emailVerified as Date).getTime()).toBe(clock.now);
			expect(await adapter.getAccount('ada@example.com', 'email')).toMatchObject({ userId: user.id, type: 'email', provider: 'email' });
			expect(eventNames(events)).toEqual(['createUser', 'linkAccount', 'signIn']);
			expect(events[2][1]).toMatchObject({ isNewUser: true, account: { type: 'email', providerAccountId: 'ada@example.com' } });

			const session = (await (await client.request('/auth/session')).json()) as Session;
			expect(session.user?.email).toBe('ada@example.com');
			// the token was spent: the stored hash is gone
			expect(await adapter.useVerificationToken({ identifier: 'ada@example.com', token: stored[0].token })).toBeNull();
		});

		test('an existing user with an unverified address: emailVerified is set once, with an updateUser event', async () => {
			const { client, adapter, events, clock, config } = emailSetup(world.sink, makeAdapter(), { session: { strategy } });
			const existing = await adapter.createUser({ id: crypto.randomUUID(), email: 'grace@example.com', name: 'Grace', emailVerified: null });

			const first = await signInByEmail(client, world.sink, 'grace@example.com');
			expect(setsSession(first)).toBe(true);
			const verifiedAt = clock.now;
			const afterFirst = (await adapter.getUser(existing.id)) as AdapterUser;
			expect(new Date(afterFirst.emailVerified as Date).getTime()).toBe(verifiedAt);
			expect(eventNames(events)).toEqual(['linkAccount', 'updateUser', 'signIn']);
			expect(events[1][1]).toMatchObject({ user: { id: existing.id } });

			// a later sign-in, in another browser and an hour later, changes nothing
			clock.now += 3600 * 1000;
			world.sink.clear();
			const other = testClient(config);
			await signInByEmail(other, world.sink, 'grace@example.com');
			const afterSecond = (await adapter.getUser(existing.id)) as AdapterUser;
			expect(new Date(afterSecond.emailVerified as Date).getTime()).toBe(verifiedAt);
			expect(eventNames(events)).toEqual(['linkAccount', 'updateUser', 'signIn', 'signIn']);
			const session = (await (await other.request('/auth/session')).json()) as Session;
			expect(session.user).toMatchObject({ email: 'grace@example.com', name: 'Grace' });
		});
	});
});

describe('signIn callback and callback URL', () => {
	test('the signIn callback sees verificationRequest: true when the link is sent, and no email flag when it is used', async () => {
		const { client, signInCalls, adapter } = emailSetup(world.sink, MemoryAdapter());
		const known = await adapter.createUser({ id: 'known-id', email: 'known@example.com', emailVerified: null });

		await requestLink(client, 'new@example.com');
		await requestLink(client, 'known@example.com');
		expect(signInCalls[0]).toMatchObject({ user: { email: 'new@example.com' }, email: { verificationRequest: true } });
		expect((signInCalls[0].user as AdapterUser).id).toMatch(/^[0-9a-f-]{36}$/);
		expect(signInCalls[1]).toMatchObject({ user: { id: known.id }, account: { type: 'email', providerAccountId: 'known@example.com' } });

		await followLink(client, signInLink(mailTo(world.sink, 'new@example.com')));
		expect(signInCalls).toHaveLength(3);
		expect(signInCalls[2].email).toBeUndefined();
		expect(signInCalls[2]).toMatchObject({ user: { email: 'new@example.com' }, account: { provider: 'email' } });
	});

	test('the callback URL travels in the link and passes the redirect callback again when used', async () => {
		const seen: string[] = [];
		const { client } = emailSetup(world.sink, MemoryAdapter(), {
			callbacks: {
				redirect: ({ url, baseUrl }) => {
					seen.push(url);
					const target = new URL(url, baseUrl);
					return target.origin === new URL(baseUrl).origin ? target.href : baseUrl;
				}
			}
		});
		await requestLink(client, 'ada@example.com', { callbackUrl: '/welcome?tab=1' });
		const link = signInLink(mailTo(world.sink, 'ada@example.com'));
		expect(link.searchParams.get('callbackUrl')).toBe(`${ORIGIN}/welcome?tab=1`);

		// a callback URL changed to another site in the confirmation form is refused by the redirect callback
		const { html } = await openLink(client, link);
		const { action, fields } = confirmationForm(html);
		const response = await client.request(action, { form: { ...fields, callbackUrl: 'https://evil.example/steal' } });
		expect(response.headers.get('location')).toBe(`${ORIGIN}/`);
		expect(seen).toContain('https://evil.example/steal');
	});

	test('a signIn callback that refuses the address: no token, no mail, the error page', async () => {
		const { client, stored } = emailSetup(world.sink, MemoryAdapter(), { callbacks: { signIn: () => false } });
		const response = await requestLink(client, 'blocked@example.com');
		expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('AccessDenied');
		expect(stored).toHaveLength(0);
		expect(world.sink.messages()).toHaveLength(0);
	});
});

describe('tokens and secrets', () => {
	test('a link issued before a secret rotation still works with the old secret second in the list', async () => {
		const oldSecret = TEST_SECRET;
		const newSecret = 'a-brand-new-secret-a-brand-new-secret-0123';
		const before = emailSetup(world.sink, MemoryAdapter(), { secret: oldSecret });
		await requestLink(before.client, 'ada@example.com');
		const link = signInLink(mailTo(world.sink, 'ada@example.com'));

		const after = emailSetup(world.sink, before.adapter, { secret: [newSecret, oldSecret] });
		const response = await followLink(after.client, link);
		expect(setsSession(response)).toBe(true);
	});

	test('maxAge, generateVerificationToken and normalizeIdentifier can be replaced', async () => {
		const { client, stored, clock } = emailSetup(world.sink, MemoryAdapter(), {
			providers: [
				sinkProvider(world.sink, {
					id: 'magic',
					maxAge: 600,
					generateVerificationToken: () => 'custom-token-0123456789',
					normalizeIdentifier: (value) => `${value.trim().toLowerCase()}@example.org`
				})
			]
		});
		const response = await requestLink(client, ' ADA ', {}, 'magic');
		expect(response.headers.get('location')).toBe(`${ORIGIN}/auth/verify-request?provider=magic&type=email`);
		const mail = mailTo(world.sink, 'ada@example.org');
		expect(mail.text).toContain('10 minutes');
		const link = signInLink(mail);
		expect(link.pathname).toBe('/auth/callback/magic');
		expect(link.searchParams.get('token')).toBe('custom-token-0123456789');
		expect(new Date(stored[0].expires).getTime()).toBe(clock.now + 600 * 1000);
		expect(setsSession(await followLink(client, link))).toBe(true);
	});

	test('the verify-request page says how long the link lives', async () => {
		const { client } = emailSetup(world.sink, MemoryAdapter());
		const html = await (await client.request('/auth/verify-request?provider=email&type=email')).text();
		expect(html).toContain('Check your email');
		expect(html).toContain('The link expires in 24 hours and works only once.');
	});
});

describe('a custom sender (HTTP mail API)', () => {
	test('gets identifier, url, expires, provider, token, theme and request, and can post the built-in mail to an API', async () => {
		const received: { authorization?: string; body: Record<string, string> }[] = [];
		const api = createServer(async (request: IncomingMessage, response) => {
			const chunks: Buffer[] = [];
			for await (const chunk of request) chunks.push(chunk as Buffer);
			received.push({ authorization: request.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
			response.writeHead(202, { 'content-type': 'application/json' }).end('{"id":"msg-1"}');
		});
		await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
		const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1/send`;
		const params: SendVerificationRequestParams[] = [];
		try {
			const { client, clock } = emailSetup(world.sink, MemoryAdapter(), {
				theme: { brandColor: '#0f766e' },
				providers: [
					Email({
						sendVerificationRequest: async (request) => {
							params.push(request);
							const { subject, text, html } = renderVerificationEmail(request);
							const answer = await fetch(apiUrl, {
								method: 'POST',
								headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
								body: JSON.stringify({ from: 'no-reply@kitgate.test', to: request.identifier, subject, text, html })
							});
							if (!answer.ok) throw new Error(`mail API answered ${answer.status}`);
						}
					})
				]
			});
			const response = await requestLink(client, 'Ada@Example.com');
			expect(response.headers.get('location')).toBe(`${ORIGIN}/auth/verify-request?provider=email&type=email`);

			expect(params).toHaveLength(1);
			const [sent] = params;
			expect(sent.identifier).toBe('ada@example.com');
			expect(sent.expires.getTime()).toBe(clock.now + 86400_000);
			expect(sent.provider).toMatchObject({ id: 'email', type: 'email', maxAge: 86400 });
			expect(sent.theme).toEqual({ brandColor: '#0f766e' });
			expect(sent.request).toBeInstanceOf(Request);
			expect(new URL(sent.url).searchParams.get('token')).toBe(sent.token);

			expect(received).toHaveLength(1);
			expect(received[0].authorization).toBe('Bearer test-key');
			expect(received[0].body).toMatchObject({ to: 'ada@example.com', subject: 'Sign in to localhost:3000' });
			expect(received[0].body.html).toContain('background-color:#0f766e');
			expect(world.sink.messages()).toHaveLength(0);

			// the link the API would deliver signs in like any other
			expect(setsSession(await followLink(client, sent.url))).toBe(true);
		} finally {
			await new Promise<void>((resolve) => api.close(() => resolve()));
		}
	});
});

// Shared parts of the email sign-in tests: the real SMTP sink, a config that sends to it through
// nodemailer, and helpers that drive a sign-in from the form to the confirmation POST.

import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startDemoSmtp, type StoredMail } from '../../../../../scripts/demo-smtp.js';
import Email, { type EmailOptions } from '../../providers/email.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import type { Adapter, AuthConfig, EventCallbacks, VerificationToken } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { quietLogger, type TestClient } from './oauth-fixtures.js';

export { ORIGIN, quietLogger, setsSession, expectErrorRedirect } from './oauth-fixtures.js';

/** The sink for one test file: a real `smtp-server` on 127.0.0.1, ephemeral port. */
export type MailSink = Awaited<ReturnType<typeof startDemoSmtp>>;

/** Starts the sink (no HTTP side: tests read its messages directly). */
export function startSink(): Promise<MailSink> {
	return startDemoSmtp({ smtpPort: 0, httpPort: false });
}

/**
 * The email sink world of a test file: the SMTP sink, started before the file's tests, emptied
 * before each and closed after them. Read `world.sink` inside tests and hooks.
 *
 * @example
 * const world = mailSinkWorld();
 * test('…', async () => {
 * 	const { client } = emailSetup(world.sink, MemoryAdapter());
 * });
 */
export function mailSinkWorld() {
	const world = {} as { sink: MailSink };
	beforeAll(async () => {
		world.sink = await startSink();
	});
	afterAll(() => world.sink?.close());
	beforeEach(() => world.sink.clear());
	return world;
}

/**
 * nodemailer options for the sink without TLS. Pooled: smtp-server waits 100 ms before its greeting
 * (to catch clients that talk too early), so a connection per mail costs every test 100 ms a mail;
 * the pool keeps one connection per provider, and the mailbox ends it when it closes.
 */
export function smtpOptions(port: number) {
	return { host: '127.0.0.1', port, secure: false, ignoreTLS: true, connectionTimeout: 2000, pool: true };
}

/** The plain provider of each sink: one pooled connection serves every test of a file. */
const plainProviders = new WeakMap<MailSink, ReturnType<typeof Email>>();

/** An email provider sending to the sink (without `options`, the same one each time: the engine copies providers, it never changes them). */
export function sinkProvider(sink: MailSink, options: EmailOptions = {}) {
	const make = () => Email({ server: smtpOptions(sink.smtpPort), from: 'kitgate tests <no-reply@kitgate.test>', ...options });
	if (Object.keys(options).length > 0) return make();
	let provider = plainProviders.get(sink);
	if (!provider) plainProviders.set(sink, (provider = make()));
	return provider;
}

/** A real adapter whose `createVerificationToken` calls are recorded (what was stored), when it has that method. */
export function recordingTokens(adapter: Required<Adapter>) {
	const stored: VerificationToken[] = [];
	if (typeof adapter.createVerificationToken !== 'function') return { adapter, stored };
	const wrapped: Required<Adapter> = {
		...adapter,
		createVerificationToken: async (token) => {
			stored.push({ ...token });
			return adapter.createVerificationToken(token);
		}
	};
	return { adapter: wrapped, stored };
}

type EventName = keyof EventCallbacks;

/** Everything one email test needs: config, client, clock, recorded events and callback calls. */
export function emailSetup(sink: MailSink, adapter: Required<Adapter>, overrides: Partial<AuthConfig> = {}) {
	const clock = { now: Date.UTC(2026, 5, 1, 12) };
	const events: [EventName, Record<string, unknown>][] = [];
	const signInCalls: Record<string, unknown>[] = [];
	const log = quietLogger();
	const recorded = recordingTokens(adapter);
	const record = (name: EventName) => (message: unknown) => void events.push([name, message as Record<string, unknown>]);
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		adapter: recorded.adapter,
		now: () => clock.now,
		logger: log.logger,
		// counters of this setup only: the tests ask many links for the same address
		rateLimit: { store: MemoryRateLimitStore() },
		providers: [sinkProvider(sink)],
		events: {
			createUser: record('createUser'),
			updateUser: record('updateUser'),
			linkAccount: record('linkAccount'),
			signIn: record('signIn')
		},
		callbacks: {
			signIn: (params) => {
				signInCalls.push(params as unknown as Record<string, unknown>);
				return true;
			}
		},
		...overrides
	};
	return { config, client: testClient(config), clock, events, signInCalls, log, stored: recorded.stored, adapter: recorded.adapter };
}

/** Names of the recorded events, in order. */
export const eventNames = (events: [EventName, unknown][]) => events.map(([name]) => name);

/** `POST /auth/signin/email` with a CSRF token. */
export async function requestLink(client: TestClient, email: string, fields: Record<string, string> = {}, providerId = 'email'): Promise<Response> {
	const csrfToken = await client.csrfToken();
	return client.request(`/auth/signin/${providerId}`, { form: { csrfToken, email, callbackUrl: '/dashboard', ...fields } });
}

/** The newest message the sink received for `address`. */
export function mailTo(sink: MailSink, address: string): StoredMail {
	const mail = sink.messages().find((message) => message.envelope.to.includes(address));
	expect(mail, `a mail to ${address}`).toBeDefined();
	return mail as StoredMail;
}

/** The sign-in link of a mail (the same URL in its text and HTML parts). */
export function signInLink(mail: StoredMail): URL {
	const links = mail.links.filter((link) => link.includes('/auth/callback/'));
	expect(new Set(links).size).toBe(1);
	return new URL(links[0]);
}

/** The hidden fields and action of the confirmation page's form. */
export function confirmationForm(html: string): { action: string; fields: Record<string, string> } {
	const action = /<form[^>]*\baction="([^"]*)"/.exec(html)?.[1];
	expect(action, 'the confirmation form').toBeDefined();
	const fields = Object.fromEntries(
		[...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], decodeEntities(m[2])])
	);
	return { action: decodeEntities(action as string), fields };
}

/** Opens a link (GET): the confirmation page. */
export async function openLink(client: TestClient, link: URL | string): Promise<{ response: Response; html: string }> {
	const response = await client.request(link.toString());
	return { response, html: await response.text() };
}

/** Opens the link and presses the confirmation button: the POST that spends the token. */
export async function followLink(client: TestClient, link: URL | string): Promise<Response> {
	const { response, html } = await openLink(client, link);
	expect(response.status).toBe(200);
	const { action, fields } = confirmationForm(html);
	return client.request(action, { form: fields });
}

/** A whole sign-in: request a link, read the mail, open it, confirm. Returns the confirmation's response. */
export async function signInByEmail(client: TestClient, sink: MailSink, address: string): Promise<Response> {
	const requested = await requestLink(client, address);
	expect(requested.status).toBe(302);
	return followLink(client, signInLink(mailTo(sink, address.trim().toLowerCase())));
}

function decodeEntities(value: string): string {
	return value.replace(/&(amp|quot|#39|lt|gt);/g, (_, name: string) => ({ amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>' })[name] as string);
}

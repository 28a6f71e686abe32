// A mailbox for tests (`kitgate/testing`): an SMTP server on 127.0.0.1 (`smtp-server`, an optional
// peer) that keeps every message, a JSON listing over HTTP for other processes, and waits for a link.

import { parseMail } from './mail-parser.js';
import { loadPeer } from './peer.js';

/**
 * A message the mailbox received: its decoded fields, and when and to whom it was delivered.
 * @typedef {import('./mail-parser.js').ParsedMail & {
 *   id: string,
 *   receivedAt: string,
 *   envelope: { from: string, to: string[] }
 * }} TestMail
 */

/**
 * Options of {@link startTestMailbox}.
 * @typedef {object} TestMailboxOptions
 * @property {number} [smtpPort] SMTP port on 127.0.0.1; 0 (default) picks a free one.
 * @property {number | false} [httpPort] Port of the JSON listing (`GET /messages`, for tests in
 *   other processes); 0 picks a free one; `false` (default): no listing.
 * @property {number} [keep] How many messages to keep, newest first (default 200).
 */

/**
 * Options of `waitForMail`.
 * @typedef {object} WaitForMailOptions
 * @property {number} [timeout] Milliseconds to wait (default 10 000).
 * @property {Date} [since] Only messages received at or after this time (default: any).
 */

/**
 * @typedef {WaitForMailOptions & { match?: RegExp | ((href: string) => boolean) }} WaitForLinkOptions
 * `match` picks the link (default: the first one with `/callback/` in it, kitgate's sign-in link,
 * else the first link).
 */

/**
 * Reading a mailbox: the one this process started ({@link TestMailbox}) or one another process
 * started, through its listing ({@link connectTestMailbox}).
 * @typedef {object} MailboxReader
 * @property {(to?: string) => Promise<TestMail[]>} read Messages, newest first; only those to `to` when given.
 * @property {(to: string, options?: WaitForMailOptions) => Promise<TestMail>} waitForMail
 *   The newest message to `to`, waiting until one arrives; rejects after the timeout.
 * @property {(to: string, options?: WaitForLinkOptions) => Promise<string>} waitForLink
 *   The link of the newest message to `to` (a sign-in link by default), waiting until one arrives.
 */

/**
 * @typedef {MailboxReader & {
 *   smtpPort: number,
 *   smtpUrl: string,
 *   url: string | undefined,
 *   messages: (to?: string) => TestMail[],
 *   clear: () => void,
 *   close: () => Promise<void>
 * }} TestMailbox
 * A running mailbox. `smtpUrl` (`smtp://127.0.0.1:PORT`) is what `AUTH_EMAIL_SERVER` or the email
 * provider's `server` takes; `url` is the JSON listing, when `httpPort` was given.
 */

/** Largest message accepted: sign-in mails are a few KB. */
const MAX_MESSAGE_BYTES = 1024 * 1024;
const POLL_MS = 50;

/**
 * Starts a mailbox. It accepts mail for any address without authentication or TLS, so it listens
 * on the loopback interface only. Needs `smtp-server` (`npm install -D smtp-server`).
 *
 * @param {TestMailboxOptions} [options]
 * @returns {Promise<TestMailbox>}
 * @example
 * const mailbox = await startTestMailbox();
 * // AUTH_EMAIL_SERVER = mailbox.smtpUrl, or Email({ server: mailbox.smtpUrl })
 * const link = await mailbox.waitForLink('ada@example.com');
 * await mailbox.close();
 */
export async function startTestMailbox({ smtpPort = 0, httpPort = false, keep = 200 } = {}) {
	const { SMTPServer } = await loadPeer(() => import('smtp-server'), 'smtp-server', 'startTestMailbox');
	// Node's HTTP server only when a test starts the mailbox: importing kitgate/testing loads none (runtime-neutral.test.ts)
	const { createServer } = await import('node:http');
	/** @type {TestMail[]} */
	let stored = [];

	const smtp = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		banner: 'kitgate test mailbox',
		size: MAX_MESSAGE_BYTES,
		logger: false,
		// closing ends a sender's idle connection (a pooled transport keeps one) after this grace
		// instead of smtp-server's 30 s
		closeTimeout: 200,
		onData(stream, session, callback) {
			/** @type {Buffer[]} */
			const chunks = [];
			stream.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk));
			stream.on('error', callback);
			stream.on('end', () => {
				if (/** @type {{ sizeExceeded?: boolean }} */ (stream).sizeExceeded) {
					callback(Object.assign(new Error('Message too large for the test mailbox'), { responseCode: 552 }));
					return;
				}
				const { mailFrom, rcptTo } = session.envelope;
				stored = [
					{
						id: crypto.randomUUID(),
						receivedAt: new Date().toISOString(),
						envelope: { from: mailFrom ? mailFrom.address : '', to: rcptTo.map((recipient) => recipient.address) },
						...parseMail(Buffer.concat(chunks))
					},
					...stored
				].slice(0, keep);
				// answering only now means a sender's `sendMail` resolves once the message is listed
				callback();
			});
		}
	});
	const boundSmtpPort = await listen(smtp, smtpPort);

	const messages = (/** @type {string | undefined} */ to) => (to ? stored.filter((mail) => isTo(mail, to)) : [...stored]);
	const http =
		httpPort === false
			? undefined
			: createServer((request, response) => {
					// a site whose name was made to point at 127.0.0.1 (DNS rebinding) sends its own name as Host
					if (!isLoopbackHost(request.headers.host)) return send(response, 403, { error: 'the test mailbox answers only at 127.0.0.1 or localhost' });
					const url = new URL(request.url ?? '/', 'http://127.0.0.1');
					if (url.pathname !== '/messages') return send(response, 404, { error: 'not found: use /messages' });
					if (request.method === 'DELETE') {
						stored = [];
						return send(response, 200, { messages: [] });
					}
					if (request.method !== 'GET') return send(response, 405, { error: 'GET or DELETE' });
					send(response, 200, { messages: messages(url.searchParams.get('to') ?? undefined) });
				});
	const boundHttpPort = http && httpPort !== false ? await listen(http, httpPort) : undefined;

	return {
		smtpPort: boundSmtpPort,
		smtpUrl: `smtp://127.0.0.1:${boundSmtpPort}`,
		url: boundHttpPort === undefined ? undefined : `http://127.0.0.1:${boundHttpPort}/messages`,
		messages,
		...reader(async (to) => messages(to)),
		clear: () => {
			stored = [];
		},
		close: async () => {
			await new Promise((resolve) => smtp.close(() => resolve(undefined)));
			if (http) {
				http.closeAllConnections();
				await new Promise((resolve) => http.close(() => resolve(undefined)));
			}
		}
	};
}

/**
 * Reads a mailbox another process started with `httpPort` (Playwright's global set-up, say),
 * through its listing URL (`mailbox.url`).
 *
 * @param {string} url The listing, e.g. `http://127.0.0.1:2526/messages`.
 * @returns {MailboxReader & { clear: () => Promise<void> }}
 * @example
 * const mailbox = connectTestMailbox(process.env.TEST_MAILBOX_URL!);
 * await page.goto(await mailbox.waitForLink('ada@example.com'));
 */
export function connectTestMailbox(url) {
	const listing = new URL(url);
	return {
		...reader(async (to) => {
			const query = new URL(listing);
			if (to) query.searchParams.set('to', to);
			const response = await fetch(query, { headers: { accept: 'application/json' } });
			if (!response.ok) throw new Error(`The test mailbox at ${listing.href} answered ${response.status}.`);
			return /** @type {{ messages: TestMail[] }} */ (await response.json()).messages;
		}),
		clear: async () => {
			const response = await fetch(listing, { method: 'DELETE' });
			if (!response.ok) throw new Error(`The test mailbox at ${listing.href} answered ${response.status}.`);
		}
	};
}

/**
 * The reading methods over one way to list messages.
 * @param {(to?: string) => Promise<TestMail[]>} read
 * @returns {MailboxReader}
 */
function reader(read) {
	/** @type {MailboxReader['waitForMail']} */
	const waitForMail = async (to, { timeout = 10_000, since } = {}) => {
		const deadline = Date.now() + timeout;
		for (;;) {
			const newest = (await read(to)).find((mail) => !since || Date.parse(mail.receivedAt) >= since.getTime());
			if (newest) return newest;
			if (Date.now() >= deadline) throw new Error(`No mail to ${to} reached the test mailbox within ${timeout} ms.`);
			await new Promise((wait) => setTimeout(wait, POLL_MS));
		}
	};
	return {
		read,
		waitForMail,
		waitForLink: async (to, options = {}) => {
			const mail = await waitForMail(to, options);
			const link = pickLink(mail.links, options.match);
			if (!link) throw new Error(`The newest mail to ${to} ("${mail.subject}") has no matching link; its links: ${mail.links.join(', ') || 'none'}.`);
			return link;
		}
	};
}

/**
 * @param {string[]} links
 * @param {RegExp | ((href: string) => boolean) | undefined} match
 */
function pickLink(links, match) {
	if (match) return links.find((href) => (typeof match === 'function' ? match(href) : match.test(href)));
	return links.find((href) => href.includes('/callback/')) ?? links[0];
}

/**
 * @param {TestMail} mail
 * @param {string} address
 */
function isTo(mail, address) {
	const wanted = address.toLowerCase();
	return mail.envelope.to.some((recipient) => recipient.toLowerCase() === wanted);
}

/** The names of this machine's loopback interface, as a `Host` header carries them (with or without the port). */
const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?$/i;

/**
 * Whether a request's `Host` names the loopback interface (not a site whose DNS now points at it).
 * @param {string | undefined} host
 */
function isLoopbackHost(host) {
	return host !== undefined && LOOPBACK_HOST.test(host);
}

/**
 * @param {import('node:http').ServerResponse} response
 * @param {number} status
 * @param {unknown} body
 */
function send(response, status, body) {
	response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
	response.end(JSON.stringify(body));
}

/**
 * Listens on 127.0.0.1 and resolves with the bound port.
 * @param {{ listen: (port: number, host: string, done: () => void) => unknown, once: (event: 'error', listener: (error: Error) => void) => unknown }} server
 * @param {number} port
 * @returns {Promise<number>}
 */
function listen(server, port) {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			const address = /** @type {{ server?: import('node:net').Server, address?: () => unknown }} */ (server);
			const info = /** @type {import('node:net').AddressInfo} */ ((address.server ?? address).address?.());
			resolve(info.port);
		});
	});
}

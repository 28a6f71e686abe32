// A local SMTP sink for the demos, Playwright and the email tests: `smtp-server` on 127.0.0.1 keeps
// every message it receives in memory and lists them as JSON over HTTP (GET /messages).
// `node scripts/demo-smtp.js` serves SMTP on 2525 and the mailbox on http://127.0.0.1:2526
// (DEMO_SMTP_PORT, DEMO_MAILBOX_PORT).

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { parseMail } from './parse-mail.js';

/**
 * A received message as the mailbox lists it.
 * @typedef {import('./parse-mail.js').ParsedMail & {
 *   id: string,
 *   receivedAt: string,
 *   envelope: { from: string, to: string[] }
 * }} StoredMail
 */

/**
 * @typedef {object} DemoSmtpOptions
 * @property {number} [smtpPort] SMTP port on 127.0.0.1 (default 2525; 0 picks a free one).
 * @property {number | false} [httpPort] Port of the JSON mailbox (default 2526; 0 picks one; false: none).
 * @property {number} [keep] How many messages to keep, newest first (default 200).
 */

/**
 * @typedef {object} DemoSmtp
 * @property {number} smtpPort The SMTP port it listens on.
 * @property {string | undefined} mailboxUrl e.g. `http://127.0.0.1:2526/messages`, when the HTTP side runs.
 * @property {() => StoredMail[]} messages Received messages, newest first.
 * @property {() => void} clear Forgets every message.
 * @property {() => Promise<void>} close Stops both servers.
 */

/** Largest message accepted: sign-in mails are a few KB. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Starts the sink. It accepts mail for any address without authentication and without TLS, so it
 * listens on the loopback interface only.
 *
 * @param {DemoSmtpOptions} [options]
 * @returns {Promise<DemoSmtp>}
 * @example
 * const sink = await startDemoSmtp({ smtpPort: 0, httpPort: false });
 * // Email({ server: { host: '127.0.0.1', port: sink.smtpPort, ignoreTLS: true } })
 * sink.messages()[0].links[0]; // the sign-in link
 * await sink.close();
 */
export async function startDemoSmtp({ smtpPort = 2525, httpPort = 2526, keep = 200 } = {}) {
	/** @type {StoredMail[]} */
	let stored = [];

	const smtp = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		banner: 'kitgate demo mail sink',
		size: MAX_MESSAGE_BYTES,
		logger: false,
		onData(stream, session, callback) {
			/** @type {Buffer[]} */
			const chunks = [];
			stream.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk));
			stream.on('error', callback);
			stream.on('end', () => {
				if (/** @type {{ sizeExceeded?: boolean }} */ (stream).sizeExceeded) {
					callback(Object.assign(new Error('Message too large for the demo sink'), { responseCode: 552 }));
					return;
				}
				const { mailFrom, rcptTo } = session.envelope;
				stored = [
					{
						id: randomUUID(),
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

	const http = httpPort === false ? undefined : createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		if (url.pathname !== '/messages') return send(response, 404, { error: 'not found: use /messages' });
		if (request.method === 'DELETE') {
			stored = [];
			return send(response, 200, { messages: [] });
		}
		if (request.method !== 'GET') return send(response, 405, { error: 'GET or DELETE' });
		const to = url.searchParams.get('to')?.toLowerCase();
		send(response, 200, { messages: to ? stored.filter((mail) => mail.envelope.to.some((a) => a.toLowerCase() === to)) : stored });
	});
	const boundHttpPort = http && httpPort !== false ? await listen(http, httpPort) : undefined;

	return {
		smtpPort: boundSmtpPort,
		mailboxUrl: boundHttpPort === undefined ? undefined : `http://127.0.0.1:${boundHttpPort}/messages`,
		messages: () => [...stored],
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const sink = await startDemoSmtp({
		smtpPort: Number(process.env.DEMO_SMTP_PORT ?? 2525),
		httpPort: Number(process.env.DEMO_MAILBOX_PORT ?? 2526)
	});
	console.log(`demo mail sink: SMTP on 127.0.0.1:${sink.smtpPort}, mailbox at ${sink.mailboxUrl}`);
	for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => sink.close().then(() => process.exit(0)));
}

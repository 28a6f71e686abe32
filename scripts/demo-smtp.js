// The demos' local mail sink: `startTestMailbox` of `kitgate/testing` (src/lib/testing/mailbox.js),
// an `smtp-server` on 127.0.0.1 that keeps every message and lists them as JSON (GET /messages).
// `node scripts/demo-smtp.js` serves SMTP on 2525 and the mailbox on http://127.0.0.1:2526
// (DEMO_SMTP_PORT, DEMO_MAILBOX_PORT).

import { fileURLToPath } from 'node:url';
import { startTestMailbox } from '../src/lib/testing/mailbox.js';

/** @typedef {import('../src/lib/testing/mailbox.js').TestMail} StoredMail */

/**
 * @typedef {object} DemoSmtpOptions
 * @property {number} [smtpPort] SMTP port on 127.0.0.1 (default 2525; 0 picks a free one).
 * @property {number | false} [httpPort] Port of the JSON mailbox (default 2526; 0 picks one; false: none).
 * @property {number} [keep] How many messages to keep, newest first (default 200).
 */

/**
 * @typedef {import('../src/lib/testing/mailbox.js').TestMailbox & { mailboxUrl: string | undefined }} DemoSmtp
 * The test mailbox; `mailboxUrl` is its listing (`url`), under the name the demos read.
 */

/**
 * Starts the sink: `startTestMailbox` on the demo's ports.
 *
 * @param {DemoSmtpOptions} [options]
 * @returns {Promise<DemoSmtp>}
 * @example
 * const sink = await startDemoSmtp({ smtpPort: 0, httpPort: false });
 * sink.messages()[0].links[0]; // the sign-in link
 * await sink.close();
 */
export async function startDemoSmtp({ smtpPort = 2525, httpPort = 2526, keep = 200 } = {}) {
	const mailbox = await startTestMailbox({ smtpPort, httpPort, keep });
	return { ...mailbox, mailboxUrl: mailbox.url };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const sink = await startDemoSmtp({
		smtpPort: Number(process.env.DEMO_SMTP_PORT ?? 2525),
		httpPort: Number(process.env.DEMO_MAILBOX_PORT ?? 2526)
	});
	console.log(`demo mail sink: SMTP on 127.0.0.1:${sink.smtpPort}, mailbox at ${sink.mailboxUrl}`);
	for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => sink.close().then(() => process.exit(0)));
}

// The demo's mailbox: what the local SMTP sink (scripts/demo-smtp.js) received, so email sign-in
// works on a fresh machine. Part of the demo app only; a real app has no such page.

import type { PageServerLoad } from './$types.js';

/** Where the sink lists its messages (`npm start` and Playwright run it on port 2526). */
const MAILBOX_URL = process.env.DEMO_MAILBOX_URL ?? 'http://127.0.0.1:2526/messages';

/** A received mail as the page shows it. */
interface Mail {
	id: string;
	receivedAt: string;
	to: string[];
	subject: string;
	text: string;
	links: string[];
}

export const load: PageServerLoad = async () => {
	try {
		const response = await fetch(MAILBOX_URL, { signal: AbortSignal.timeout(3000) });
		if (!response.ok) throw new Error(`HTTP ${response.status}`);
		const { messages } = (await response.json()) as { messages: (Mail & { envelope: { to: string[] } })[] };
		const mails: Mail[] = messages.map(({ id, receivedAt, envelope, subject, text, links }) => ({
			id,
			receivedAt,
			to: envelope.to,
			subject,
			text,
			links
		}));
		return { mails, error: undefined };
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return {
			mails: [] as Mail[],
			error: `The demo mail sink at ${MAILBOX_URL} did not answer (${reason}). Start it with \`npm start\`, or \`node scripts/demo-smtp.js\`.`
		};
	}
};

// The demos' mail sink as the end-to-end tests read it: the JSON listing of scripts/demo-smtp.js.

import { expect } from '@playwright/test';

const MAILBOX = 'http://127.0.0.1:2526/messages';

/** One stored message. */
export interface Mail {
	subject: string;
	text: string;
	links: string[];
}

/** The mails sent to `address`, newest first. */
export async function inbox(address: string): Promise<Mail[]> {
	const response = await fetch(`${MAILBOX}?to=${encodeURIComponent(address)}`);
	return ((await response.json()) as { messages: Mail[] }).messages;
}

/**
 * The newest link containing `part` among the mails to `address` after the first `before` of them,
 * waiting for it to arrive. An older mail's link (already used, perhaps) is never the answer.
 */
export async function mailedLink(address: string, part: string, before = 0): Promise<string> {
	let found: string | undefined;
	await expect
		.poll(async () => {
			const mails = await inbox(address);
			const arrived = mails.slice(0, Math.max(mails.length - before, 0));
			found = arrived.flatMap((mail) => mail.links).find((url) => url.includes(part));
			return found;
		})
		.toBeTruthy();
	return found!;
}

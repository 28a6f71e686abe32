// A person of an attack test over HTTP: a browser of their own, signed in by an email link read
// from the SMTP sink, and the user the sign-in stored.

import type { Adapter, AdapterUser } from '../../types.js';
import type { MailSink } from '../email-fixtures.js';
import { Browser, type AppServer } from '../integrations.js';
import { signInByEmail } from './flows.js';

/** A signed-in person: their browser, address and stored user. */
export interface SignedInPerson {
	browser: Browser;
	email: string;
	user: AdapterUser;
}

/**
 * Signs a fresh browser in to `app` by an email link to `email`.
 *
 * @example
 * const olga = await signedInByEmail(app(), world.sink, adapter, address('olga'));
 */
export async function signedInByEmail(app: AppServer, sink: MailSink, adapter: Adapter, email: string): Promise<SignedInPerson> {
	const browser = new Browser();
	await signInByEmail(browser, app, sink, email);
	return { browser, email, user: (await adapter.getUserByEmail!(email))! };
}

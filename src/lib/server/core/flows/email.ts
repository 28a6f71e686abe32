// Email magic-link sign-in: sending the one-time link, the scanner-safe confirmation page, and
// consuming the token. (Being implemented; see issue 6.)

import type { RequestBody } from '../body.js';
import type { RequestContext } from '../context.js';
import { InvalidProvider } from '../errors.js';
import type { Outcome } from '../outcome.js';
import type { EmailConfig } from '../types.js';

/** POST signin/:email — sends the link. */
export async function startEmailSignIn(_ctx: RequestContext, provider: EmailConfig, _body: RequestBody, _callbackUrl: string): Promise<Outcome> {
	throw new InvalidProvider(`Email sign-in with "${provider.id}" is not available yet.`);
}

/** GET|POST callback/:email — confirmation page (GET), token use (POST). */
export async function handleEmailCallback(_ctx: RequestContext, provider: EmailConfig, _body: RequestBody): Promise<Outcome> {
	throw new InvalidProvider(`Email sign-in with "${provider.id}" is not available yet.`);
}

// Chooses where to send the user after signing in or out: the requested callback URL, filtered
// by the `redirect` callback (same origin only by default).

import type { RequestContext } from '../request/context.js';
import { InvalidCallbackUrl } from '../errors.js';
import { defaultRedirect } from './redirect.js';

/**
 * The URL to go to after the flow: `requested` (from the body, query or callback-url cookie)
 * passed through the `redirect` callback; the site's base URL when nothing was requested.
 */
export async function resolveCallbackUrl(ctx: RequestContext, requested: unknown): Promise<string> {
	const asked = typeof requested === 'string' && requested.length > 0 && requested.length <= 2048;
	// nothing asked, the default callback, the site at its root: the origin itself (what it would answer, unparsed)
	if (!asked && ctx.config.callbacks.redirect === defaultRedirect && ctx.baseUrl === ctx.origin && ctx.origin !== 'null') return `${ctx.origin}/`;
	const url = asked ? requested : ctx.baseUrl;
	let chosen: unknown;
	try {
		chosen = await ctx.config.callbacks.redirect({ url, baseUrl: ctx.baseUrl });
	} catch (error) {
		throw new InvalidCallbackUrl('The redirect callback threw.', { cause: { err: error } });
	}
	if (typeof chosen !== 'string') throw new InvalidCallbackUrl('The redirect callback must return a URL string.');
	// the default callback answers absolute URLs already (a parse fewer on every sign-in)
	if (ctx.config.callbacks.redirect === defaultRedirect && chosen !== ctx.baseUrl) return chosen;
	try {
		return new URL(chosen, ctx.baseUrl).href;
	} catch {
		throw new InvalidCallbackUrl(`The redirect callback returned an invalid URL.`);
	}
}

/**
 * The callback URL a request asks for: body field, then query parameter. (The callback-url cookie
 * is an encrypted, single-use part of an OAuth sign-in, read by that flow only.)
 */
export function requestedCallbackUrl(ctx: RequestContext, body: Record<string, unknown> = {}): string | undefined {
	const fromBody = body.callbackUrl ?? body.redirectTo;
	if (typeof fromBody === 'string' && fromBody) return fromBody;
	return ctx.query.get('callbackUrl') ?? undefined;
}

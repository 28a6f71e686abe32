// The checks a route makes before it acts: the provider the request names exists, and a
// state-changing request carries the CSRF token of its cookie (or came through a framework that
// already refuses cross-site posts).

import type { RequestBody } from './body.js';
import { requestCsrf, type RequestContext } from './context.js';
import { isCsrfValid } from './csrf.js';
import { InvalidProvider, MissingCSRF } from '../errors.js';
import type { Provider } from '../types.js';

/**
 * The provider named `providerId`; `InvalidProvider` when there is none by that id.
 *
 * @example const provider = findProvider(ctx, 'github');
 */
export function findProvider(ctx: RequestContext, providerId: string | undefined): Provider {
	const provider = providerId ? ctx.config.providerById.get(providerId) : undefined;
	if (!provider) throw new InvalidProvider(`There is no provider with the id ${JSON.stringify(providerId)}.`);
	return provider;
}

/**
 * Throws `MissingCSRF` unless the body's `csrfToken` matches the CSRF cookie. Skipped when the
 * config says so (`skipCSRFCheck`) or the integration's framework checked the post's origin.
 *
 * @example assertCsrf(ctx, body);
 */
export function assertCsrf(ctx: RequestContext, body: RequestBody): void {
	if (ctx.config.skipCSRFCheck || ctx.csrfChecked) return;
	if (!isCsrfValid(requestCsrf(ctx), body.csrfToken)) {
		throw new MissingCSRF('The CSRF token is missing or does not match its cookie. Fetch one from /csrf first.');
	}
}

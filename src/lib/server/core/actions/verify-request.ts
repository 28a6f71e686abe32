// GET {basePath}/verify-request: "check your email" after an email link was sent, with how long
// the link of the named provider lives.

import { pageOutcome } from '../response/built-in-pages.js';
import type { RequestContext } from '../request/context.js';
import { pageUrl, type Outcome } from '../response/outcome.js';
import { describeDuration } from '../../pages/duration.js';

/** Shows the verify-request page (or redirects to `pages.verifyRequest`). */
export function showVerifyRequest(ctx: RequestContext): Outcome {
	const providerId = ctx.url.searchParams.get('provider') ?? undefined;
	if (ctx.config.pages.verifyRequest) {
		return { type: 'redirect', url: pageUrl(ctx, 'verifyRequest', { provider: providerId, type: 'email' }) };
	}
	const provider = providerId ? ctx.config.providerById.get(providerId) : undefined;
	const maxAge = provider?.type === 'email' ? provider.maxAge : undefined;
	const linkLifetime = typeof maxAge === 'number' ? describeDuration(maxAge, ctx.config.locale) : undefined;
	return pageOutcome(ctx, 'verify-request', { homeUrl: ctx.baseUrl, linkLifetime });
}

// GET {basePath}/verify-request: "check your email" after an email link was sent.

import { pageOutcome } from '../built-in-pages.js';
import type { RequestContext } from '../context.js';
import { pageUrl, type Outcome } from '../outcome.js';

/** Shows the verify-request page (or redirects to `pages.verifyRequest`). */
export function showVerifyRequest(ctx: RequestContext): Outcome {
	if (ctx.config.pages.verifyRequest) {
		const provider = ctx.url.searchParams.get('provider') ?? undefined;
		return { type: 'redirect', url: pageUrl(ctx, 'verifyRequest', { provider, type: 'email' }) };
	}
	return pageOutcome(ctx, 'verify-request', { homeUrl: ctx.baseUrl });
}

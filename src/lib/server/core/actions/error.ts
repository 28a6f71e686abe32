// GET {basePath}/error?error=<type>: the error page (or a redirect to `pages.error`).

import { pageOutcome } from '../response/built-in-pages.js';
import type { RequestContext } from '../request/context.js';
import { errorPageStatus, failures, isErrorType } from '../errors.js';
import { pageUrl, type Outcome } from '../response/outcome.js';

/** Shows the error page for a known error type; anything else shows the generic text. */
export function showErrorPage(ctx: RequestContext): Outcome {
	const requested = ctx.url.searchParams.get('error');
	const error = isErrorType(requested) ? requested : 'Default';
	if (ctx.config.pages.error) return { type: 'redirect', url: pageUrl(ctx, 'error', { error }) };
	// the failure table says whether trying again can help; an unknown code may
	const retry = error === 'Default' || failures[error].retry;
	return pageOutcome(
		ctx,
		'error',
		{ error, signInUrl: retry ? pageUrl(ctx, 'signIn') : '', homeUrl: ctx.baseUrl },
		errorPageStatus(error)
	);
}

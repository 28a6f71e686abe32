// GET {basePath}/error?error=<type>: the error page (or a redirect to `pages.error`).

import { pageOutcome } from '../built-in-pages.js';
import type { RequestContext } from '../context.js';
import { isErrorType, signInErrorTypes } from '../errors.js';
import { errorPageStatus, pageUrl, type Outcome } from '../outcome.js';

/** Shows the error page for a known error type; anything else shows the generic text. */
export function showErrorPage(ctx: RequestContext): Outcome {
	const requested = ctx.url.searchParams.get('error');
	const error = isErrorType(requested) ? requested : 'Default';
	if (ctx.config.pages.error) return { type: 'redirect', url: pageUrl(ctx, 'error', { error }) };
	const retry = error === 'Default' || error === 'AccessDenied' || error === 'Verification' || signInErrorTypes.has(error);
	return pageOutcome(
		ctx,
		'error',
		{ error, signInUrl: retry ? pageUrl(ctx, 'signIn') : '', homeUrl: ctx.baseUrl },
		errorPageStatus(error)
	);
}

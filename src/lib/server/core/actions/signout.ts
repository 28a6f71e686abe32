// GET {basePath}/signout shows the confirmation page; POST ends the session (CSRF checked) and
// redirects to the callback URL.

import { pageOutcome } from '../response/built-in-pages.js';
import type { RequestBody } from '../request/body.js';
import { requestedCallbackUrl, resolveCallbackUrl } from '../response/callback-url.js';
import { requestCsrf, type RequestContext } from '../request/context.js';
import { pageUrl, type Outcome } from '../response/outcome.js';
import { endSession } from '../session/session.js';
import { assertCsrf } from '../request/request-checks.js';
import { isImpersonatedRequest } from '../admin/impersonation-guard.js';
import { stopImpersonation } from '../admin/impersonation.js';

/** Shows the sign-out page, or redirects to `pages.signOut`. */
export async function showSignOutPage(ctx: RequestContext): Promise<Outcome> {
	const requested = ctx.url.searchParams.get('callbackUrl') ?? undefined;
	if (ctx.config.pages.signOut) return { type: 'redirect', url: pageUrl(ctx, 'signOut', { callbackUrl: requested }) };
	return pageOutcome(ctx, 'signout', {
		csrfToken: requestCsrf(ctx).token,
		callbackUrl: await resolveCallbackUrl(ctx, requested),
		action: `${ctx.authUrl}/signout`
	});
}

/** Signs out: deletes the session (database) or just the cookie (JWT), fires `signOut`, redirects. */
export async function signOut(ctx: RequestContext, body: RequestBody): Promise<Outcome> {
	assertCsrf(ctx, body);
	// signing out of an impersonation stops it: the admin's own session comes back
	if (await isImpersonatedRequest(ctx)) return stopImpersonation(ctx, body);
	// the callback-url cookie belongs to sign-in flows, so only the body or query count here
	const callbackUrl = await resolveCallbackUrl(ctx, requestedCallbackUrl(ctx, body));
	await endSession(ctx);
	return { type: 'redirect', url: callbackUrl };
}

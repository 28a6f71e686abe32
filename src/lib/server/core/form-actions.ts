// Sign-in and sign-out for an app's own form actions (SvelteKit's `signIn`/`signOut`): the form
// post is handed to the same route code as `POST {basePath}/signin/:id` and `POST
// {basePath}/signout`, and the answer comes back as values: where to go, the cookies, the failure.

import { readBody, type RequestBody } from './request/body.js';
import { requestedCallbackUrl, resolveCallbackUrl } from './response/callback-url.js';
import { resolveConfig } from './config/resolve-config.js';
import { createContext, type RequestContext, type RequestOptions } from './request/context.js';
import { isSameOriginPost } from './request/csrf.js';
import type { OutgoingCookie } from './request/cookies.js';
import type { ErrorType } from './errors.js';
import { asAuthError, failureAnswer, logFailure } from './response/failure-answer.js';
import { pageUrl, type Outcome } from './response/outcome.js';
import type { AuthConfig } from './types.js';
import { startSignIn } from './actions/signin.js';
import { signOut } from './actions/signout.js';

/** What a form action does next. */
export interface FormActionResult {
	/** Where to send the browser: the callback URL, the provider's page, or the page showing the failure. */
	redirect: string;
	/** Cookies to set (the session, an OAuth sign-in's checks, removals). */
	cookies: OutgoingCookie[];
	/** The failure, when the sign-in or sign-out failed; `code` is a credentials refusal's. */
	failure?: { type: ErrorType; code?: string };
}

/**
 * Signs in with the provider the form names (`providerId`, or `provider`) and its fields, as
 * `POST {basePath}/signin/:id` does; without a provider, sends the user to the sign-in page.
 * Reads the request's body.
 *
 * @example
 * const result = await signInFromForm(event.request, config, { csrfChecked: true });
 */
export function signInFromForm(request: Request, config: AuthConfig, options: RequestOptions = {}): Promise<FormActionResult> {
	return runFormAction(request, config, options, async (ctx, body) => {
		const providerId = stringField(body.providerId) ?? stringField(body.provider);
		if (providerId) return startSignIn(ctx, providerId, body);
		// the sign-in page, coming back where the form said (the site's home by default)
		const callbackUrl = await resolveCallbackUrl(ctx, requestedCallbackUrl(ctx, body));
		return { type: 'redirect', url: pageUrl(ctx, 'signIn', { callbackUrl }) };
	});
}

/**
 * Signs out as `POST {basePath}/signout` does, going to the form's `callbackUrl` (or `redirectTo`).
 * Reads the request's body.
 *
 * @example
 * const result = await signOutFromForm(event.request, config, { csrfChecked: true });
 */
export function signOutFromForm(request: Request, config: AuthConfig, options: RequestOptions = {}): Promise<FormActionResult> {
	return runFormAction(request, config, options, (ctx, body) => signOut(ctx, body));
}

async function runFormAction(
	request: Request,
	config: AuthConfig,
	options: RequestOptions,
	run: (ctx: RequestContext, body: RequestBody) => Promise<Outcome> | Outcome
): Promise<FormActionResult> {
	const resolved = resolveConfig(config);
	let ctx: RequestContext;
	try {
		ctx = createContext(request, resolved, options);
	} catch (error) {
		// a request the engine cannot place (an invalid Host): the error page, relative to this site
		const failure = asAuthError(error);
		logFailure(resolved.logger, failure);
		return { redirect: `${resolved.basePath}/error?error=${failure.type}`, cookies: [], failure: { type: failure.type } };
	}
	// the page's query belongs to the app, not to the sign-in
	ctx.query = new URLSearchParams();
	// the framework's origin check may be off (vite dev, checkOrigin: false, trustedOrigins):
	// without a same-origin post to show for it, kitgate's own CSRF token is asked for
	if (ctx.csrfChecked && !isSameOriginPost(request.headers, ctx.origin)) ctx.csrfChecked = false;
	let outcome: Outcome;
	try {
		outcome = await run(ctx, await readBody(request));
	} catch (error) {
		outcome = failureAnswer(ctx, error);
	}
	return { ...destination(ctx, outcome), cookies: ctx.setCookies };
}

/** Where an outcome sends the browser. Form posts get redirects; anything else shows as a failure. */
function destination(ctx: RequestContext, outcome: Outcome): Pick<FormActionResult, 'redirect' | 'failure'> {
	if (outcome.type === 'redirect') return { redirect: outcome.url, failure: outcome.failure };
	if (outcome.type === 'json') {
		const url = (outcome.body as { url?: unknown } | null)?.url;
		if (typeof url === 'string') return { redirect: url, failure: outcome.failure };
	}
	// no route answers a form post with a page; should one, it is a bug, shown as such
	logFailure(ctx.config.logger, asAuthError(new Error(`A form action got a ${outcome.type} answer.`)));
	return { redirect: pageUrl(ctx, 'error', { error: 'Configuration' }), failure: { type: 'Configuration' } };
}

function stringField(value: unknown): string | undefined {
	return typeof value === 'string' && value ? value : undefined;
}

// GET {basePath}/signin shows the sign-in page; POST {basePath}/signin/:provider starts that
// provider's flow after checking the CSRF token.

import { pageOutcome, pageProviders } from '../response/built-in-pages.js';
import type { RequestBody } from '../request/body.js';
import { resolveCallbackUrl, requestedCallbackUrl } from '../response/callback-url.js';
import { requestCsrf, type RequestContext } from '../request/context.js';
import { InvalidProvider, isErrorType } from '../errors.js';
import { credentialsSignIn } from '../flows/credentials/credentials.js';
import { startEmailSignIn } from '../flows/email/email.js';
import { oauthFlow } from '../flows/oauth/oauth-flow.js';
import { pageUrl, type Outcome } from '../response/outcome.js';
import { assertCsrf, findProvider } from '../request/request-checks.js';

/** Shows the sign-in page, or redirects to `pages.signIn` keeping `callbackUrl`, `error` and `code`. */
export async function showSignInPage(ctx: RequestContext): Promise<Outcome> {
	const query = ctx.url.searchParams;
	const requestedError = query.get('error');
	const error = isErrorType(requestedError) ? requestedError : requestedError ? 'Default' : undefined;
	if (ctx.config.pages.signIn) {
		return {
			type: 'redirect',
			url: pageUrl(ctx, 'signIn', {
				callbackUrl: query.get('callbackUrl') ?? undefined,
				error,
				code: error === 'CredentialsSignin' ? (query.get('code') ?? undefined) : undefined
			})
		};
	}
	const callbackUrl = await resolveCallbackUrl(ctx, query.get('callbackUrl'));
	return pageOutcome(ctx, 'signin', {
		providers: pageProviders(ctx),
		csrfToken: requestCsrf(ctx).token,
		callbackUrl,
		error,
		email: query.get('email') ?? undefined
	});
}

/** Starts sign-in with the provider in the route. */
export async function startSignIn(ctx: RequestContext, providerId: string | undefined, body: RequestBody): Promise<Outcome> {
	const provider = findProvider(ctx, providerId);
	assertCsrf(ctx, body);
	switch (provider.type) {
		case 'credentials':
			return credentialsSignIn(ctx, provider, body);
		case 'oauth':
		case 'oidc': {
			const callbackUrl = await resolveCallbackUrl(ctx, requestedCallbackUrl(ctx, body));
			return (await oauthFlow()).startOAuthSignIn(ctx, provider, body, callbackUrl);
		}
		case 'email': {
			const callbackUrl = await resolveCallbackUrl(ctx, requestedCallbackUrl(ctx, body));
			return startEmailSignIn(ctx, provider, body, callbackUrl);
		}
		default:
			throw new InvalidProvider(`Provider "${provider.id}" (${provider.type}) cannot be started with POST /signin.`);
	}
}

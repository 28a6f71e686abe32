// GET|POST {basePath}/callback/:provider: where a provider returns the user (OAuth redirect,
// credentials form post), completing the sign-in.

import type { RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { InvalidRequest } from '../errors.js';
import { credentialsSignIn } from '../flows/credentials/credentials.js';
import { handleEmailCallback } from '../flows/email/email.js';
import { oauthFlow } from '../flows/oauth/oauth-flow.js';
import { handleWebAuthnCallback } from '../flows/passkey/webauthn.js';
import type { Outcome } from '../response/outcome.js';
import { assertCsrf, findProvider } from '../request/request-checks.js';

/** Completes sign-in with the provider in the route. */
export async function handleCallback(ctx: RequestContext, providerId: string | undefined, body: RequestBody): Promise<Outcome> {
	const provider = findProvider(ctx, providerId);
	switch (provider.type) {
		case 'credentials':
			if (ctx.method !== 'POST') throw new InvalidRequest('Credentials are submitted with POST.');
			assertCsrf(ctx, body);
			return credentialsSignIn(ctx, provider, body);
		case 'oauth':
		case 'oidc':
			return (await oauthFlow()).handleOAuthCallback(ctx, provider, body);
		case 'email':
			// GET shows the confirmation page; its POST spends the link's token
			if (ctx.method === 'POST') assertCsrf(ctx, body);
			return handleEmailCallback(ctx, provider, body);
		case 'webauthn':
			return handleWebAuthnCallback(ctx, provider, body);
	}
}

// OAuth 2 / OpenID Connect sign-in with oauth4webapi: authorization request with the provider's
// checks (PKCE, state, nonce) kept in encrypted cookies, then the callback.

import type { RequestBody } from '../body.js';
import type { RequestContext } from '../context.js';
import { OAuthSignin } from '../errors.js';
import type { Outcome } from '../outcome.js';
import type { OAuthConfig } from '../types.js';

/** Redirects to the provider's authorization endpoint. */
export async function startOAuthSignIn(
	_ctx: RequestContext,
	provider: OAuthConfig,
	_body: RequestBody,
	_callbackUrl: string
): Promise<Outcome> {
	throw new OAuthSignin(`OAuth sign-in with "${provider.id}" is not available yet.`);
}

/** Completes the OAuth sign-in on the provider's redirect. */
export async function handleOAuthCallback(_ctx: RequestContext, provider: OAuthConfig, _body: RequestBody): Promise<Outcome> {
	throw new OAuthSignin(`OAuth sign-in with "${provider.id}" is not available yet.`);
}

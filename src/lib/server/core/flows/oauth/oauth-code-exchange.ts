// The authorization code grant: code → tokens with oauth4webapi, and everything checked about the
// answer (ID token claims and signature). Used by the OAuth callback in ./oauth.ts.

import * as oauth from 'oauth4webapi';
import type { RequestContext } from '../../request/context.js';
import { InvalidCheck } from '../../errors.js';
import type { OAuthConfig, TokenSet } from '../../types.js';
import type { ExpectedChecks } from './oauth-checks.js';
import { clientAuthentication } from './oauth-client.js';
import { loggableError, oauthStepError } from './oauth-errors.js';
import { idpHttpOptions } from './oauth-http.js';
import { verifyIdTokenSignature } from './oauth-id-token.js';
import { definedParams, endpointObject } from './oauth-metadata.js';
import { tokenSetFrom } from './oauth-profile.js';
import { redirectUri } from './redirect-proxy.js';

/**
 * Exchanges the code at the token endpoint (or through the provider's `token.request`) and
 * validates the response: ID token issuer, audience, expiry, nonce (`InvalidCheck` on mismatch)
 * and signature. Returns the token set (with `expires_at`) and the ID token's claims.
 *
 * @example
 * const { tokens, claims } = await exchangeCode(ctx, provider, as, client, callback, expected, 10_000);
 */
export async function exchangeCode(
	ctx: RequestContext,
	provider: OAuthConfig,
	as: oauth.AuthorizationServer,
	client: oauth.Client,
	callback: URLSearchParams,
	expected: ExpectedChecks,
	timeout: number
): Promise<{ tokens: TokenSet; claims?: oauth.IDToken }> {
	const token = endpointObject(provider.token);
	const redirect = redirectUri(ctx, provider);
	let response: Response;
	try {
		if (token.request) {
			const params = {
				...Object.fromEntries(callback),
				redirect_uri: redirect,
				...(typeof expected.codeVerifier === 'string' ? { code_verifier: expected.codeVerifier } : {})
			};
			const result = await token.request({ provider, params });
			response = result instanceof Response ? result : Response.json(result);
		} else {
			response = await oauth.authorizationCodeGrantRequest(as, client, clientAuthentication(provider), callback, redirect, expected.codeVerifier, {
				...idpHttpOptions(as.token_endpoint, timeout),
				additionalParameters: definedParams(token.params)
			});
		}
	} catch (error) {
		throw oauthStepError('callback', provider.id, 'the token request', error);
	}

	let result: oauth.TokenEndpointResponse;
	try {
		result = await oauth.processAuthorizationCodeResponse(as, client, response, {
			expectedNonce: expected.nonce,
			requireIdToken: provider.type === 'oidc'
		});
	} catch (error) {
		if (isNonceMismatch(error)) {
			throw new InvalidCheck(`Provider "${provider.id}": the ID token's nonce does not match this sign-in.`, {
				cause: { err: loggableError(error) }
			});
		}
		throw oauthStepError('callback', provider.id, 'validating the token response', error);
	}
	if (result.id_token) {
		try {
			await verifyIdTokenSignature(provider, as, response, result.id_token, timeout);
		} catch (error) {
			throw oauthStepError('callback', provider.id, "checking the ID token's signature", error);
		}
	}
	return { tokens: tokenSetFrom(result, ctx.now), claims: oauth.getValidatedIdTokenClaims(result) };
}

function isNonceMismatch(error: unknown): boolean {
	return (
		error instanceof oauth.OperationProcessingError &&
		error.code === oauth.JWT_CLAIM_COMPARISON &&
		(error.cause as { claim?: unknown } | undefined)?.claim === 'nonce'
	);
}

// The refresh-token grant itself (RFC 6749 §6), for ./token-refresh.ts, which imports this module
// on the first refresh only: an app whose providers never refresh never loads the OAuth library.

import * as oauth from 'oauth4webapi';
import type { RequestContext } from '../../request/context.js';
import { OAuthCallbackError } from '../../errors.js';
import type { OAuthConfig, TokenSet } from '../../types.js';
import { clientAuthentication, oauthClient } from './oauth-client.js';
import { oauthStepError } from './oauth-errors.js';
import { idpHttpOptions, idpTimeout } from './oauth-http.js';
import { verifyIdTokenSignature } from './oauth-id-token.js';
import { authorizationServer } from './oauth-metadata.js';
import { tokenSetFrom } from './oauth-profile.js';

/** How a refresh ended: new tokens, refused by the provider (4xx), or failed otherwise. */
export type RefreshResult = { ok: true; tokens: TokenSet } | { ok: false; refused: boolean };

/**
 * Spends `refreshToken` at `provider`'s token endpoint now; `persist` stores the new tokens before
 * they count. Never throws: a 4xx answer is `refused`, anything else a failure to retry later.
 *
 * @example
 * const result = await refreshNow(ctx, provider, account.refresh_token);
 */
export async function refreshNow(
	ctx: RequestContext,
	provider: OAuthConfig,
	refreshToken: string,
	persist?: (tokens: TokenSet) => Promise<void>
): Promise<RefreshResult> {
	const timeout = idpTimeout(provider);
	try {
		const as = await authorizationServer(provider, timeout);
		const client = oauthClient(provider);
		const response = await oauth.refreshTokenGrantRequest(
			as,
			client,
			clientAuthentication(provider),
			refreshToken,
			idpHttpOptions(as.token_endpoint, timeout)
		);
		const result = await oauth.processRefreshTokenResponse(as, client, response);
		if (result.id_token) await verifyIdTokenSignature(provider, as, response, result.id_token, timeout);
		const tokens = tokenSetFrom(result, ctx.now);
		if (persist) await persist(tokens);
		return { ok: true, tokens };
	} catch (error) {
		const refused = error instanceof oauth.ResponseBodyError && error.status >= 400 && error.status < 500;
		const failure = oauthStepError('callback', provider.id, 'refreshing the access token', error);
		if (refused) ctx.config.logger.warn('refresh-token-refused', failure.message);
		else ctx.config.logger.error(failure instanceof OAuthCallbackError ? failure : new OAuthCallbackError(failure.message, { cause: { err: failure } }));
		return { ok: false, refused };
	}
}

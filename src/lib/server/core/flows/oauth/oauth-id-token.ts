// The one ID token check oauth4webapi leaves to the caller: the signature. Asymmetric algorithms
// are checked against the provider's JWKS by oauth4webapi; HMAC ones (`HS256`…) by jose.

import { compactVerify, decodeProtectedHeader } from 'jose';
import * as oauth from 'oauth4webapi';
import type { OAuthConfig } from '../../types.js';
import { idpHttpOptions } from './oauth-http.js';

/**
 * Verifies the signature of the ID token in `response` (already processed by oauth4webapi, which
 * checked issuer, audience, expiry and nonce). Throws when it does not verify.
 *
 * @example
 * const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce });
 * if (tokens.id_token) await verifyIdTokenSignature(provider, as, response, tokens.id_token, 10_000);
 */
export async function verifyIdTokenSignature(
	provider: OAuthConfig,
	as: oauth.AuthorizationServer,
	response: Response,
	idToken: string,
	timeoutMs: number
): Promise<void> {
	const { alg } = decodeProtectedHeader(idToken);
	if (typeof alg === 'string' && alg.startsWith('HS')) {
		// HMAC ID tokens are keyed with the client secret (OIDC Core 10.1)
		await compactVerify(idToken, new TextEncoder().encode(provider.clientSecret ?? ''), { algorithms: [alg] });
		return;
	}
	await oauth.validateApplicationLevelSignature(as, response, idpHttpOptions(as.jwks_uri, timeoutMs));
}

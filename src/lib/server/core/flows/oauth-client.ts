// The OAuth client as oauth4webapi sees it: client metadata (with the provider's `client`
// overrides) and how the client authenticates at the token endpoint.

import * as oauth from 'oauth4webapi';
import type { OAuthConfig } from '../types.js';
import type { ClientAuthMethod } from './oauth-provider.js';

/**
 * oauth4webapi client metadata of `provider`: `client_id` plus the `client` overrides (for example
 * `id_token_signed_response_alg`, `userinfo_signed_response_alg`, `default_max_age`).
 *
 * @example
 * oauthClient(provider); // { client_id: "app", token_endpoint_auth_method: "client_secret_basic" }
 */
export function oauthClient(provider: OAuthConfig): oauth.Client {
	const overrides = Object.fromEntries(
		Object.entries(provider.client ?? {}).filter(([key]) => key !== 'client_id' && key !== 'client_secret')
	) as Record<string, oauth.JsonValue | undefined>;
	return { ...overrides, client_id: provider.clientId as string };
}

/**
 * How the client proves itself at the token endpoint: `client.token_endpoint_auth_method`
 * (`client_secret_basic` when a secret is set, else `none`; normalised at start-up).
 *
 * @example
 * const auth = clientAuthentication(provider); // ClientSecretBasic(provider.clientSecret)
 */
export function clientAuthentication(provider: OAuthConfig): oauth.ClientAuth {
	const method = (provider.client?.token_endpoint_auth_method ??
		(provider.clientSecret ? 'client_secret_basic' : 'none')) as ClientAuthMethod;
	const secret = provider.clientSecret ?? '';
	switch (method) {
		case 'client_secret_post':
			return oauth.ClientSecretPost(secret);
		case 'client_secret_jwt':
			return oauth.ClientSecretJwt(secret);
		case 'none':
			return oauth.None();
		default:
			return oauth.ClientSecretBasic(secret);
	}
}

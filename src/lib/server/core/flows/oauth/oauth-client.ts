// The OAuth client as oauth4webapi sees it: client metadata (with the provider's `client`
// overrides) and how the client authenticates at the token endpoint.

import * as oauth from 'oauth4webapi';
import type { OAuthConfig } from '../../types.js';
import { clientSecretBasic, privateKeyJwt } from './client-auth.js';
import { defaultClientAuthMethod, type ClientAuthMethod } from './oauth-provider.js';

/** `client` options that are kitgate's, never client metadata (the private key stays here). */
const NOT_METADATA = new Set(['client_id', 'client_secret', 'private_key', 'private_key_kid']);

/**
 * oauth4webapi client metadata of `provider`: `client_id` plus the `client` overrides (for example
 * `id_token_signed_response_alg`, `userinfo_signed_response_alg`, `default_max_age`).
 *
 * @example
 * oauthClient(provider); // { client_id: "app", token_endpoint_auth_method: "client_secret_basic" }
 */
export function oauthClient(provider: OAuthConfig): oauth.Client {
	const overrides = Object.fromEntries(
		Object.entries(provider.client ?? {}).filter(([key]) => !NOT_METADATA.has(key))
	) as Record<string, oauth.JsonValue | undefined>;
	return { ...overrides, client_id: provider.clientId as string };
}

/**
 * How the client proves itself at the token endpoint (code exchange and refresh):
 * `client.token_endpoint_auth_method`, checked and defaulted at start-up (`normalizeOAuthProvider`).
 * `client_secret_basic` encodes the credentials so that servers which percent-decode them and
 * servers which do not both accept them (see `basicCredential`).
 *
 * @example
 * const auth = clientAuthentication(provider); // clientSecretBasic(provider.clientSecret)
 */
export function clientAuthentication(provider: OAuthConfig): oauth.ClientAuth {
	const method = (provider.client?.token_endpoint_auth_method ?? defaultClientAuthMethod(provider)) as ClientAuthMethod;
	const secret = provider.clientSecret ?? '';
	switch (method) {
		case 'client_secret_basic':
			return clientSecretBasic(secret);
		case 'client_secret_post':
			return oauth.ClientSecretPost(secret);
		case 'client_secret_jwt':
			return oauth.ClientSecretJwt(secret);
		case 'private_key_jwt':
			return privateKeyJwt(provider.client ?? {});
		case 'none':
			return oauth.None();
		default:
			throw new TypeError(`unsupported client.token_endpoint_auth_method ${JSON.stringify(method satisfies never)}`);
	}
}

// Okta (OpenID Connect) sign-in against your Okta org or custom authorization server.
// Export path: `kitgate/providers/okta`.

import type { OAuthConfig } from '../core/types.js';
import type { OAuthUserConfig } from './oauth-user-config.js';
import { selfHostedOidcProvider } from './self-hosted-oidc.js';

/** The claims of an Okta ID token (scopes `openid email profile`). */
export interface OktaProfile {
	iss: string;
	aud: string;
	sub: string;
	ver?: number;
	iat: number;
	exp: number;
	jti?: string;
	amr?: string[];
	idp?: string;
	nonce?: string;
	auth_time?: number;
	at_hash?: string;
	name?: string;
	preferred_username?: string;
	given_name?: string;
	family_name?: string;
	zoneinfo?: string;
	locale?: string;
	updated_at?: number;
	email?: string;
	email_verified?: boolean;
	picture?: string;
	[claim: string]: unknown;
}

/**
 * Okta sign-in (OIDC, id `okta`, scopes `openid email profile`).
 *
 * `issuer` is your org URL or authorization server, e.g.
 * `https://dev-123456.okta.com/oauth2/default` (default `AUTH_OKTA_ISSUER`). In the app
 * integration, add the sign-in redirect URI `{origin}{basePath}/callback/okta`, e.g.
 * `https://example.com/auth/callback/okta`. `clientId`/`clientSecret` default to
 * `AUTH_OKTA_ID`/`AUTH_OKTA_SECRET`.
 *
 * @example
 * import Okta from "kitgate/providers/okta";
 * const config = { providers: [Okta({ issuer: "https://dev-123456.okta.com/oauth2/default" })] };
 */
export default function Okta(options: OAuthUserConfig<OktaProfile> = {}): OAuthConfig {
	return selfHostedOidcProvider<OktaProfile>(
		{ id: 'okta', name: 'Okta', brandColor: '#007dc1', issuerExample: 'https://dev-123456.okta.com/oauth2/default' },
		options
	);
}

export { Okta };

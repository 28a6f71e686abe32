// Keycloak (OpenID Connect) sign-in against a realm of your Keycloak server.
// Export path: `kitgate/providers/keycloak`.

import type { OAuthConfig } from '../core/types.js';
import type { OAuthUserConfig } from './oauth-user-config.js';
import { selfHostedOidcProvider } from './self-hosted-oidc.js';

/** The claims of a Keycloak ID token with the default `profile` and `email` client scopes. */
export interface KeycloakProfile {
	exp: number;
	iat: number;
	auth_time?: number;
	jti: string;
	iss: string;
	aud: string;
	sub: string;
	typ: 'ID';
	azp: string;
	nonce?: string;
	session_state?: string;
	sid?: string;
	at_hash?: string;
	acr?: string;
	email_verified: boolean;
	name?: string;
	preferred_username: string;
	given_name?: string;
	family_name?: string;
	email?: string;
	picture?: string;
	[claim: string]: unknown;
}

/**
 * Keycloak sign-in (OIDC, id `keycloak`, scopes `openid email profile`).
 *
 * `issuer` is the realm URL, e.g. `https://kc.example.com/realms/myrealm` (default
 * `AUTH_KEYCLOAK_ISSUER`). In the realm's client settings, add the valid redirect URI
 * `{origin}{basePath}/callback/keycloak`, e.g. `https://example.com/auth/callback/keycloak`.
 * `clientId`/`clientSecret` default to `AUTH_KEYCLOAK_ID`/`AUTH_KEYCLOAK_SECRET`.
 *
 * @example
 * import Keycloak from "kitgate/providers/keycloak";
 * const config = { providers: [Keycloak({ issuer: "https://kc.example.com/realms/myrealm" })] };
 */
export default function Keycloak(options: OAuthUserConfig<KeycloakProfile> = {}): OAuthConfig {
	return selfHostedOidcProvider<KeycloakProfile>(
		{ id: 'keycloak', name: 'Keycloak', brandColor: '#008aaa', issuerExample: 'https://kc.example.com/realms/myrealm' },
		options
	);
}

export { Keycloak };

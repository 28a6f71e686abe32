// Keycloak (OpenID Connect) sign-in against a realm of your Keycloak server.
// Export path: `kitgate/providers/keycloak`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

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

const BRAND = '#008aaa';

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
	return mergeProvider<KeycloakProfile>(
		{
			id: 'keycloak',
			name: 'Keycloak',
			type: 'oidc',
			authorization: { params: { scope: 'openid email profile' } },
			profile: (profile) => ({
				id: profile.sub,
				name: profile.name ?? profile.preferred_username ?? null,
				email: profile.email ?? null,
				image: profile.picture ?? null
			}),
			style: { brandColor: BRAND, logo: letterLogo('K', BRAND) }
		},
		options,
		undefined,
		{ issuerExample: 'https://kc.example.com/realms/myrealm' }
	);
}

export { Keycloak };

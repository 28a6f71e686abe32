// Okta (OpenID Connect) sign-in against your Okta org or custom authorization server.
// Export path: `kitgate/providers/okta`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

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

const BRAND = '#007dc1';

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
	return mergeProvider<OktaProfile>(
		{
			id: 'okta',
			name: 'Okta',
			type: 'oidc',
			authorization: { params: { scope: 'openid email profile' } },
			profile: (profile) => ({
				id: profile.sub,
				name: profile.name ?? profile.preferred_username ?? null,
				email: profile.email ?? null,
				image: profile.picture ?? null
			}),
			style: { brandColor: BRAND, logo: letterLogo('O', BRAND) }
		},
		options,
		undefined,
		{ issuerExample: 'https://dev-123456.okta.com/oauth2/default' }
	);
}

export { Okta };

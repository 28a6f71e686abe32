// Auth0 (OpenID Connect) sign-in against your Auth0 tenant or custom domain.
// Export path: `kitgate/providers/auth0`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/** The claims of an Auth0 ID token (scopes `openid email profile`). */
export interface Auth0Profile {
	iss: string;
	aud: string;
	/** e.g. `auth0|64f…` or `google-oauth2|10…`. */
	sub: string;
	iat: number;
	exp: number;
	sid?: string;
	nonce?: string;
	nickname?: string;
	name?: string;
	picture?: string;
	updated_at?: string;
	email?: string;
	email_verified?: boolean;
	given_name?: string;
	family_name?: string;
	[claim: string]: unknown;
}

const BRAND = '#eb5424';

/**
 * Auth0 sign-in (OIDC, id `auth0`, scopes `openid email profile`).
 *
 * `issuer` is the tenant domain, e.g. `https://my-tenant.us.auth0.com/` (default
 * `AUTH_AUTH0_ISSUER`; a trailing slash is added because Auth0's issuer has one). In the
 * application settings, add the allowed callback URL `{origin}{basePath}/callback/auth0`, e.g.
 * `https://example.com/auth/callback/auth0`. `clientId`/`clientSecret` default to
 * `AUTH_AUTH0_ID`/`AUTH_AUTH0_SECRET`.
 *
 * @example
 * import Auth0 from "kitgate/providers/auth0";
 * const config = { providers: [Auth0({ issuer: "https://my-tenant.us.auth0.com" })] };
 */
export default function Auth0(options: OAuthUserConfig<Auth0Profile> = {}): OAuthConfig {
	return mergeProvider<Auth0Profile>(
		{
			id: 'auth0',
			name: 'Auth0',
			type: 'oidc',
			authorization: { params: { scope: 'openid email profile' } },
			profile: (profile) => ({
				id: profile.sub,
				name: profile.name ?? profile.nickname ?? null,
				email: profile.email ?? null,
				image: profile.picture ?? null
			}),
			style: { brandColor: BRAND, logo: letterLogo('A', BRAND) }
		},
		options,
		undefined,
		{
			issuerExample: 'https://my-tenant.us.auth0.com/',
			// Auth0's discovery document names the issuer with a trailing slash; discovery compares exactly
			finish: (provider) =>
				provider.issuer && !provider.issuer.endsWith('/') ? { ...provider, issuer: `${provider.issuer}/` } : provider
		}
	);
}

export { Auth0 };

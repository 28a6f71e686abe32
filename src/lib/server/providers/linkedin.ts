// LinkedIn (Sign In with LinkedIn using OpenID Connect) sign-in.
// Export path: `kitgate/providers/linkedin`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/** The claims of a LinkedIn ID token / userinfo (scopes `openid profile email`). */
export interface LinkedInProfile {
	iss?: string;
	aud?: string;
	iat?: number;
	exp?: number;
	sub: string;
	name: string;
	given_name: string;
	family_name: string;
	picture?: string;
	locale?: { country: string; language: string } | string;
	email?: string;
	email_verified?: boolean;
	[claim: string]: unknown;
}

const BRAND = '#0a66c2';

/**
 * LinkedIn sign-in (OIDC, id `linkedin`, issuer `https://www.linkedin.com/oauth`, scopes
 * `openid profile email`; needs the "Sign In with LinkedIn using OpenID Connect" product).
 *
 * In the LinkedIn developer portal → your app → Auth, add the redirect URL
 * `{origin}{basePath}/callback/linkedin`, e.g. `https://example.com/auth/callback/linkedin`.
 * `clientId`/`clientSecret` default to `AUTH_LINKEDIN_ID`/`AUTH_LINKEDIN_SECRET`.
 *
 * @example
 * import LinkedIn from "kitgate/providers/linkedin";
 * const config = { providers: [LinkedIn()] };
 */
export default function LinkedIn(options: OAuthUserConfig<LinkedInProfile> = {}): OAuthConfig {
	return mergeProvider<LinkedInProfile>(
		{
			id: 'linkedin',
			name: 'LinkedIn',
			type: 'oidc',
			issuer: 'https://www.linkedin.com/oauth',
			wellKnown: 'https://www.linkedin.com/oauth/.well-known/openid-configuration',
			authorization: { params: { scope: 'openid profile email' } },
			// LinkedIn supports PKCE for native apps only; web apps use state
			checks: ['state'],
			client: { token_endpoint_auth_method: 'client_secret_post' },
			profile: (profile) => ({
				id: profile.sub,
				name: profile.name ?? null,
				email: profile.email ?? null,
				image: profile.picture ?? null
			}),
			style: { brandColor: BRAND, logo: letterLogo('in', BRAND) }
		},
		options,
		undefined,
		// no public clients: the code exchange needs the secret
		{ needsSecret: true }
	);
}

export { LinkedIn };

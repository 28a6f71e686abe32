// Google (OpenID Connect) sign-in: discovery from accounts.google.com, user from the ID token.
// Export path: `kitgate/providers/google`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/** The claims of a Google ID token (scopes `openid email profile`). */
export interface GoogleProfile {
	iss: string;
	azp: string;
	aud: string;
	sub: string;
	email: string;
	email_verified: boolean;
	at_hash?: string;
	name: string;
	picture: string;
	given_name: string;
	family_name?: string;
	locale?: string;
	/** Google Workspace domain of the account, when it has one. */
	hd?: string;
	nonce?: string;
	iat: number;
	exp: number;
	[claim: string]: unknown;
}

const BRAND = '#1a73e8';

/**
 * Google sign-in (OIDC, id `google`, issuer `https://accounts.google.com`, scopes `openid email profile`).
 *
 * In Google Cloud console → Credentials, create an OAuth client ID of type "Web application"
 * with the authorized redirect URI `{origin}{basePath}/callback/google`, e.g.
 * `https://example.com/auth/callback/google`. `clientId`/`clientSecret` default to
 * `AUTH_GOOGLE_ID`/`AUTH_GOOGLE_SECRET`. To get a refresh token, add
 * `authorization: { params: { access_type: "offline", prompt: "consent" } }`.
 *
 * @example
 * import Google from "kitgate/providers/google";
 * const config = { providers: [Google({ authorization: { params: { hd: "example.com" } } })] };
 */
export default function Google(options: OAuthUserConfig<GoogleProfile> = {}): OAuthConfig {
	return mergeProvider<GoogleProfile>(
		{
			id: 'google',
			name: 'Google',
			type: 'oidc',
			issuer: 'https://accounts.google.com',
			authorization: { params: { scope: 'openid email profile' } },
			profile: (profile) => ({
				id: profile.sub,
				name: profile.name ?? null,
				email: profile.email ?? null,
				image: profile.picture ?? null
			}),
			style: { brandColor: BRAND, logo: letterLogo('G', BRAND) }
		},
		options,
		undefined,
		// no public clients: the code exchange needs the secret
		{ needsSecret: true }
	);
}

export { Google };

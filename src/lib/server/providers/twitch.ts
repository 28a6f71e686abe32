// Twitch (OpenID Connect) sign-in; asks for the email, picture and name claims in the ID token.
// Export path: `kitgate/providers/twitch`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/** The claims of a Twitch ID token when `email`, `picture` and `preferred_username` are requested. */
export interface TwitchProfile {
	iss: 'https://id.twitch.tv/oauth2';
	aud: string;
	azp?: string;
	sub: string;
	exp: number;
	iat: number;
	nonce?: string;
	preferred_username: string;
	email?: string;
	email_verified?: boolean;
	picture?: string;
	updated_at?: string;
	[claim: string]: unknown;
}

const BRAND = '#9146ff';
/** Twitch puts only claims asked for with the `claims` parameter into the ID token. */
const CLAIMS = JSON.stringify({
	id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
	userinfo: { email: null, email_verified: null, picture: null, preferred_username: null }
});

/**
 * Twitch sign-in (OIDC, id `twitch`, issuer `https://id.twitch.tv/oauth2`, scopes `openid user:read:email`).
 *
 * In the Twitch developer console, register the OAuth redirect URL
 * `{origin}{basePath}/callback/twitch`, e.g. `https://example.com/auth/callback/twitch`.
 * `clientId`/`clientSecret` default to `AUTH_TWITCH_ID`/`AUTH_TWITCH_SECRET`.
 *
 * @example
 * import Twitch from "kitgate/providers/twitch";
 * const config = { providers: [Twitch()] };
 */
export default function Twitch(options: OAuthUserConfig<TwitchProfile> = {}): OAuthConfig {
	return mergeProvider<TwitchProfile>(
		{
			id: 'twitch',
			name: 'Twitch',
			type: 'oidc',
			issuer: 'https://id.twitch.tv/oauth2',
			authorization: { params: { scope: 'openid user:read:email', claims: CLAIMS } },
			client: { token_endpoint_auth_method: 'client_secret_post' },
			profile: (profile) => ({
				id: profile.sub,
				name: profile.preferred_username ?? null,
				email: profile.email ?? null,
				image: profile.picture ?? null
			}),
			style: { brandColor: BRAND, logo: letterLogo('T', BRAND) }
		},
		options,
		undefined,
		// no public clients: the code exchange needs the secret
		{ needsSecret: true }
	);
}

export { Twitch };

// Facebook Login (OAuth 2) with the Graph API `/me` profile.
// Export path: `kitgate/providers/facebook`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/** `GET /me?fields=id,name,email,picture` of the Graph API. */
export interface FacebookProfile {
	id: string;
	name?: string;
	first_name?: string;
	last_name?: string;
	/** Absent when the user has no confirmed email or did not grant `email`. */
	email?: string;
	picture?: { data: { height?: number; width?: number; is_silhouette?: boolean; url: string } };
	[key: string]: unknown;
}

const BRAND = '#1877f2';
const GRAPH_VERSION = 'v21.0';
const ME_URL = `https://graph.facebook.com/${GRAPH_VERSION}/me`;

/**
 * Facebook sign-in (OAuth 2, id `facebook`, scopes `email public_profile`).
 *
 * In Meta for Developers → your app → Facebook Login → Settings, add the valid OAuth redirect
 * URI `{origin}{basePath}/callback/facebook`, e.g. `https://example.com/auth/callback/facebook`.
 * `clientId`/`clientSecret` (App ID/App secret) default to `AUTH_FACEBOOK_ID`/`AUTH_FACEBOOK_SECRET`.
 * Profile fields are chosen with `userinfo: { params: { fields: "…" } }`.
 *
 * @example
 * import Facebook from "kitgate/providers/facebook";
 * const config = { providers: [Facebook({ userinfo: { params: { fields: "id,name,email,picture.width(256)" } } })] };
 */
export default function Facebook(options: OAuthUserConfig<FacebookProfile> = {}): OAuthConfig {
	return mergeProvider<FacebookProfile>(
		{
			id: 'facebook',
			name: 'Facebook',
			type: 'oauth',
			authorization: {
				url: `https://www.facebook.com/${GRAPH_VERSION}/dialog/oauth`,
				params: { scope: 'email public_profile' }
			},
			token: `https://graph.facebook.com/${GRAPH_VERSION}/oauth/access_token`,
			// the Graph API answers with the fields asked for in the query
			userinfo: { url: ME_URL, params: { fields: 'id,name,email,picture' } },
			checks: ['pkce', 'state'],
			client: { token_endpoint_auth_method: 'client_secret_post' },
			profile: (profile) => ({
				id: profile.id,
				name: profile.name ?? null,
				email: profile.email ?? null,
				image: profile.picture?.data?.url ?? null
			}),
			style: { brandColor: BRAND, logo: letterLogo('f', BRAND) }
		},
		options,
		undefined,
		// no public clients: the code exchange needs the secret
		{ needsSecret: true }
	);
}

export { Facebook };

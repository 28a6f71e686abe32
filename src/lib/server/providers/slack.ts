// Slack ("Sign in with Slack", OpenID Connect) sign-in.
// Export path: `kitgate/providers/slack`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/** The claims of a Slack ID token (scopes `openid profile email`). */
export interface SlackProfile {
	iss: string;
	sub: string;
	aud: string;
	exp: number;
	iat: number;
	auth_time?: number;
	nonce?: string;
	at_hash?: string;
	email: string;
	email_verified: boolean;
	date_email_verified?: number;
	name: string;
	picture: string;
	given_name?: string;
	family_name?: string;
	locale?: string;
	'https://slack.com/user_id': string;
	'https://slack.com/team_id': string;
	'https://slack.com/team_name'?: string;
	'https://slack.com/team_domain'?: string;
	'https://slack.com/user_image_192'?: string;
	'https://slack.com/team_image_230'?: string;
	[claim: string]: unknown;
}

const BRAND = '#4a154b';

/**
 * Slack sign-in (OIDC, id `slack`, issuer `https://slack.com`, scopes `openid profile email`).
 *
 * In your Slack app's OAuth & Permissions page, add the redirect URL
 * `{origin}{basePath}/callback/slack`, e.g. `https://example.com/auth/callback/slack` (HTTPS
 * only). `clientId`/`clientSecret` default to `AUTH_SLACK_ID`/`AUTH_SLACK_SECRET`.
 *
 * @example
 * import Slack from "kitgate/providers/slack";
 * const config = { providers: [Slack()] };
 */
export default function Slack(options: OAuthUserConfig<SlackProfile> = {}): OAuthConfig {
	return mergeProvider<SlackProfile>(
		{
			id: 'slack',
			name: 'Slack',
			type: 'oidc',
			issuer: 'https://slack.com',
			authorization: { params: { scope: 'openid profile email' } },
			client: { token_endpoint_auth_method: 'client_secret_post' },
			profile: (profile) => ({
				id: profile['https://slack.com/user_id'] ?? profile.sub,
				name: profile.name ?? null,
				email: profile.email ?? null,
				image: profile.picture ?? null
			}),
			style: { brandColor: BRAND, logo: letterLogo('S', BRAND) }
		},
		options,
		undefined,
		// no public clients: the code exchange needs the secret
		{ needsSecret: true }
	);
}

export { Slack };

// Amazon Cognito (OpenID Connect) sign-in against a user pool.
// Export path: `kitgate/providers/cognito`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/** The claims of a Cognito user pool ID token. */
export interface CognitoProfile {
	sub: string;
	iss: string;
	aud: string;
	token_use: 'id';
	auth_time: number;
	iat: number;
	exp: number;
	nonce?: string;
	at_hash?: string;
	'cognito:username': string;
	'cognito:groups'?: string[];
	email?: string;
	email_verified?: boolean;
	name?: string;
	given_name?: string;
	family_name?: string;
	picture?: string;
	phone_number?: string;
	phone_number_verified?: boolean;
	[claim: string]: unknown;
}

const BRAND = '#dd344c';

/**
 * Amazon Cognito sign-in (OIDC, id `cognito`, scopes `openid email profile`).
 *
 * `issuer` is the user pool URL, `https://cognito-idp.<region>.amazonaws.com/<userPoolId>`
 * (default `AUTH_COGNITO_ISSUER`). In the pool's app client (hosted UI), add the allowed callback
 * URL `{origin}{basePath}/callback/cognito`, e.g. `https://example.com/auth/callback/cognito`.
 * `clientId`/`clientSecret` default to `AUTH_COGNITO_ID`/`AUTH_COGNITO_SECRET`.
 *
 * @example
 * import Cognito from "kitgate/providers/cognito";
 * const config = { providers: [Cognito({ issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI" })] };
 */
export default function Cognito(options: OAuthUserConfig<CognitoProfile> = {}): OAuthConfig {
	return mergeProvider<CognitoProfile>(
		{
			id: 'cognito',
			name: 'Cognito',
			type: 'oidc',
			authorization: { params: { scope: 'openid email profile' } },
			profile: (profile) => ({
				id: profile.sub,
				name: profile.name ?? profile['cognito:username'] ?? null,
				email: profile.email ?? null,
				image: profile.picture ?? null
			}),
			style: { brandColor: BRAND, logo: letterLogo('C', BRAND) }
		},
		options,
		undefined,
		{ issuerExample: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI' }
	);
}

export { Cognito };

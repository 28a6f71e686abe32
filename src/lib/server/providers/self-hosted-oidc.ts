// What Keycloak and Okta share: an OpenID Connect provider on the customer's own server (so `issuer`
// is required), scopes `openid email profile`, the user from standard claims. Internal to `kitgate/providers/*`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/** The ID token claims the user is made of. */
export interface StandardUserClaims {
	sub: string;
	name?: string;
	preferred_username?: string;
	email?: string;
	picture?: string;
}

/** What tells one such provider from another. */
export interface SelfHostedOidcPreset {
	id: string;
	/** Shown on the sign-in button; its first letter is the logo. */
	name: string;
	brandColor: string;
	/** An issuer URL of this product, for the error that asks for one. */
	issuerExample: string;
}

/**
 * An OIDC provider with the user `{ id: sub, name: name ?? preferred_username, email, image: picture }`.
 *
 * @example
 * return selfHostedOidcProvider({ id: 'okta', name: 'Okta', brandColor: '#007dc1', issuerExample: 'https://dev-123456.okta.com/oauth2/default' }, options);
 */
export function selfHostedOidcProvider<P extends StandardUserClaims>(preset: SelfHostedOidcPreset, options: OAuthUserConfig<P>): OAuthConfig {
	return mergeProvider<P>(
		{
			id: preset.id,
			name: preset.name,
			type: 'oidc',
			authorization: { params: { scope: 'openid email profile' } },
			profile: (profile) => ({
				id: profile.sub,
				name: profile.name ?? profile.preferred_username ?? null,
				email: profile.email ?? null,
				image: profile.picture ?? null
			}),
			style: { brandColor: preset.brandColor, logo: letterLogo(preset.name[0]!, preset.brandColor) }
		},
		options,
		undefined,
		{ issuerExample: preset.issuerExample }
	);
}

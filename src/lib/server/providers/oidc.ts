// A generic OpenID Connect provider: any compliant identity provider, configured by its issuer.
// Export path: `kitgate/providers/oidc`.

import type { OAuthConfig, Profile, User } from '../core/types.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/**
 * Options of `OIDC()`: `issuer` (discovery from `{issuer}/.well-known/openid-configuration`)
 * or `wellKnown`, plus any provider field. `id` defaults to `oidc`, `name` to `OIDC`.
 */
export type OIDCOptions<P = Profile> = OAuthUserConfig<P> & { id?: string; name?: string; issuer?: string };

/**
 * A generic OIDC provider (scopes `openid email profile`, user from the ID token's standard
 * claims `sub`, `name`/`preferred_username`, `email`, `picture`).
 *
 * Register the redirect URI `{origin}{basePath}/callback/<id>` with the identity provider, e.g.
 * `https://example.com/auth/callback/corporate-sso`. `clientId`/`clientSecret`/`issuer` default
 * to `AUTH_<ID>_ID`/`_SECRET`/`_ISSUER` (id upper-cased, `-` as `_`: `AUTH_CORPORATE_SSO_ID`).
 *
 * @example
 * import OIDC from "kitgate/providers/oidc";
 * const config = {
 *   providers: [OIDC({ id: "corporate-sso", name: "Corporate SSO", issuer: "https://sso.example.com", clientId, clientSecret })]
 * };
 */
export default function OIDC<P extends Profile = Profile>(options: OIDCOptions<P> = {}): OAuthConfig {
	return mergeProvider<P>(
		{
			id: 'oidc',
			name: 'OIDC',
			type: 'oidc',
			authorization: { params: { scope: 'openid email profile' } },
			profile: (profile) => standardClaimsUser(profile)
		},
		options,
		undefined,
		{ issuerExample: 'https://sso.example.com' }
	);
}

/** `{ id, name, email, image }` from OIDC standard claims. */
function standardClaimsUser(profile: Profile): User {
	const id = profile.sub ?? profile.id;
	return {
		id: id === undefined || id === null ? undefined : String(id),
		name: profile.name ?? profile.preferred_username ?? profile.nickname ?? null,
		email: profile.email ?? null,
		image: typeof profile.picture === 'string' ? profile.picture : null
	};
}

export { OIDC };

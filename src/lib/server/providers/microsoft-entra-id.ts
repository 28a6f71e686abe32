// Microsoft Entra ID (formerly Azure AD) sign-in over OpenID Connect, for one tenant or many.
// Export path: `kitgate/providers/microsoft-entra-id`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { exactKeys } from '../core/config/option-keys.js';
import { mergeProvider, OAUTH_USER_CONFIG_KEYS, type OAuthUserConfig } from './oauth-user-config.js';

/** The claims of a Microsoft identity platform (v2.0) ID token. */
export interface MicrosoftEntraIDProfile {
	aud: string;
	iss: string;
	iat: number;
	nbf?: number;
	exp: number;
	/** Pairwise per application. */
	sub: string;
	/** The user's object id in the tenant (the same for every application). */
	oid: string;
	/** The tenant id. */
	tid: string;
	name?: string;
	preferred_username?: string;
	email?: string;
	given_name?: string;
	family_name?: string;
	nonce?: string;
	ver?: '2.0';
	[claim: string]: unknown;
}

/** Options of `MicrosoftEntraID()`: the common provider options, plus the tenant. */
export type MicrosoftEntraIDOptions = OAuthUserConfig<MicrosoftEntraIDProfile> & {
	/**
	 * Directory (tenant) id or domain; builds `issuer` as
	 * `https://login.microsoftonline.com/<tenantId>/v2.0`. An explicit `issuer` wins.
	 */
	tenantId?: string;
};

/** Every option of `MicrosoftEntraID()`, checked against `MicrosoftEntraIDOptions` by the compiler. */
const ENTRA_OPTION_KEYS = exactKeys<MicrosoftEntraIDOptions>()([...OAUTH_USER_CONFIG_KEYS, 'tenantId']);

const BRAND = '#0078d4';

/**
 * Microsoft Entra ID sign-in (OIDC, id `microsoft-entra-id`, scopes `openid profile email User.Read`).
 *
 * Register an application (App registrations) with the Web redirect URI
 * `{origin}{basePath}/callback/microsoft-entra-id`, e.g.
 * `https://example.com/auth/callback/microsoft-entra-id`. `clientId`/`clientSecret`/`issuer`
 * default to `AUTH_MICROSOFT_ENTRA_ID_ID`/`_SECRET`/`_ISSUER`. Without `tenantId`, `issuer` or
 * the issuer variable, the `common` (multi-tenant) endpoint is used; its ID tokens name each
 * user's own tenant as issuer, so single-tenant apps should always give their tenant.
 *
 * @example
 * import MicrosoftEntraID from "kitgate/providers/microsoft-entra-id";
 * const config = { providers: [MicrosoftEntraID({ tenantId: "00000000-0000-0000-0000-000000000000" })] };
 */
export default function MicrosoftEntraID(options: MicrosoftEntraIDOptions = {}): OAuthConfig {
	const { tenantId, ...rest } = options;
	if (tenantId && !rest.issuer) rest.issuer = entraIssuer(tenantId);
	return mergeProvider<MicrosoftEntraIDProfile>(
		{
			id: 'microsoft-entra-id',
			name: 'Microsoft Entra ID',
			type: 'oidc',
			issuer: entraIssuer('common'),
			authorization: { params: { scope: 'openid profile email User.Read' } },
			profile: (profile) => ({
				id: profile.sub,
				name: profile.name ?? profile.preferred_username ?? null,
				email: profile.email ?? profile.preferred_username ?? null,
				image: null
			}),
			style: { brandColor: BRAND, logo: letterLogo('M', BRAND) }
		},
		rest,
		undefined,
		{ optionKeys: ENTRA_OPTION_KEYS }
	);
}

function entraIssuer(tenant: string): string {
	return `https://login.microsoftonline.com/${encodeURIComponent(tenant)}/v2.0`;
}

export { MicrosoftEntraID };

// Sign in with Apple (OpenID Connect): `form_post` response mode, user from the ID token.
// Export path: `kitgate/providers/apple`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/** The `user` form field Apple posts on the first authorization only (scope `name email`). */
export interface AppleUserForm {
	name?: { firstName?: string; lastName?: string };
	email?: string;
}

/** The claims of an Apple ID token. */
export interface AppleProfile {
	iss: 'https://appleid.apple.com';
	aud: string;
	exp: number;
	iat: number;
	/** Stable per team: the user's id. */
	sub: string;
	at_hash?: string;
	email?: string;
	/** Apple sends `"true"`/`"false"` strings or booleans. */
	email_verified?: 'true' | 'false' | boolean;
	is_private_email?: 'true' | 'false' | boolean;
	real_user_status?: 0 | 1 | 2;
	nonce?: string;
	nonce_supported?: boolean;
	auth_time?: number;
	/** The first callback's `user` form field (`formPostUser`): unsigned, so only the name is used. */
	user?: AppleUserForm;
	[claim: string]: unknown;
}

const BRAND = '#000000';

/**
 * Sign in with Apple (OIDC, id `apple`, issuer `https://appleid.apple.com`, scopes `name email`,
 * `response_mode=form_post`).
 *
 * Register a Services ID with the return URL `{origin}{basePath}/callback/apple`, e.g.
 * `https://example.com/auth/callback/apple` (Apple accepts HTTPS URLs only). `clientId` is the
 * Services ID; `clientSecret` is a JWT you sign with your Sign in with Apple key (ES256, at most
 * six months valid). They default to `AUTH_APPLE_ID`/`AUTH_APPLE_SECRET`.
 *
 * Apple returns the user with a cross-site form POST, which browsers send without `SameSite=Lax`
 * cookies: give the check cookies `sameSite: "none"` (HTTPS only). Apple puts no name in the ID
 * token; it posts it once, as the `user` form field of the first sign-in (`formPostUser: true`).
 * That field is unsigned: the user's email comes from the ID token only.
 *
 * @example
 * import Apple from "kitgate/providers/apple";
 * const none = { options: { sameSite: "none", secure: true } } as const;
 * const config = { providers: [Apple()], cookies: { state: none, nonce: none } };
 */
export default function Apple(options: OAuthUserConfig<AppleProfile> = {}): OAuthConfig {
	return mergeProvider<AppleProfile>(
		{
			id: 'apple',
			name: 'Apple',
			type: 'oidc',
			issuer: 'https://appleid.apple.com',
			authorization: { params: { scope: 'name email', response_mode: 'form_post' } },
			// Apple documents state and nonce, not PKCE
			checks: ['state', 'nonce'],
			client: { token_endpoint_auth_method: 'client_secret_post' },
			// Apple documents the `user` form field: the only place the name is sent
			formPostUser: true,
			profile: (profile) => ({
				id: profile.sub,
				name: appleName(profile.user),
				// the signed ID token's email only: anyone can post a `user` field with any email
				email: profile.email ?? null,
				image: null
			}),
			style: { brandColor: BRAND, logo: letterLogo('A', BRAND) }
		},
		options,
		undefined,
		// no public clients: the code exchange needs the secret
		{ needsSecret: true }
	);
}

function appleName(user: AppleUserForm | undefined): string | null {
	const parts = [user?.name?.firstName, user?.name?.lastName].filter((part) => typeof part === 'string' && part);
	return parts.length ? parts.join(' ') : null;
}

export { Apple };

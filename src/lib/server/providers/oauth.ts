// A generic OAuth 2 provider: explicit authorization, token and userinfo endpoints.
// Export path: `kitgate/providers/oauth`.

import { InvalidConfiguration } from '../core/errors.js';
import type { OAuthConfig, Profile, User } from '../core/types.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/** Options of `OAuth()`: `id`, `name` and the three endpoints are needed; any provider field may be set. */
export type OAuthOptions<P = Profile> = OAuthUserConfig<P> & { id: string; name?: string };

/**
 * A generic OAuth 2 provider (PKCE by default). The default `profile()` reads the common field
 * names of userinfo records: `sub` or `id`, `name`/`preferred_username`/`login`, `email`,
 * `picture`/`avatar_url`/`image`.
 *
 * Register the redirect URI `{origin}{basePath}/callback/<id>` with the service, e.g.
 * `https://example.com/auth/callback/acme`. `clientId`/`clientSecret` default to
 * `AUTH_<ID>_ID`/`AUTH_<ID>_SECRET`.
 *
 * @example
 * import OAuth from "kitgate/providers/oauth";
 * const Acme = OAuth({
 *   id: "acme", name: "Acme",
 *   authorization: { url: "https://id.acme.test/authorize", params: { scope: "profile" } },
 *   token: "https://id.acme.test/token",
 *   userinfo: "https://api.acme.test/me"
 * });
 */
export default function OAuth<P extends Profile = Profile>(options: OAuthOptions<P>): OAuthConfig {
	if (!options || typeof options.id !== 'string' || !options.id) {
		throw new InvalidConfiguration('OAuth() needs an `id`, e.g. OAuth({ id: "acme", name: "Acme", authorization, token, userinfo }).');
	}
	const provider = mergeProvider<P>(
		{ id: options.id, name: options.name ?? options.id, type: 'oauth', profile: (profile) => commonFieldsUser(profile) },
		options
	);
	for (const endpoint of ['authorization', 'token', 'userinfo'] as const) {
		if (!provider[endpoint] && !provider.issuer && !provider.wellKnown) {
			throw new InvalidConfiguration(`OAuth provider "${provider.id}" needs a \`${endpoint}\` endpoint (or \`issuer\` for discovery).`);
		}
	}
	return provider;
}

function commonFieldsUser(profile: Profile): User {
	const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
	const id = profile.sub ?? profile.id;
	return {
		id: id === undefined || id === null ? undefined : String(id),
		name: text(profile.name) ?? text(profile.preferred_username) ?? text(profile.login) ?? null,
		email: text(profile.email) ?? null,
		image: text(profile.picture) ?? text(profile.avatar_url) ?? text(profile.image) ?? null
	};
}

export { OAuth };

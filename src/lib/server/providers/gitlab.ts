// GitLab (OAuth 2) sign-in, for gitlab.com or a self-managed instance.
// Export path: `kitgate/providers/gitlab`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { exactKeys } from '../core/config/option-keys.js';
import { mergeProvider, OAUTH_USER_CONFIG_KEYS, type OAuthUserConfig } from './oauth-user-config.js';

/** The user record of `GET /api/v4/user` (scope `read_user`); fields vary by instance version. */
export interface GitLabProfile {
	id: number;
	username: string;
	name: string;
	state: string;
	avatar_url: string | null;
	web_url: string;
	created_at: string;
	bio: string;
	location: string | null;
	public_email: string | null;
	/** The primary email (visible to the user themself with `read_user`). */
	email: string;
	confirmed_at?: string;
	last_sign_in_at?: string;
	two_factor_enabled?: boolean;
	[key: string]: unknown;
}

/** Options of `GitLab()`: the common provider options, plus a self-managed instance's URL. */
export type GitLabOptions = OAuthUserConfig<GitLabProfile> & {
	/** Base URL of a self-managed instance, e.g. `https://gitlab.example.com` (default `https://gitlab.com`). */
	baseUrl?: string;
};

/** Every option of `GitLab()`, checked against `GitLabOptions` by the compiler. */
const GITLAB_OPTION_KEYS = exactKeys<GitLabOptions>()([...OAUTH_USER_CONFIG_KEYS, 'baseUrl']);

const BRAND = '#fc6d26';

/**
 * GitLab sign-in (OAuth 2, id `gitlab`, scope `read_user`).
 *
 * Create an application under User settings → Applications with the redirect URI
 * `{origin}{basePath}/callback/gitlab`, e.g. `https://example.com/auth/callback/gitlab`, and the
 * `read_user` scope. `clientId`/`clientSecret` default to `AUTH_GITLAB_ID`/`AUTH_GITLAB_SECRET`.
 *
 * @example
 * import GitLab from "kitgate/providers/gitlab";
 * const config = { providers: [GitLab({ baseUrl: "https://gitlab.example.com" })] };
 */
export default function GitLab(options: GitLabOptions = {}): OAuthConfig {
	const { baseUrl, ...rest } = options;
	const base = (baseUrl ?? 'https://gitlab.com').replace(/\/+$/, '');
	return mergeProvider<GitLabProfile>(
		{
			id: 'gitlab',
			name: 'GitLab',
			type: 'oauth',
			authorization: { url: `${base}/oauth/authorize`, params: { scope: 'read_user' } },
			token: `${base}/oauth/token`,
			userinfo: `${base}/api/v4/user`,
			profile: (profile) => ({
				id: String(profile.id),
				name: profile.name ?? profile.username,
				email: profile.email ?? profile.public_email ?? null,
				image: profile.avatar_url ?? null
			}),
			style: { brandColor: BRAND, logo: letterLogo('G', BRAND) }
		},
		rest,
		undefined,
		{ optionKeys: GITLAB_OPTION_KEYS }
	);
}

export { GitLab };

// GitHub (OAuth 2) sign-in, also for GitHub Enterprise Server; fetches the primary verified
// email when the public profile has none. Export path: `kitgate/providers/github`.

import type { OAuthConfig, TokenSet } from '../core/types.js';
import { letterLogo } from './logo.js';
import { exactKeys } from '../core/config/option-keys.js';
import { mergeProvider, OAUTH_USER_CONFIG_KEYS, type OAuthUserConfig } from './oauth-user-config.js';
import { requestUpstreamJson, requireAccessToken } from './upstream-json.js';

/** The user record of `GET /user` (REST API), as GitHub documents it; absent fields are omitted. */
export interface GitHubProfile {
	login: string;
	id: number;
	node_id: string;
	avatar_url: string;
	gravatar_id: string | null;
	url: string;
	html_url: string;
	type: string;
	site_admin: boolean;
	name: string | null;
	company: string | null;
	blog: string | null;
	location: string | null;
	email: string | null;
	hireable: boolean | null;
	bio: string | null;
	twitter_username?: string | null;
	public_repos: number;
	public_gists: number;
	followers: number;
	following: number;
	created_at: string;
	updated_at: string;
	[key: string]: unknown;
}

/** One entry of `GET /user/emails`. */
export interface GitHubEmail {
	email: string;
	primary: boolean;
	verified: boolean;
	visibility: 'public' | 'private' | null;
}

/** Options of `GitHub()`: the common provider options, plus GitHub Enterprise Server's URL. */
export type GitHubOptions = OAuthUserConfig<GitHubProfile> & {
	/** GitHub Enterprise Server, e.g. `{ baseUrl: "https://github.example.com" }` (default: github.com). */
	enterprise?: { baseUrl?: string };
};

/** Every option of `GitHub()`, checked against `GitHubOptions` by the compiler. */
const GITHUB_OPTION_KEYS = exactKeys<GitHubOptions>()([...OAUTH_USER_CONFIG_KEYS, 'enterprise']);

const BRAND = '#24292f';

/**
 * GitHub sign-in (OAuth 2, id `github`, scopes `read:user user:email`).
 *
 * Register an OAuth App (or GitHub App) with the callback URL
 * `{origin}{basePath}/callback/github`, e.g. `https://example.com/auth/callback/github`.
 * `clientId`/`clientSecret` default to `AUTH_GITHUB_ID`/`AUTH_GITHUB_SECRET`.
 *
 * When the user keeps their email private, `GET /user` has `email: null`; the provider then
 * reads `GET /user/emails` and uses the primary verified address (needs the `user:email` scope).
 *
 * @example
 * import GitHub from "kitgate/providers/github";
 * const config = { providers: [GitHub({ clientId: env.AUTH_GITHUB_ID, clientSecret: env.AUTH_GITHUB_SECRET })] };
 */
export default function GitHub(options: GitHubOptions = {}): OAuthConfig {
	const { enterprise, ...rest } = options;
	const webBase = (enterprise?.baseUrl ?? 'https://github.com').replace(/\/+$/, '');
	const apiBase = enterprise?.baseUrl ? `${webBase}/api/v3` : 'https://api.github.com';
	return mergeProvider<GitHubProfile>(
		{
			id: 'github',
			name: 'GitHub',
			type: 'oauth',
			authorization: { url: `${webBase}/login/oauth/authorize`, params: { scope: 'read:user user:email' } },
			token: `${webBase}/login/oauth/access_token`,
			userinfo: {
				url: `${apiBase}/user`,
				request: ({ tokens }) => fetchGitHubUser(apiBase, tokens)
			},
			profile: (profile) => ({
				id: String(profile.id),
				name: profile.name ?? profile.login,
				email: profile.email,
				image: profile.avatar_url
			}),
			style: { brandColor: BRAND, logo: letterLogo('G', BRAND) }
		},
		rest,
		undefined,
		// OAuth Apps have no public clients: the code exchange needs the secret
		{ needsSecret: true, optionKeys: GITHUB_OPTION_KEYS }
	);
}

/** `GET /user`, completed with the primary verified address of `GET /user/emails` when `email` is null. */
async function fetchGitHubUser(apiBase: string, tokens: TokenSet | undefined): Promise<GitHubProfile> {
	const accessToken = requireAccessToken(tokens, 'GitHub');
	// GitHub's API refuses requests without a User-Agent
	const request = { provider: 'GitHub', accessToken, headers: { accept: 'application/vnd.github+json', 'user-agent': 'kitgate' } };
	const user = (await requestUpstreamJson(`${apiBase}/user`, { ...request, what: 'user' })) as GitHubProfile;
	if (!user.email) {
		try {
			const emails = (await requestUpstreamJson(`${apiBase}/user/emails`, { ...request, what: 'emails' })) as GitHubEmail[];
			user.email = githubPrimaryEmail(emails);
		} catch {
			// without the user:email scope the list is refused: the user simply has no email
		}
	}
	return user;
}

/**
 * The address GitHub's `GET /user/emails` marks primary and verified, else the first verified
 * one, else null (unverified addresses are never used).
 *
 * @example
 * githubPrimaryEmail([{ email: "a@example.com", primary: true, verified: true, visibility: "private" }]) // "a@example.com"
 */
export function githubPrimaryEmail(emails: GitHubEmail[]): string | null {
	if (!Array.isArray(emails)) return null;
	const verified = emails.filter((e) => e && e.verified && typeof e.email === 'string');
	return (verified.find((e) => e.primary) ?? verified[0])?.email ?? null;
}

export { GitHub };

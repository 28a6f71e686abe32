// X (Twitter) sign-in: OAuth 1.0a by default (the account keeps `oauth_token`/`oauth_token_secret`),
// or OAuth 2 with PKCE and the v2 `users/me` profile with `version: "2.0"`. Export path: `kitgate/providers/twitter`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig, type ProviderDefaults } from './oauth-user-config.js';

/** `GET 1.1/account/verify_credentials.json` (OAuth 1.0a), fields kitgate reads and common others. */
export interface TwitterLegacyProfile {
	id: number;
	/** The id as a string: use this one, `id` loses precision in JavaScript. */
	id_str: string;
	name: string;
	screen_name: string;
	location?: string | null;
	description?: string | null;
	url?: string | null;
	protected?: boolean;
	verified?: boolean;
	followers_count?: number;
	friends_count?: number;
	created_at?: string;
	/** Only when the app has "Request email from users" enabled and `include_email=true`. */
	email?: string;
	profile_image_url_https?: string;
	[key: string]: unknown;
}

/** A span of a user's description or URL that the API recognised. */
interface TwitterEntitySpan {
	start: number;
	end: number;
}

/** `GET /2/users/me` (OAuth 2): the user in `data`, expansions in `includes`. */
export interface TwitterProfile {
	data: {
		id: string;
		name: string;
		username: string;
		created_at?: string;
		description?: string;
		location?: string;
		pinned_tweet_id?: string;
		profile_image_url?: string;
		url?: string;
		protected?: boolean;
		verified?: boolean;
		/** Not offered by the v2 API; present only if a future field supplies it. */
		email?: string;
		entities?: {
			description?: { hashtags?: (TwitterEntitySpan & { tag: string })[] };
			url?: { urls?: (TwitterEntitySpan & { url: string; expanded_url: string; display_url: string })[] };
		};
		[key: string]: unknown;
	};
	/** With `expansions: "pinned_tweet_id"`: the pinned post. */
	includes?: { tweets?: { id: string; text: string }[] };
	[key: string]: unknown;
}

/** Options of the default OAuth 1.0a mode: `profile` receives the verify_credentials record. */
export type TwitterOAuth1Options = OAuthUserConfig<TwitterLegacyProfile> & { version?: '1.0a' };
/** Options of the OAuth 2 mode (`version: "2.0"`): `profile` receives `{ data, includes }`. */
export type TwitterOAuth2Options = OAuthUserConfig<TwitterProfile> & { version: '2.0' };
/** Options of `Twitter()`: OAuth 1.0a (default) or, with `version: "2.0"`, OAuth 2. */
export type TwitterOptions = TwitterOAuth1Options | TwitterOAuth2Options;

const BRAND = '#000000';
const STYLE = { brandColor: BRAND, logo: letterLogo('X', BRAND) };

/**
 * X (Twitter) sign-in, id `twitter`.
 *
 * Default, OAuth 1.0a: `clientId`/`clientSecret` are the app's API key and secret ("consumer
 * keys"); the profile is `1.1/account/verify_credentials.json` with `include_email=true` (enable
 * "Request email from users" in the app settings to receive it). The account stores
 * `oauth_token` and `oauth_token_secret` instead of `access_token`/`refresh_token`.
 *
 * `version: "2.0"`: OAuth 2 with PKCE and state, scopes `users.read tweet.read offline.access`;
 * `clientId`/`clientSecret` are the OAuth 2.0 client id and secret; the profile is `2/users/me`
 * with `user.fields=profile_image_url` (add fields or `expansions` through `userinfo.params`). X
 * offers no email there.
 *
 * In the developer portal → User authentication settings, set the callback URI
 * `{origin}{basePath}/callback/twitter`, e.g. `https://example.com/auth/callback/twitter`.
 * Credentials default to `AUTH_TWITTER_ID`/`AUTH_TWITTER_SECRET`.
 *
 * @example
 * import Twitter from "kitgate/providers/twitter";
 * const oauth1 = Twitter(); // consumer key/secret from AUTH_TWITTER_ID / AUTH_TWITTER_SECRET
 * const oauth2 = Twitter({ version: "2.0", userinfo: { params: { "user.fields": "profile_image_url,description", expansions: "pinned_tweet_id" } } });
 */
export default function Twitter(options: TwitterOptions = {}): OAuthConfig {
	if (options.version === '2.0') {
		return mergeProvider<TwitterProfile>(oauth2Defaults(), options as OAuthUserConfig<TwitterProfile>);
	}
	// OAuth 1.0a signs every request with the consumer secret
	return mergeProvider<TwitterLegacyProfile>(oauth1Defaults(), options as OAuthUserConfig<TwitterLegacyProfile>, undefined, { needsSecret: true });
}

function oauth1Defaults(): ProviderDefaults<TwitterLegacyProfile> {
	return {
		id: 'twitter',
		name: 'X (Twitter)',
		type: 'oauth',
		version: '1.0a',
		requestToken: 'https://api.x.com/oauth/request_token',
		// "authenticate" (Sign in with X) skips the approval screen for users who approved before
		authorization: 'https://api.x.com/oauth/authenticate',
		token: 'https://api.x.com/oauth/access_token',
		userinfo: {
			url: 'https://api.x.com/1.1/account/verify_credentials.json',
			params: { include_email: 'true', skip_status: 'true', include_entities: 'false' }
		},
		profile: (profile) => ({
			id: profile.id_str ?? String(profile.id),
			name: profile.name ?? profile.screen_name ?? null,
			email: profile.email ?? null,
			// "_normal" is the 48×48 rendition; without the suffix X serves the original
			image: profile.profile_image_url_https?.replace(/_normal(\.\w+)$/, '$1') ?? null
		}),
		style: STYLE
	};
}

function oauth2Defaults(): ProviderDefaults<TwitterProfile> {
	return {
		id: 'twitter',
		name: 'X (Twitter)',
		type: 'oauth',
		version: '2.0',
		authorization: { url: 'https://x.com/i/oauth2/authorize', params: { scope: 'users.read tweet.read offline.access' } },
		token: 'https://api.x.com/2/oauth2/token',
		// v2 answers { data, includes? }; fields and expansions are asked for in the query
		userinfo: { url: 'https://api.x.com/2/users/me', params: { 'user.fields': 'profile_image_url' } },
		// X requires both
		checks: ['pkce', 'state'],
		profile: ({ data }) => ({
			id: data.id,
			name: data.name ?? data.username ?? null,
			email: data.email ?? null,
			image: data.profile_image_url ?? null
		}),
		style: STYLE
	};
}

export { Twitter };

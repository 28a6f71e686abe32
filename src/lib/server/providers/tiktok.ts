// TikTok (Login Kit, OAuth 2 v2 API) sign-in: `client_key` instead of `client_id`, profile from
// `data.user` chosen with `fields`, upstream errors `{ code, log_id, message }` reported. Export path: `kitgate/providers/tiktok`.

import { OAuthCallbackError } from '../core/errors.js';
import type { OAuthConfig, TokenSet } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';
import { endpointUrlWithParams, requestUpstreamJson, requireAccessToken } from './upstream-json.js';

/** The error object of every TikTok API answer; `code` is `"ok"` on success. */
export interface TikTokApiError {
	code: string;
	message: string;
	log_id: string;
}

/**
 * `GET /v2/user/info/`: the user in `data.user`. Only the fields named in the `fields` query
 * parameter (and allowed by the granted scopes) are present.
 */
export interface TikTokProfile {
	data: {
		user: {
			/** The user's id for this app (`user.info.basic`). */
			open_id: string;
			/** The user's id across the developer's apps (`user.info.basic`). */
			union_id?: string;
			avatar_url?: string;
			avatar_url_100?: string;
			avatar_large_url?: string;
			display_name?: string;
			/** `user.info.profile` */
			username?: string;
			bio_description?: string;
			profile_deep_link?: string;
			is_verified?: boolean;
			/** `user.info.stats` */
			follower_count?: number;
			following_count?: number;
			likes_count?: number;
			video_count?: number;
			/** TikTok does not share email addresses: always absent. */
			email?: string;
		};
	};
	error: TikTokApiError;
	[key: string]: unknown;
}

const BRAND = '#000000';
const TOKEN_URL = 'https://open.tiktokapis.com/v2/oauth/token/';
const USER_INFO_URL = 'https://open.tiktokapis.com/v2/user/info/';
/** Fields of `user.info.basic`, the scope every Login Kit app has. */
const BASIC_FIELDS = 'open_id,union_id,avatar_url,avatar_url_100,avatar_large_url,display_name';

/**
 * TikTok sign-in (OAuth 2, id `tiktok`, scope `user.info.basic`, state check).
 *
 * `clientId` is the app's **client key** (sent as `client_key`) and `clientSecret` its client
 * secret; they default to `AUTH_TIKTOK_ID`/`AUTH_TIKTOK_SECRET`. In the TikTok developer portal →
 * Login Kit, register the redirect URI `{origin}{basePath}/callback/tiktok`, e.g.
 * `https://example.com/auth/callback/tiktok` (HTTPS only). TikTok shares no email address, so the
 * user's `email` is null.
 *
 * More of the profile needs the scope and the fields: scopes are comma-separated, e.g.
 * `authorization: { params: { scope: "user.info.basic,user.info.profile" } }` with
 * `userinfo: { params: { fields: "open_id,display_name,avatar_url,username,is_verified" } }`.
 * An error answer of the API (`error.code` other than `"ok"`) fails the sign-in with its `code`,
 * `message` and `log_id` in the logged message.
 *
 * @example
 * import TikTok from "kitgate/providers/tiktok";
 * const config = { providers: [TikTok({ clientId: env.TIKTOK_CLIENT_KEY, clientSecret: env.TIKTOK_CLIENT_SECRET })] };
 */
export default function TikTok(options: OAuthUserConfig<TikTokProfile> = {}): OAuthConfig {
	return mergeProvider<TikTokProfile>(
		{
			id: 'tiktok',
			name: 'TikTok',
			type: 'oauth',
			authorization: { url: 'https://www.tiktok.com/v2/auth/authorize/', params: { scope: 'user.info.basic' } },
			token: { url: TOKEN_URL, request: ({ provider, params }) => requestTikTokToken(provider, params) },
			userinfo: {
				url: USER_INFO_URL,
				params: { fields: BASIC_FIELDS },
				request: ({ provider, tokens }) => requestTikTokUser(provider, tokens)
			},
			// TikTok's web flow protects the redirect with state (PKCE is for its desktop apps)
			checks: ['state'],
			profile: ({ data }) => ({
				id: data.user.open_id,
				name: data.user.display_name ?? data.user.username ?? null,
				email: null,
				image: data.user.avatar_large_url ?? data.user.avatar_url_100 ?? data.user.avatar_url ?? null
			}),
			style: { brandColor: BRAND, logo: letterLogo('T', BRAND) }
		},
		options,
		undefined,
		// the code exchange sends the client secret; also when rebuilt with the app's environment (AUTH_TIKTOK_ID)
		{ needsSecret: true, finish: withClientKey }
	);
}

/** TikTok names the client id `client_key` in the authorization request. */
function withClientKey(provider: OAuthConfig): OAuthConfig {
	const authorization = typeof provider.authorization === 'object' ? provider.authorization : { url: provider.authorization };
	const params = { ...authorization.params };
	if (params.client_key === undefined && provider.clientId) params.client_key = provider.clientId;
	return { ...provider, authorization: { ...authorization, params } };
}

/** The code exchange with `client_key`; TikTok's `{ error, error_description, log_id }` answer fails clearly. */
async function requestTikTokToken(provider: OAuthConfig, params: unknown): Promise<TokenSet> {
	const callback = (params ?? {}) as Record<string, string | undefined>;
	const form: Record<string, string> = {
		client_key: provider.clientId ?? '',
		client_secret: provider.clientSecret ?? '',
		code: callback.code ?? '',
		grant_type: 'authorization_code',
		redirect_uri: callback.redirect_uri ?? ''
	};
	if (callback.code_verifier) form.code_verifier = callback.code_verifier;
	const url = typeof provider.token === 'object' && provider.token.url ? provider.token.url : TOKEN_URL;
	const body = (await requestUpstreamJson(url, { provider: 'TikTok', what: 'token', form, allowErrorStatus: true })) as Record<string, unknown>;
	if (typeof body.error === 'string' || typeof body.access_token !== 'string') {
		throw new OAuthCallbackError(
			`TikTok: the token request failed: ${String(body.error ?? 'no access_token')}` +
				`${body.error_description ? ` (${String(body.error_description)})` : ''}${body.log_id ? `, log_id ${String(body.log_id)}` : ''}.`
		);
	}
	return body as TokenSet;
}

/** `GET /v2/user/info/?fields=…`; an `error.code` other than `ok` fails with TikTok's code, message and log id. */
async function requestTikTokUser(provider: OAuthConfig, tokens: TokenSet | undefined): Promise<TikTokProfile> {
	const url = endpointUrlWithParams(provider.userinfo, USER_INFO_URL);
	const body = (await requestUpstreamJson(url, {
		provider: 'TikTok',
		what: 'user info',
		accessToken: requireAccessToken(tokens, 'TikTok'),
		allowErrorStatus: true
	})) as Partial<TikTokProfile>;
	const error = tikTokError(body);
	if (error) throw error;
	if (!body.data?.user || typeof body.data.user.open_id !== 'string') {
		throw new OAuthCallbackError('TikTok: the user info answer has no data.user.open_id (is "open_id" in `fields`?).');
	}
	return body as TikTokProfile;
}

/**
 * `OAuthCallbackError` for a TikTok API answer whose `error.code` is not `ok`; undefined otherwise.
 *
 * @example
 * const failure = tikTokError(await response.json());
 * if (failure) throw failure; // message names code, message and log_id
 */
export function tikTokError(body: { error?: Partial<TikTokApiError> }): OAuthCallbackError | undefined {
	const error = body?.error;
	if (!error || error.code === 'ok') return undefined;
	return new OAuthCallbackError(
		`TikTok: the user info request failed: ${error.code ?? 'unknown_error'}` +
			`${error.message ? ` (${error.message})` : ''}${error.log_id ? `, log_id ${error.log_id}` : ''}.`
	);
}

export { TikTok };

// Recorded profile shapes of each built-in provider (the fields their public API docs list),
// with invented values. Test data for providers.test.ts; not shipped (test/ is excluded).

import type { AppleProfile } from '../apple.js';
import type { Auth0Profile } from '../auth0.js';
import type { CognitoProfile } from '../cognito.js';
import type { DiscordProfile } from '../discord.js';
import type { FacebookProfile } from '../facebook.js';
import type { GitHubProfile } from '../github.js';
import type { GitLabProfile } from '../gitlab.js';
import type { GoogleProfile } from '../google.js';
import type { KeycloakProfile } from '../keycloak.js';
import type { LinkedInProfile } from '../linkedin.js';
import type { MicrosoftEntraIDProfile } from '../microsoft-entra-id.js';
import type { OktaProfile } from '../okta.js';
import type { SlackProfile } from '../slack.js';
import type { SpotifyProfile } from '../spotify.js';
import type { TikTokProfile } from '../tiktok.js';
import type { TwitchProfile } from '../twitch.js';
import type { TwitterLegacyProfile, TwitterProfile } from '../twitter.js';

/** `GET https://api.github.com/user` */
export const github: GitHubProfile = {
	login: 'hopper-g',
	id: 5836121,
	node_id: 'MDQ6VXNlcjU4MzYxMjE=',
	avatar_url: 'https://avatars.githubusercontent.com/u/5836121?v=4',
	gravatar_id: '',
	url: 'https://api.github.com/users/hopper-g',
	html_url: 'https://github.com/hopper-g',
	type: 'User',
	site_admin: false,
	name: 'Grace Hopper',
	company: '@navy',
	blog: 'https://example.org/grace',
	location: 'Arlington, VA',
	email: 'grace@example.org',
	hireable: null,
	bio: 'Compilers, COBOL, nanoseconds.',
	twitter_username: null,
	public_repos: 12,
	public_gists: 3,
	followers: 420,
	following: 7,
	created_at: '2013-11-02T16:21:05Z',
	updated_at: '2025-03-30T09:12:44Z'
};

/** Claims of a Google ID token (`openid email profile`). */
export const google: GoogleProfile = {
	iss: 'https://accounts.google.com',
	azp: '1234987819200.apps.googleusercontent.com',
	aud: '1234987819200.apps.googleusercontent.com',
	sub: '110169484474386276334',
	email: 'ada.lovelace@example.com',
	email_verified: true,
	at_hash: 'HK6E_P6Dh8Y93mRNtsDB1Q',
	name: 'Ada Lovelace',
	picture: 'https://lh3.googleusercontent.com/a/ACg8ocK-ada=s96-c',
	given_name: 'Ada',
	family_name: 'Lovelace',
	locale: 'en-GB',
	iat: 1767225600,
	exp: 1767229200
};

/** `GET https://gitlab.com/api/v4/user` */
export const gitlab: GitLabProfile = {
	id: 4190332,
	username: 'kjohnson',
	name: 'Katherine Johnson',
	state: 'active',
	avatar_url: 'https://secure.gravatar.com/avatar/2f1c?s=80&d=identicon',
	web_url: 'https://gitlab.com/kjohnson',
	created_at: '2019-06-12T08:01:02.114Z',
	bio: 'Trajectories.',
	location: 'Hampton, VA',
	public_email: null,
	email: 'katherine@example.com',
	confirmed_at: '2019-06-12T08:05:41.000Z',
	last_sign_in_at: '2025-04-01T10:11:12.000Z',
	two_factor_enabled: true
};

/** `GET https://discord.com/api/users/@me`, a new-style username with an animated avatar. */
export const discord: DiscordProfile = {
	id: '80351110224678912',
	username: 'nelly',
	discriminator: '0',
	global_name: 'Nelly',
	avatar: 'a_8342729096ea3675442027381ff50dfe',
	bot: false,
	mfa_enabled: true,
	banner: null,
	accent_color: 16711680,
	locale: 'en-US',
	verified: true,
	email: 'nelly@example.com',
	flags: 64,
	premium_type: 1,
	public_flags: 64
};

/** Claims of an Apple ID token, with the first sign-in's `user` form field merged in. */
export const apple: AppleProfile = {
	iss: 'https://appleid.apple.com',
	aud: 'com.example.web',
	exp: 1767229200,
	iat: 1767225600,
	sub: '001234.5f0c2b1a9e8d4c7b.1234',
	at_hash: 'lUq1fY2kq8cI2kXb7nPz0w',
	email: 'x7k2m9qp4d@privaterelay.appleid.com',
	email_verified: 'true',
	is_private_email: 'true',
	real_user_status: 2,
	nonce_supported: true,
	auth_time: 1767225590,
	user: { name: { firstName: 'Mary', lastName: 'Jackson' }, email: 'x7k2m9qp4d@privaterelay.appleid.com' }
};

/** `GET https://graph.facebook.com/v21.0/me?fields=id,name,email,picture` */
export const facebook: FacebookProfile = {
	id: '10224567890123456',
	name: 'Hedy Lamarr',
	email: 'hedy@example.com',
	picture: {
		data: {
			height: 50,
			is_silhouette: false,
			url: 'https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224567890123456&height=50&width=50',
			width: 50
		}
	}
};

/** Claims of a LinkedIn ID token (`openid profile email`). */
export const linkedin: LinkedInProfile = {
	iss: 'https://www.linkedin.com/oauth',
	aud: '86abcdefgh1234',
	iat: 1767225600,
	exp: 1767229200,
	sub: 'x9Kq2LmPzA',
	name: 'Radia Perlman',
	given_name: 'Radia',
	family_name: 'Perlman',
	picture: 'https://media.licdn.com/dms/image/v2/C4E03AQ/profile-displayphoto-shrink_100_100/0/1',
	locale: { country: 'US', language: 'en' },
	email: 'radia@example.com',
	email_verified: true
};

/** Claims of a Microsoft identity platform v2.0 ID token (`email` is optional there). */
export const microsoftEntraId: MicrosoftEntraIDProfile = {
	aud: '6731de76-14a6-49ae-97bc-6eba6914391e',
	iss: 'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0',
	iat: 1767225600,
	nbf: 1767225600,
	exp: 1767229500,
	sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
	oid: '00000000-0000-0000-66f3-3332eca7ea81',
	tid: '9188040d-6c67-4c5b-b112-36a304b66dad',
	name: 'Frances Allen',
	preferred_username: 'frances@contoso.example',
	nonce: 'nonce-123',
	ver: '2.0'
};

/** Claims of a Slack ID token. */
export const slack: SlackProfile = {
	iss: 'https://slack.com',
	sub: 'U0R7JM',
	aud: '25259531569.1115258246291',
	exp: 1767229200,
	iat: 1767225600,
	auth_time: 1767225600,
	nonce: 'abcd',
	at_hash: 'tUgXBdcEx7EbLFTNkefDOw',
	'https://slack.com/user_id': 'U0R7JM',
	'https://slack.com/team_id': 'T0R7GR',
	'https://slack.com/team_name': 'Analytical Engines',
	'https://slack.com/team_domain': 'engines',
	email: 'barbara@example.com',
	email_verified: true,
	date_email_verified: 1622128723,
	name: 'Barbara Liskov',
	picture: 'https://secure.gravatar.com/avatar/bl.jpg?s=512',
	given_name: 'Barbara',
	family_name: 'Liskov',
	locale: 'en-US',
	'https://slack.com/user_image_192': 'https://secure.gravatar.com/avatar/bl.jpg?s=192'
};

/** Claims of a Twitch ID token with `email`, `picture` and `preferred_username` requested. */
export const twitch: TwitchProfile = {
	iss: 'https://id.twitch.tv/oauth2',
	aud: 'hof5gwx0su6owfnys0nyan9c87zr6t',
	azp: 'hof5gwx0su6owfnys0nyan9c87zr6t',
	sub: '713936733',
	exp: 1767229200,
	iat: 1767225600,
	nonce: 'n-0S6_WzA2Mj',
	preferred_username: 'annie_easley',
	email: 'annie@example.com',
	email_verified: true,
	picture: 'https://static-cdn.jtvnw.net/jtv_user_pictures/annie-profile_image-300x300.png',
	updated_at: '2025-01-02T03:04:05Z'
};

/** `GET https://api.spotify.com/v1/me` */
export const spotify: SpotifyProfile = {
	id: 'wizzler',
	display_name: 'Dorothy V',
	email: 'dorothy@example.com',
	country: 'SE',
	product: 'premium',
	explicit_content: { filter_enabled: false, filter_locked: false },
	external_urls: { spotify: 'https://open.spotify.com/user/wizzler' },
	followers: { href: null, total: 3829 },
	href: 'https://api.spotify.com/v1/users/wizzler',
	images: [
		{ url: 'https://i.scdn.co/image/ab67757000003b82small', height: 64, width: 64 },
		{ url: 'https://i.scdn.co/image/ab6775700000ee85large', height: 300, width: 300 }
	],
	type: 'user',
	uri: 'spotify:user:wizzler'
};

/** Claims of a Keycloak ID token. */
export const keycloak: KeycloakProfile = {
	exp: 1767229200,
	iat: 1767225600,
	auth_time: 1767225590,
	jti: '0f3b2c1a-6d5e-4f70-8a9b-1c2d3e4f5a6b',
	iss: 'https://kc.example.com/realms/staff',
	aud: 'webapp',
	sub: 'f3c5a1e2-9d8b-4c7a-b6e5-d4c3b2a19f80',
	typ: 'ID',
	azp: 'webapp',
	session_state: '2c1b0a9f-8e7d-6c5b-4a39-281706f5e4d3',
	sid: '2c1b0a9f-8e7d-6c5b-4a39-281706f5e4d3',
	at_hash: 'Jw0b3mZJ1T0vqg4hE5k0dA',
	acr: '1',
	email_verified: true,
	preferred_username: 'mhamilton',
	given_name: 'Margaret',
	family_name: 'Hamilton',
	email: 'margaret@example.com'
};

/** Claims of an Okta ID token. */
export const okta: OktaProfile = {
	iss: 'https://dev-123456.okta.com/oauth2/default',
	aud: '0oa1abcd2EFGH3ijk4x7',
	sub: '00u1a2b3c4D5e6F7g8h9',
	ver: 1,
	iat: 1767225600,
	exp: 1767229200,
	jti: 'ID.4eAWJOCMB3SX8XewDfVR',
	amr: ['pwd'],
	idp: '00o1a2b3c4D5e6F7g8h9',
	nonce: 'nonce',
	auth_time: 1767225590,
	at_hash: 'preview_at_hash',
	name: 'Jean Sammet',
	preferred_username: 'jean@example.com',
	given_name: 'Jean',
	family_name: 'Sammet',
	zoneinfo: 'America/Los_Angeles',
	locale: 'en-US',
	updated_at: 1767000000,
	email: 'jean@example.com',
	email_verified: true
};

/** Claims of an Auth0 ID token. */
export const auth0: Auth0Profile = {
	iss: 'https://my-tenant.us.auth0.com/',
	aud: 'k4Zq1mCxB7o2nT0vYp9RsWd3',
	sub: 'auth0|6507a2c1f0e4b3d2a1c0b9a8',
	iat: 1767225600,
	exp: 1767261600,
	sid: 'Xq3bZ0cW9dV8eU7fT6gS5hR4',
	nickname: 'sophie',
	name: 'sophie@example.com',
	picture: 'https://s.gravatar.com/avatar/5ca1ab1e?s=480&r=pg&d=https%3A%2F%2Fcdn.auth0.com%2Favatars%2Fso.png',
	updated_at: '2025-12-31T23:59:59.000Z',
	email: 'sophie@example.com',
	email_verified: false
};

/** Claims of a Cognito user pool ID token (no `name` attribute set). */
export const cognito: CognitoProfile = {
	sub: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
	iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI',
	aud: '7ev3h0l5bt8kq9r1a2n6s4d0fp',
	token_use: 'id',
	auth_time: 1767225600,
	iat: 1767225600,
	exp: 1767229200,
	'cognito:username': 'evelyn.b',
	'cognito:groups': ['admins'],
	email: 'evelyn@example.com',
	email_verified: true
};

/** `GET https://open.tiktokapis.com/v2/user/info/?fields=…` with basic, profile and stats fields. */
export const tiktok: TikTokProfile = {
	data: {
		user: {
			open_id: '723f24d7-e717-40f8-a2b6-cb8464cd23b4',
			union_id: 'c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1',
			avatar_url: 'https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b.webp?x-expires=1767312000',
			avatar_url_100: 'https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b~c5_100x100.webp',
			avatar_large_url: 'https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b~c5_1080x1080.webp',
			display_name: 'Lynn Conway',
			username: 'lynnconway',
			bio_description: 'VLSI',
			profile_deep_link: 'https://vm.tiktok.com/ZMexample/',
			is_verified: false,
			follower_count: 1204,
			following_count: 87,
			likes_count: 9831,
			video_count: 42
		}
	},
	error: { code: 'ok', message: '', log_id: '20251231120000ABCDEF0123456789' }
};

/** The error answer of the TikTok API (`error.code` other than `ok`). */
export const tiktokError = {
	data: {},
	error: {
		code: 'access_token_invalid',
		message: 'The access token is invalid or not found in the request.',
		log_id: '202512311200009E8D7C6B5A4F3E2D1C'
	}
};

/** `GET 1.1/account/verify_credentials.json?include_email=true&skip_status=true` */
export const twitterLegacy: TwitterLegacyProfile = {
	id: 95761823,
	id_str: '95761823',
	name: 'Joan Clarke',
	screen_name: 'joanclarke',
	location: 'Bletchley',
	description: 'Cryptanalysis',
	url: null,
	protected: false,
	verified: false,
	followers_count: 1450,
	friends_count: 312,
	created_at: 'Mon Dec 06 05:03:22 +0000 2021',
	email: 'joan@example.com',
	profile_image_url_https: 'https://pbs.twimg.com/profile_images/1467726532252590080/AbCdEf12_normal.jpg'
};

/** `GET 2/users/me?user.fields=…&expansions=pinned_tweet_id` */
export const twitterV2: TwitterProfile = {
	data: {
		id: '2244994945',
		name: 'Alan Turing',
		username: 'aturing',
		created_at: '2013-12-14T04:35:55.000Z',
		description: 'On computable numbers #math',
		location: 'Wilmslow',
		pinned_tweet_id: '1389270063807598594',
		profile_image_url: 'https://pbs.twimg.com/profile_images/1445764922474827784/W2zEPN7U_normal.jpg',
		url: 'https://t.co/3ZX3TNiZCY',
		protected: false,
		verified: false,
		entities: {
			description: { hashtags: [{ start: 22, end: 27, tag: 'math' }] },
			url: {
				urls: [
					{
						start: 0,
						end: 23,
						url: 'https://t.co/3ZX3TNiZCY',
						expanded_url: 'https://example.org/turing',
						display_url: 'example.org/turing'
					}
				]
			}
		}
	},
	includes: { tweets: [{ id: '1389270063807598594', text: 'Can machines think?' }] }
};

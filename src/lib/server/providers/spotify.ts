// Spotify (OAuth 2) sign-in with the Web API `/me` profile.
// Export path: `kitgate/providers/spotify`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/** One image of a Spotify profile. */
export interface SpotifyImage {
	url: string;
	height: number | null;
	width: number | null;
}

/** `GET https://api.spotify.com/v1/me` (scope `user-read-email`). */
export interface SpotifyProfile {
	id: string;
	display_name: string | null;
	email?: string;
	country?: string;
	product?: string;
	explicit_content?: { filter_enabled: boolean; filter_locked: boolean };
	external_urls: { spotify: string };
	followers?: { href: string | null; total: number };
	href: string;
	images: SpotifyImage[];
	type: 'user';
	uri: string;
	[key: string]: unknown;
}

const BRAND = '#1db954';

/**
 * Spotify sign-in (OAuth 2 with PKCE, id `spotify`, scope `user-read-email`).
 *
 * In the Spotify developer dashboard → your app → Settings, add the redirect URI
 * `{origin}{basePath}/callback/spotify`, e.g. `https://example.com/auth/callback/spotify`.
 * `clientId`/`clientSecret` default to `AUTH_SPOTIFY_ID`/`AUTH_SPOTIFY_SECRET`.
 *
 * @example
 * import Spotify from "kitgate/providers/spotify";
 * const config = { providers: [Spotify({ authorization: { params: { scope: "user-read-email user-top-read" } } })] };
 */
export default function Spotify(options: OAuthUserConfig<SpotifyProfile> = {}): OAuthConfig {
	return mergeProvider<SpotifyProfile>(
		{
			id: 'spotify',
			name: 'Spotify',
			type: 'oauth',
			authorization: { url: 'https://accounts.spotify.com/authorize', params: { scope: 'user-read-email' } },
			token: 'https://accounts.spotify.com/api/token',
			userinfo: 'https://api.spotify.com/v1/me',
			profile: (profile) => ({
				id: profile.id,
				name: profile.display_name ?? profile.id,
				email: profile.email ?? null,
				image: largestImage(profile.images)
			}),
			style: { brandColor: BRAND, logo: letterLogo('S', BRAND) }
		},
		options
	);
}

function largestImage(images: SpotifyImage[] | undefined): string | null {
	if (!Array.isArray(images) || images.length === 0) return null;
	return [...images].sort((a, b) => (b.width ?? 0) - (a.width ?? 0))[0].url;
}

export { Spotify };

// Discord (OAuth 2) sign-in; builds the avatar URL from the user's avatar hash.
// Export path: `kitgate/providers/discord`.

import type { OAuthConfig } from '../core/types.js';
import { letterLogo } from './logo.js';
import { mergeProvider, type OAuthUserConfig } from './oauth-user-config.js';

/** The user object of `GET /users/@me` (scopes `identify email`). */
export interface DiscordProfile {
	/** Snowflake id. */
	id: string;
	username: string;
	/** `"0"` for accounts on the new unique-username system. */
	discriminator: string;
	global_name: string | null;
	/** Avatar hash; `a_` prefix for animated avatars. */
	avatar: string | null;
	bot?: boolean;
	system?: boolean;
	mfa_enabled?: boolean;
	banner?: string | null;
	accent_color?: number | null;
	locale?: string;
	verified?: boolean;
	email?: string | null;
	flags?: number;
	premium_type?: number;
	public_flags?: number;
	[key: string]: unknown;
}

const BRAND = '#5865f2';
const CDN = 'https://cdn.discordapp.com';

/**
 * Discord sign-in (OAuth 2, id `discord`, scopes `identify email`).
 *
 * In the Developer Portal → your application → OAuth2, add the redirect
 * `{origin}{basePath}/callback/discord`, e.g. `https://example.com/auth/callback/discord`.
 * `clientId`/`clientSecret` default to `AUTH_DISCORD_ID`/`AUTH_DISCORD_SECRET`.
 *
 * @example
 * import Discord from "kitgate/providers/discord";
 * const config = { providers: [Discord({ authorization: { params: { scope: "identify email guilds" } } })] };
 */
export default function Discord(options: OAuthUserConfig<DiscordProfile> = {}): OAuthConfig {
	return mergeProvider<DiscordProfile>(
		{
			id: 'discord',
			name: 'Discord',
			type: 'oauth',
			authorization: { url: 'https://discord.com/oauth2/authorize', params: { scope: 'identify email' } },
			token: 'https://discord.com/api/oauth2/token',
			userinfo: 'https://discord.com/api/users/@me',
			profile: (profile) => ({
				id: profile.id,
				name: profile.global_name ?? profile.username,
				email: profile.email ?? null,
				image: discordAvatarUrl(profile)
			}),
			style: { brandColor: BRAND, logo: letterLogo('D', BRAND) }
		},
		options,
		undefined,
		// no public clients: the code exchange needs the secret
		{ needsSecret: true }
	);
}

/** The user's avatar, or Discord's default avatar for users without one. */
function discordAvatarUrl(profile: DiscordProfile): string {
	if (profile.avatar) {
		const format = profile.avatar.startsWith('a_') ? 'gif' : 'png';
		return `${CDN}/avatars/${profile.id}/${profile.avatar}.${format}`;
	}
	// default avatars: by id for new usernames, by legacy discriminator otherwise
	const legacy = profile.discriminator && profile.discriminator !== '0';
	const index = legacy
		? Number(profile.discriminator) % 5
		: /^\d+$/.test(profile.id) ? Number((BigInt(profile.id) >> 22n) % 6n) : 0;
	return `${CDN}/embed/avatars/${index}.png`;
}

export { Discord };

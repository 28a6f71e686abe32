// The built-in OAuth/OIDC providers: ids, endpoints, scopes, checks and styles; each default
// profile() against a recorded profile shape; option merging and AUTH_<ID>_* environment defaults.

import { afterEach, describe, expect, test, vi } from 'vitest';
import { resolveConfig } from '../core/config/resolve-config.js';
import { InvalidConfiguration, OAuthCallbackError } from '../core/errors.js';
import type { OAuthConfig, Profile, TokenSet, User } from '../core/types.js';
import { safeImageUrl } from '../pages/theme.js';
import Apple from './apple.js';
import Auth0 from './auth0.js';
import Cognito from './cognito.js';
import Discord from './discord.js';
import Facebook from './facebook.js';
import GitHub, { githubPrimaryEmail } from './github.js';
import GitLab from './gitlab.js';
import Google from './google.js';
import Keycloak from './keycloak.js';
import LinkedIn from './linkedin.js';
import MicrosoftEntraID from './microsoft-entra-id.js';
import OAuth from './oauth.js';
import { endpointUrl, mergeProvider, providerEnvPrefix } from './oauth-user-config.js';
import OIDC from './oidc.js';
import Okta from './okta.js';
import Slack from './slack.js';
import Spotify from './spotify.js';
import * as fixtures from './test/profile-fixtures.js';
import TikTok, { tikTokError } from './tiktok.js';
import Twitch from './twitch.js';
import Twitter from './twitter.js';

const credentials = { clientId: 'client-id', clientSecret: 'client-secret' };

/** Runs the provider's default profile() on a recorded upstream record. */
async function mapProfile(provider: OAuthConfig, record: object, tokens: TokenSet = {}): Promise<User> {
	expect(typeof provider.profile).toBe('function');
	return provider.profile!(record as Profile, tokens);
}

function params(provider: OAuthConfig, endpoint: 'authorization' | 'token' | 'userinfo'): Record<string, string | undefined> {
	const option = provider[endpoint];
	return typeof option === 'object' ? (option.params ?? {}) : {};
}

afterEach(() => {
	vi.unstubAllEnvs();
});

interface Case {
	make: () => OAuthConfig;
	id: string;
	name: string;
	type: 'oauth' | 'oidc';
	/** issuer (OIDC discovery) or the explicit endpoint URLs. */
	issuer?: string;
	authorization?: string;
	token?: string;
	userinfo?: string;
	scope: string;
	checks?: string[];
	record: object;
	user: User;
}

const cases: Case[] = [
	{
		make: () => GitHub(credentials),
		id: 'github',
		name: 'GitHub',
		type: 'oauth',
		authorization: 'https://github.com/login/oauth/authorize',
		token: 'https://github.com/login/oauth/access_token',
		userinfo: 'https://api.github.com/user',
		scope: 'read:user user:email',
		record: fixtures.github,
		user: {
			id: '5836121',
			name: 'Grace Hopper',
			email: 'grace@example.org',
			image: 'https://avatars.githubusercontent.com/u/5836121?v=4'
		}
	},
	{
		make: () => Google(credentials),
		id: 'google',
		name: 'Google',
		type: 'oidc',
		issuer: 'https://accounts.google.com',
		scope: 'openid email profile',
		record: fixtures.google,
		user: {
			id: '110169484474386276334',
			name: 'Ada Lovelace',
			email: 'ada.lovelace@example.com',
			image: 'https://lh3.googleusercontent.com/a/ACg8ocK-ada=s96-c'
		}
	},
	{
		make: () => GitLab(credentials),
		id: 'gitlab',
		name: 'GitLab',
		type: 'oauth',
		authorization: 'https://gitlab.com/oauth/authorize',
		token: 'https://gitlab.com/oauth/token',
		userinfo: 'https://gitlab.com/api/v4/user',
		scope: 'read_user',
		record: fixtures.gitlab,
		user: {
			id: '4190332',
			name: 'Katherine Johnson',
			email: 'katherine@example.com',
			image: 'https://secure.gravatar.com/avatar/2f1c?s=80&d=identicon'
		}
	},
	{
		make: () => Discord(credentials),
		id: 'discord',
		name: 'Discord',
		type: 'oauth',
		authorization: 'https://discord.com/oauth2/authorize',
		token: 'https://discord.com/api/oauth2/token',
		userinfo: 'https://discord.com/api/users/@me',
		scope: 'identify email',
		record: fixtures.discord,
		user: {
			id: '80351110224678912',
			name: 'Nelly',
			email: 'nelly@example.com',
			image: 'https://cdn.discordapp.com/avatars/80351110224678912/a_8342729096ea3675442027381ff50dfe.gif'
		}
	},
	{
		make: () => Apple(credentials),
		id: 'apple',
		name: 'Apple',
		type: 'oidc',
		issuer: 'https://appleid.apple.com',
		scope: 'name email',
		checks: ['state', 'nonce'],
		record: fixtures.apple,
		user: { id: '001234.5f0c2b1a9e8d4c7b.1234', name: 'Mary Jackson', email: 'x7k2m9qp4d@privaterelay.appleid.com', image: null }
	},
	{
		make: () => Facebook(credentials),
		id: 'facebook',
		name: 'Facebook',
		type: 'oauth',
		authorization: 'https://www.facebook.com/v21.0/dialog/oauth',
		token: 'https://graph.facebook.com/v21.0/oauth/access_token',
		userinfo: 'https://graph.facebook.com/v21.0/me',
		scope: 'email public_profile',
		checks: ['pkce', 'state'],
		record: fixtures.facebook,
		user: {
			id: '10224567890123456',
			name: 'Hedy Lamarr',
			email: 'hedy@example.com',
			image: 'https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224567890123456&height=50&width=50'
		}
	},
	{
		make: () => LinkedIn(credentials),
		id: 'linkedin',
		name: 'LinkedIn',
		type: 'oidc',
		issuer: 'https://www.linkedin.com/oauth',
		scope: 'openid profile email',
		checks: ['state'],
		record: fixtures.linkedin,
		user: {
			id: 'x9Kq2LmPzA',
			name: 'Radia Perlman',
			email: 'radia@example.com',
			image: 'https://media.licdn.com/dms/image/v2/C4E03AQ/profile-displayphoto-shrink_100_100/0/1'
		}
	},
	{
		make: () => MicrosoftEntraID({ ...credentials, tenantId: '9188040d-6c67-4c5b-b112-36a304b66dad' }),
		id: 'microsoft-entra-id',
		name: 'Microsoft Entra ID',
		type: 'oidc',
		issuer: 'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0',
		scope: 'openid profile email User.Read',
		record: fixtures.microsoftEntraId,
		user: {
			id: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
			name: 'Frances Allen',
			email: 'frances@contoso.example',
			image: null
		}
	},
	{
		make: () => Slack(credentials),
		id: 'slack',
		name: 'Slack',
		type: 'oidc',
		issuer: 'https://slack.com',
		scope: 'openid profile email',
		record: fixtures.slack,
		user: { id: 'U0R7JM', name: 'Barbara Liskov', email: 'barbara@example.com', image: 'https://secure.gravatar.com/avatar/bl.jpg?s=512' }
	},
	{
		make: () => Twitch(credentials),
		id: 'twitch',
		name: 'Twitch',
		type: 'oidc',
		issuer: 'https://id.twitch.tv/oauth2',
		scope: 'openid user:read:email',
		record: fixtures.twitch,
		user: {
			id: '713936733',
			name: 'annie_easley',
			email: 'annie@example.com',
			image: 'https://static-cdn.jtvnw.net/jtv_user_pictures/annie-profile_image-300x300.png'
		}
	},
	{
		make: () => Spotify(credentials),
		id: 'spotify',
		name: 'Spotify',
		type: 'oauth',
		authorization: 'https://accounts.spotify.com/authorize',
		token: 'https://accounts.spotify.com/api/token',
		userinfo: 'https://api.spotify.com/v1/me',
		scope: 'user-read-email',
		record: fixtures.spotify,
		user: { id: 'wizzler', name: 'Dorothy V', email: 'dorothy@example.com', image: 'https://i.scdn.co/image/ab6775700000ee85large' }
	},
	{
		make: () => Keycloak({ ...credentials, issuer: 'https://kc.example.com/realms/staff' }),
		id: 'keycloak',
		name: 'Keycloak',
		type: 'oidc',
		issuer: 'https://kc.example.com/realms/staff',
		scope: 'openid email profile',
		record: fixtures.keycloak,
		user: { id: 'f3c5a1e2-9d8b-4c7a-b6e5-d4c3b2a19f80', name: 'mhamilton', email: 'margaret@example.com', image: null }
	},
	{
		make: () => Okta({ ...credentials, issuer: 'https://dev-123456.okta.com/oauth2/default' }),
		id: 'okta',
		name: 'Okta',
		type: 'oidc',
		issuer: 'https://dev-123456.okta.com/oauth2/default',
		scope: 'openid email profile',
		record: fixtures.okta,
		user: { id: '00u1a2b3c4D5e6F7g8h9', name: 'Jean Sammet', email: 'jean@example.com', image: null }
	},
	{
		make: () => Auth0({ ...credentials, issuer: 'https://my-tenant.us.auth0.com' }),
		id: 'auth0',
		name: 'Auth0',
		type: 'oidc',
		issuer: 'https://my-tenant.us.auth0.com/',
		scope: 'openid email profile',
		record: fixtures.auth0,
		user: {
			id: 'auth0|6507a2c1f0e4b3d2a1c0b9a8',
			name: 'sophie@example.com',
			email: 'sophie@example.com',
			image: 'https://s.gravatar.com/avatar/5ca1ab1e?s=480&r=pg&d=https%3A%2F%2Fcdn.auth0.com%2Favatars%2Fso.png'
		}
	},
	{
		make: () => Cognito({ ...credentials, issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI' }),
		id: 'cognito',
		name: 'Cognito',
		type: 'oidc',
		issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI',
		scope: 'openid email profile',
		record: fixtures.cognito,
		user: { id: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', name: 'evelyn.b', email: 'evelyn@example.com', image: null }
	},
	{
		make: () => TikTok(credentials),
		id: 'tiktok',
		name: 'TikTok',
		type: 'oauth',
		authorization: 'https://www.tiktok.com/v2/auth/authorize/',
		token: 'https://open.tiktokapis.com/v2/oauth/token/',
		userinfo: 'https://open.tiktokapis.com/v2/user/info/',
		scope: 'user.info.basic',
		checks: ['state'],
		record: fixtures.tiktok,
		user: {
			id: '723f24d7-e717-40f8-a2b6-cb8464cd23b4',
			name: 'Lynn Conway',
			email: null,
			image: 'https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b~c5_1080x1080.webp'
		}
	},
	{
		make: () => Twitter({ version: '2.0', ...credentials }),
		id: 'twitter',
		name: 'X (Twitter)',
		type: 'oauth',
		authorization: 'https://x.com/i/oauth2/authorize',
		token: 'https://api.x.com/2/oauth2/token',
		userinfo: 'https://api.x.com/2/users/me',
		scope: 'users.read tweet.read offline.access',
		checks: ['pkce', 'state'],
		record: fixtures.twitterV2,
		user: {
			id: '2244994945',
			name: 'Alan Turing',
			email: null,
			image: 'https://pbs.twimg.com/profile_images/1445764922474827784/W2zEPN7U_normal.jpg'
		}
	}
];

describe.each(cases)('$id', (c) => {
	test('id, name, type, endpoints, scope and checks', () => {
		const provider = c.make();
		expect(provider).toMatchObject({ id: c.id, name: c.name, type: c.type, ...credentials });
		expect(provider.issuer).toBe(c.issuer);
		expect(endpointUrl(provider.authorization)).toBe(c.authorization);
		expect(endpointUrl(provider.token)).toBe(c.token);
		expect(endpointUrl(provider.userinfo)).toBe(c.userinfo);
		expect(params(provider, 'authorization').scope).toBe(c.scope);
		expect(provider.checks).toEqual(c.checks);
		if (c.type === 'oauth') expect(provider.authorization && provider.token && provider.userinfo).toBeTruthy();
		else expect(provider.issuer ?? provider.wellKnown).toMatch(/^https:\/\//);
	});

	test('default profile() maps the recorded profile to { id, name, email, image }', async () => {
		expect(await mapProfile(c.make(), c.record)).toEqual(c.user);
	});

	test('style: a valid hex brand colour and a safe inline SVG logo', () => {
		const { style } = c.make();
		expect(style?.brandColor).toMatch(/^#[0-9a-f]{6}$/i);
		expect(style?.logo).toMatch(/^data:image\/svg\+xml,/);
		expect(safeImageUrl(style?.logo)).toBe(style?.logo);
		expect(decodeURIComponent(style!.logo!.slice('data:image/svg+xml,'.length))).toMatch(/^<svg [^>]*>.*<\/svg>$/);
	});

	test('is accepted by the engine configuration', () => {
		const provider = c.make();
		expect(() =>
			resolveConfig({ secret: 'x'.repeat(32), trustHost: true, providers: [provider] }, {})
		).not.toThrow();
	});

	test('environment defaults: AUTH_<ID>_ID / AUTH_<ID>_SECRET; options win', () => {
		const prefix = providerEnvPrefix(c.id);
		vi.stubEnv(`${prefix}_ID`, 'id-from-env');
		vi.stubEnv(`${prefix}_SECRET`, 'secret-from-env');
		const fromOptions = c.make();
		expect(fromOptions.clientId).toBe('client-id');
		const fromEnv = mergeProvider({ ...fromOptions, clientId: undefined, clientSecret: undefined }, {});
		expect(fromEnv.clientId).toBe('id-from-env');
		expect(fromEnv.clientSecret).toBe('secret-from-env');
	});
});

describe('environment defaults', () => {
	test('env prefixes: upper case, non-alphanumerics as "_"', () => {
		expect(providerEnvPrefix('github')).toBe('AUTH_GITHUB');
		expect(providerEnvPrefix('microsoft-entra-id')).toBe('AUTH_MICROSOFT_ENTRA_ID');
		expect(providerEnvPrefix('corporate.sso')).toBe('AUTH_CORPORATE_SSO');
	});

	test('factories called without options read AUTH_<ID>_ID, _SECRET and _ISSUER', () => {
		vi.stubEnv('AUTH_GITHUB_ID', 'gh-id');
		vi.stubEnv('AUTH_GITHUB_SECRET', 'gh-secret');
		vi.stubEnv('AUTH_KEYCLOAK_ID', 'kc-id');
		vi.stubEnv('AUTH_KEYCLOAK_SECRET', 'kc-secret');
		vi.stubEnv('AUTH_KEYCLOAK_ISSUER', 'https://kc.example.com/realms/env');
		vi.stubEnv('AUTH_MICROSOFT_ENTRA_ID_ID', 'entra-id');
		vi.stubEnv('AUTH_MICROSOFT_ENTRA_ID_ISSUER', 'https://login.microsoftonline.com/contoso.example/v2.0');
		expect(GitHub()).toMatchObject({ clientId: 'gh-id', clientSecret: 'gh-secret' });
		expect(Keycloak()).toMatchObject({ clientId: 'kc-id', clientSecret: 'kc-secret', issuer: 'https://kc.example.com/realms/env' });
		expect(MicrosoftEntraID()).toMatchObject({
			clientId: 'entra-id',
			issuer: 'https://login.microsoftonline.com/contoso.example/v2.0'
		});
		// an explicit option wins over the environment
		expect(GitHub({ clientId: 'explicit' }).clientId).toBe('explicit');
		expect(GitHub({ clientId: undefined }).clientId).toBe('gh-id');
	});

	test('a provider factory passed uncalled (`providers: [GitHub]`) works from the environment', () => {
		const resolved = resolveConfig(
			{ secret: 'x'.repeat(32), trustHost: true, providers: [GitHub as unknown as OAuthConfig] },
			{ AUTH_GITHUB_ID: 'gh-id', AUTH_GITHUB_SECRET: 'gh-secret' }
		);
		expect(resolved.providerById.get('github')).toMatchObject({ clientId: 'gh-id', type: 'oauth' });
	});

	test('a custom id reads its own variables', () => {
		vi.stubEnv('AUTH_GITHUB_WORK_ID', 'work-id');
		expect(GitHub({ id: 'github-work' })).toMatchObject({ id: 'github-work', clientId: 'work-id' });
		vi.stubEnv('AUTH_CORPORATE_SSO_ISSUER', 'https://sso.example.com');
		expect(OIDC({ id: 'corporate-sso', name: 'Corporate SSO' }).issuer).toBe('https://sso.example.com');
	});

	test('mergeProvider takes the environment as a parameter', () => {
		const merged = mergeProvider(
			{ id: 'acme', name: 'Acme', type: 'oauth', authorization: 'https://acme.test/authorize' },
			{},
			{ AUTH_ACME_ID: 'a', AUTH_ACME_SECRET: 'b', AUTH_ACME_ISSUER: 'https://acme.test' }
		);
		expect(merged).toMatchObject({ clientId: 'a', clientSecret: 'b', issuer: 'https://acme.test' });
	});
});

describe('mergeProvider', () => {
	const defaults = {
		id: 'acme',
		name: 'Acme',
		type: 'oauth' as const,
		authorization: { url: 'https://acme.test/authorize', params: { scope: 'read', prompt: 'login' } },
		token: 'https://acme.test/token',
		userinfo: { url: 'https://acme.test/me', params: { fields: 'id,name' }, request: () => ({}) },
		client: { token_endpoint_auth_method: 'client_secret_post' },
		style: { brandColor: '#123456', logo: 'data:image/svg+xml,<svg/>' }
	};

	test('endpoint params, style and client merge one level deep', () => {
		const merged = mergeProvider(defaults, {
			authorization: { params: { scope: 'read write' } },
			style: { brandColor: '#654321' },
			client: { id_token_signed_response_alg: 'ES256' }
		}, {});
		expect(merged.authorization).toEqual({ url: 'https://acme.test/authorize', params: { scope: 'read write', prompt: 'login' } });
		expect(merged.style).toEqual({ brandColor: '#654321', logo: 'data:image/svg+xml,<svg/>' });
		expect(merged.client).toEqual({ token_endpoint_auth_method: 'client_secret_post', id_token_signed_response_alg: 'ES256' });
	});

	test('an endpoint string replaces the default endpoint, request handler included', () => {
		const merged = mergeProvider(defaults, { userinfo: 'https://other.test/me', token: { params: { audience: 'api' } } }, {});
		expect(merged.userinfo).toBe('https://other.test/me');
		expect(merged.token).toEqual({ url: 'https://acme.test/token', params: { audience: 'api' } });
	});

	test('undefined options never erase defaults; other fields override', () => {
		const merged = mergeProvider(defaults, { name: undefined, checks: ['state'], allowDangerousEmailAccountLinking: true }, {});
		expect(merged.name).toBe('Acme');
		expect(merged.checks).toEqual(['state']);
		expect(merged.allowDangerousEmailAccountLinking).toBe(true);
		expect(merged).not.toHaveProperty('clientId');
	});

	test('a user profile() replaces the default one', async () => {
		const provider = GitHub({ ...credentials, profile: (profile) => ({ id: profile.login, role: 'admin' }) });
		expect(await mapProfile(provider, fixtures.github)).toEqual({ id: 'hopper-g', role: 'admin' });
	});
});

describe('provider specifics', () => {
	test('GitHub: Enterprise Server URLs; the primary verified email is chosen', () => {
		const enterprise = GitHub({ ...credentials, enterprise: { baseUrl: 'https://github.example.com/' } });
		expect(endpointUrl(enterprise.authorization)).toBe('https://github.example.com/login/oauth/authorize');
		expect(endpointUrl(enterprise.token)).toBe('https://github.example.com/login/oauth/access_token');
		expect(endpointUrl(enterprise.userinfo)).toBe('https://github.example.com/api/v3/user');
		const email = (address: string, primary: boolean, verified: boolean) => ({ email: address, primary, verified, visibility: null });
		expect(githubPrimaryEmail([email('old@example.com', false, true), email('main@example.com', true, true)])).toBe('main@example.com');
		expect(githubPrimaryEmail([email('unverified@example.com', true, false), email('ok@example.com', false, true)])).toBe('ok@example.com');
		expect(githubPrimaryEmail([email('unverified@example.com', true, false)])).toBeNull();
		expect(githubPrimaryEmail([])).toBeNull();
	});

	test('GitHub: the name falls back to the login', async () => {
		expect(await mapProfile(GitHub(credentials), { ...fixtures.github, name: null, email: null })).toMatchObject({
			name: 'hopper-g',
			email: null
		});
	});

	test('GitLab: self-managed base URL', () => {
		const provider = GitLab({ ...credentials, baseUrl: 'https://gitlab.example.com' });
		expect(endpointUrl(provider.authorization)).toBe('https://gitlab.example.com/oauth/authorize');
		expect(endpointUrl(provider.userinfo)).toBe('https://gitlab.example.com/api/v4/user');
	});

	test('Discord: default avatars for users without one (new usernames by id, legacy by discriminator)', async () => {
		const discord = Discord(credentials);
		const newStyle = await mapProfile(discord, { ...fixtures.discord, avatar: null });
		expect(newStyle.image).toBe(`https://cdn.discordapp.com/embed/avatars/${Number((80351110224678912n >> 22n) % 6n)}.png`);
		const legacy = await mapProfile(discord, { ...fixtures.discord, avatar: null, discriminator: '1337', global_name: null });
		expect(legacy).toMatchObject({ image: 'https://cdn.discordapp.com/embed/avatars/2.png', name: 'nelly' });
		const still = await mapProfile(discord, { ...fixtures.discord, avatar: '8342729096ea3675442027381ff50dfe' });
		expect(still.image).toMatch(/\.png$/);
	});

	test('Apple: form_post response mode, client_secret_post; without the user field there is no name', async () => {
		const apple = Apple(credentials);
		expect(params(apple, 'authorization').response_mode).toBe('form_post');
		expect(apple.client).toEqual({ token_endpoint_auth_method: 'client_secret_post' });
		const { user: _user, ...idTokenOnly } = fixtures.apple;
		expect(await mapProfile(apple, idTokenOnly)).toEqual({
			id: fixtures.apple.sub,
			name: null,
			email: fixtures.apple.email,
			image: null
		});
	});

	test('Facebook: profile fields are asked for in the userinfo query', () => {
		expect(params(Facebook(credentials), 'userinfo')).toEqual({ fields: 'id,name,email,picture' });
		const custom = Facebook({ ...credentials, userinfo: { params: { fields: 'id,name' } } });
		expect(endpointUrl(custom.userinfo)).toBe('https://graph.facebook.com/v21.0/me');
		expect(params(custom, 'userinfo')).toEqual({ fields: 'id,name' });
	});

	test('Microsoft Entra ID: "common" tenant by default; tenantId builds the issuer; issuer wins', () => {
		expect(MicrosoftEntraID(credentials).issuer).toBe('https://login.microsoftonline.com/common/v2.0');
		expect(MicrosoftEntraID({ ...credentials, tenantId: 'contoso.onmicrosoft.com' }).issuer).toBe(
			'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0'
		);
		expect(MicrosoftEntraID({ ...credentials, tenantId: 'x', issuer: 'https://login.microsoftonline.com/y/v2.0' }).issuer).toBe(
			'https://login.microsoftonline.com/y/v2.0'
		);
	});

	test('Microsoft Entra ID: email from the email claim when present', async () => {
		expect(await mapProfile(MicrosoftEntraID(credentials), { ...fixtures.microsoftEntraId, email: 'fran@contoso.example' })).toMatchObject({
			email: 'fran@contoso.example'
		});
	});

	test('Twitch: asks for the email, picture and username claims', () => {
		const claims = JSON.parse(params(Twitch(credentials), 'authorization').claims!);
		expect(Object.keys(claims.id_token).sort()).toEqual(['email', 'email_verified', 'picture', 'preferred_username']);
		expect(Twitch(credentials).client).toEqual({ token_endpoint_auth_method: 'client_secret_post' });
	});

	test('Spotify: the largest image; the id when there is no display name', async () => {
		expect(await mapProfile(Spotify(credentials), { ...fixtures.spotify, display_name: null, images: [] })).toEqual({
			id: 'wizzler',
			name: 'wizzler',
			email: 'dorothy@example.com',
			image: null
		});
	});

	test('Keycloak, Okta, Auth0, Cognito and OIDC need an issuer, and say which variable sets it when the config is resolved (not when created: an app build has no secrets)', () => {
		const resolve = (provider: OAuthConfig, env: Record<string, string> = {}) =>
			resolveConfig({ secret: 'x'.repeat(32), trustHost: true, providers: [provider] }, env);
		for (const make of [Keycloak, Okta, Auth0, Cognito, OIDC]) {
			const provider = make({ ...credentials });
			expect(() => resolve(provider)).toThrow(InvalidConfiguration);
		}
		expect(() => resolve(Keycloak(credentials))).toThrow(/AUTH_KEYCLOAK_ISSUER/);
		expect(() => resolve(Cognito(credentials))).toThrow(/cognito-idp\./);
		// the environment the integration read (e.g. SvelteKit's .env) completes it
		const fromEnv = resolve(Auth0(credentials), { AUTH_AUTH0_ISSUER: 'https://t.eu.auth0.com' });
		expect((fromEnv.providers[0] as OAuthConfig).issuer).toBe('https://t.eu.auth0.com/');
	});

	test('Auth0: a trailing slash is added to the issuer, kept when present', () => {
		expect(Auth0({ ...credentials, issuer: 'https://t.eu.auth0.com' }).issuer).toBe('https://t.eu.auth0.com/');
		expect(Auth0({ ...credentials, issuer: 'https://login.example.com/' }).issuer).toBe('https://login.example.com/');
	});

	test('Keycloak and Okta: the username when the name is missing', async () => {
		expect((await mapProfile(Okta({ ...credentials, issuer: 'https://o.test' }), { ...fixtures.okta, name: undefined })).name).toBe(
			'jean@example.com'
		);
		expect((await mapProfile(Keycloak({ ...credentials, issuer: 'https://k.test' }), { ...fixtures.keycloak, name: 'Margaret H.' })).name).toBe(
			'Margaret H.'
		);
	});
});

describe('TikTok', () => {
	test('the authorization request carries client_key (the client id is the client key)', () => {
		const tiktok = TikTok({ clientId: 'awx1key', clientSecret: 's' });
		expect(params(tiktok, 'authorization')).toEqual({ scope: 'user.info.basic', client_key: 'awx1key' });
		const withScopes = TikTok({
			clientId: 'awx1key',
			authorization: { params: { scope: 'user.info.basic,user.info.profile' } }
		});
		expect(params(withScopes, 'authorization')).toEqual({ scope: 'user.info.basic,user.info.profile', client_key: 'awx1key' });
	});

	test('client_key comes from AUTH_TIKTOK_ID too', () => {
		vi.stubEnv('AUTH_TIKTOK_ID', 'env-key');
		expect(params(TikTok(), 'authorization').client_key).toBe('env-key');
	});

	test('userinfo asks for the profile fields with `fields`; the token and userinfo requests are handled', () => {
		const tiktok = TikTok(credentials);
		expect(params(tiktok, 'userinfo')).toEqual({ fields: 'open_id,union_id,avatar_url,avatar_url_100,avatar_large_url,display_name' });
		expect(typeof (tiktok.token as { request?: unknown }).request).toBe('function');
		expect(typeof (tiktok.userinfo as { request?: unknown }).request).toBe('function');
		const more = TikTok({ ...credentials, userinfo: { params: { fields: 'open_id,display_name,username,is_verified,follower_count' } } });
		expect(params(more, 'userinfo').fields).toBe('open_id,display_name,username,is_verified,follower_count');
		expect(endpointUrl(more.userinfo)).toBe('https://open.tiktokapis.com/v2/user/info/');
	});

	test('email is never taken (TikTok shares none); name falls back to the username', async () => {
		const user = fixtures.tiktok.data.user;
		const record = { ...fixtures.tiktok, data: { user: { ...user, display_name: undefined, email: 'leak@example.com' } } };
		expect(await mapProfile(TikTok(credentials), record)).toMatchObject({ name: 'lynnconway', email: null });
		const basic = { data: { user: { open_id: user.open_id, avatar_url: user.avatar_url, display_name: 'Lynn' } }, error: fixtures.tiktok.error };
		expect(await mapProfile(TikTok(credentials), basic)).toEqual({ id: user.open_id, name: 'Lynn', email: null, image: user.avatar_url });
	});

	test('the API error shape { code, log_id, message } becomes an OAuthCallbackError naming all three', () => {
		expect(tikTokError(fixtures.tiktok)).toBeUndefined();
		const error = tikTokError(fixtures.tiktokError)!;
		expect(error).toBeInstanceOf(OAuthCallbackError);
		expect(error.type).toBe('OAuthCallbackError');
		expect(error.message).toContain('access_token_invalid');
		expect(error.message).toContain('The access token is invalid or not found in the request.');
		expect(error.message).toContain('202512311200009E8D7C6B5A4F3E2D1C');
	});
});

describe('Twitter', () => {
	test('OAuth 1.0a by default: request token, authenticate, access token, verify_credentials with email', () => {
		const twitter = Twitter(credentials);
		expect(twitter).toMatchObject({ id: 'twitter', type: 'oauth', version: '1.0a' });
		expect(endpointUrl(twitter.requestToken as string)).toBe('https://api.x.com/oauth/request_token');
		expect(endpointUrl(twitter.authorization)).toBe('https://api.x.com/oauth/authenticate');
		expect(endpointUrl(twitter.token)).toBe('https://api.x.com/oauth/access_token');
		expect(endpointUrl(twitter.userinfo)).toBe('https://api.x.com/1.1/account/verify_credentials.json');
		expect(params(twitter, 'userinfo')).toMatchObject({ include_email: 'true', skip_status: 'true' });
		expect(twitter.checks).toBeUndefined();
	});

	test('OAuth 1.0a profile: id_str, full-size image, email when granted', async () => {
		expect(await mapProfile(Twitter(credentials), fixtures.twitterLegacy)).toEqual({
			id: '95761823',
			name: 'Joan Clarke',
			email: 'joan@example.com',
			image: 'https://pbs.twimg.com/profile_images/1467726532252590080/AbCdEf12.jpg'
		});
		const { email: _email, ...withoutEmail } = fixtures.twitterLegacy;
		expect((await mapProfile(Twitter(credentials), withoutEmail)).email).toBeNull();
	});

	test('version "2.0": PKCE and state, users/me with user.fields; includes are passed through to profile()', async () => {
		const twitter = Twitter({
			version: '2.0',
			...credentials,
			userinfo: { params: { 'user.fields': 'profile_image_url,description', expansions: 'pinned_tweet_id' } },
			profile: ({ data, includes }) => ({ id: data.id, name: data.username, pinned: includes?.tweets?.[0]?.text })
		});
		expect(twitter.version).toBe('2.0');
		expect(params(twitter, 'userinfo')).toEqual({ 'user.fields': 'profile_image_url,description', expansions: 'pinned_tweet_id' });
		expect(await mapProfile(twitter, fixtures.twitterV2)).toEqual({ id: '2244994945', name: 'aturing', pinned: 'Can machines think?' });
	});
});

describe('generic helpers', () => {
	test('OIDC({ id, name, issuer, clientId, clientSecret })', async () => {
		const provider = OIDC({ id: 'corp', name: 'Corp SSO', issuer: 'https://sso.corp.test', ...credentials });
		expect(provider).toMatchObject({ id: 'corp', name: 'Corp SSO', type: 'oidc', issuer: 'https://sso.corp.test', ...credentials });
		expect(params(provider, 'authorization').scope).toBe('openid email profile');
		expect(await mapProfile(provider, { sub: 's-1', preferred_username: 'kay', email: 'kay@corp.test', picture: 'https://corp.test/k.png' })).toEqual({
			id: 's-1',
			name: 'kay',
			email: 'kay@corp.test',
			image: 'https://corp.test/k.png'
		});
		expect(OIDC({ wellKnown: 'https://sso.corp.test/.well-known/openid-configuration', ...credentials }).id).toBe('oidc');
	});

	test('OAuth({ id, authorization, token, userinfo }) with the common-field profile mapping', async () => {
		const provider = OAuth({
			id: 'acme',
			name: 'Acme',
			...credentials,
			authorization: { url: 'https://id.acme.test/authorize', params: { scope: 'profile' } },
			token: 'https://id.acme.test/token',
			userinfo: 'https://api.acme.test/me'
		});
		expect(provider).toMatchObject({ id: 'acme', type: 'oauth', ...credentials });
		expect(provider.checks).toBeUndefined();
		expect(await mapProfile(provider, { id: 42, login: 'wes', avatar_url: 'https://acme.test/w.png' })).toEqual({
			id: '42',
			name: 'wes',
			email: null,
			image: 'https://acme.test/w.png'
		});
		expect(() => resolveConfig({ secret: 'x'.repeat(32), trustHost: true, providers: [provider] }, {})).not.toThrow();
	});

	test('OAuth() without an id or an endpoint fails at configuration time', () => {
		expect(() => OAuth({} as never)).toThrow(InvalidConfiguration);
		expect(() => OAuth({ id: 'x', authorization: 'https://x.test/a', token: 'https://x.test/t' })).toThrow(/userinfo/);
	});
});

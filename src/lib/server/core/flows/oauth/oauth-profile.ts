// From a validated token response to kitgate's records: the token set (with `expires_at`), the
// user `profile()` maps, and the account with the token fields `account()` chooses (OAuth 2 and 1.0a).

import type { TokenEndpointResponse } from 'oauth4webapi';
import { OAuthCallbackError } from '../../errors.js';
import type { Account, OAuthConfig, Profile, TokenSet, User } from '../../types.js';

/** Token fields an account keeps when the provider has no `account()` callback. */
const DEFAULT_ACCOUNT_FIELDS = [
	'access_token',
	'id_token',
	'refresh_token',
	'expires_at',
	'scope',
	'token_type',
	'session_state'
] as const;

/**
 * The token set of a token response: its fields plus `expires_at` (seconds since epoch, from
 * `expires_in` and the engine clock `nowMs`) and a lowercase `token_type`.
 *
 * @example
 * tokenSetFrom({ access_token: "a", token_type: "Bearer", expires_in: 3600 }, Date.now()).expires_at;
 */
export function tokenSetFrom(response: TokenEndpointResponse | TokenSet, nowMs: number): TokenSet {
	const tokens: TokenSet = { ...(response as TokenSet) };
	if (typeof tokens.token_type === 'string') tokens.token_type = tokens.token_type.toLowerCase();
	const expiresIn = Number(tokens.expires_in);
	if (tokens.expires_in !== undefined && Number.isFinite(expiresIn)) {
		tokens.expires_at = Math.floor(nowMs / 1000) + Math.floor(expiresIn);
	}
	return tokens;
}

/**
 * The user kitgate signs in: the provider's `profile(profile, tokens)`, or `defaultMapping`
 * (`defaultUser`: `{ id: sub ?? id, name: name ?? nickname ?? preferred_username, email, image: picture }`).
 * The id becomes the account's `providerAccountId`, so a profile without one is refused.
 *
 * @example
 * await userFromProfile(provider, { sub: "42", email: "ada@example.com" }, tokens); // { id: "42", email: ..., name: null, image: null }
 */
export async function userFromProfile(
	provider: OAuthConfig,
	profile: Profile,
	tokens: TokenSet,
	defaultMapping: (profile: Profile) => User = defaultUser
): Promise<User> {
	let user: User;
	try {
		user = provider.profile ? await provider.profile(profile, tokens) : defaultMapping(profile);
	} catch (error) {
		throw new OAuthCallbackError(`profile() of provider "${provider.id}" threw.`, { cause: { err: error } });
	}
	if (!user || typeof user !== 'object') {
		throw new OAuthCallbackError(`profile() of provider "${provider.id}" must return a user object.`);
	}
	const id = user.id as unknown;
	if ((typeof id !== 'string' && typeof id !== 'number') || id === '') {
		throw new OAuthCallbackError(
			`The user of provider "${provider.id}" has no id: the profile has no \`sub\`/\`id\`, or profile() returned none.`
		);
	}
	return { ...user, id: String(id) };
}

/**
 * The default profile mapping (OIDC standard claims, or a profile with `id`).
 *
 * @example
 * defaultUser({ sub: '1', nickname: 'ada' }); // { id: '1', name: 'ada', email: null, image: null }
 */
export function defaultUser(profile: Profile): User {
	const id = profile.sub ?? profile.id;
	return {
		id: id === undefined || id === null ? undefined : String(id),
		name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
		email: profile.email ?? null,
		image: typeof profile.picture === 'string' ? profile.picture : null
	};
}

/**
 * The account a sign-in stores: the token fields (`accountFields`) with the provider, its type
 * and the user's id as `providerAccountId`. An `account()` that throws is an `OAuthCallbackError`.
 *
 * @example
 * accountFromTokens(github, tokens, user); // { access_token: "…", provider: "github", type: "oauth", providerAccountId: "42" }
 */
export function accountFromTokens(
	provider: OAuthConfig,
	tokens: TokenSet,
	user: User,
	defaultFields: readonly string[] = DEFAULT_ACCOUNT_FIELDS
): Account {
	let fields: TokenSet;
	try {
		fields = accountFields(provider, tokens, defaultFields);
	} catch (error) {
		throw new OAuthCallbackError(`account() of provider "${provider.id}" threw.`, { cause: { err: error } });
	}
	return { ...fields, provider: provider.id, type: provider.type, providerAccountId: user.id as string };
}

/**
 * The token fields stored on the account: what `account(tokens)` returns, else `defaultFields`
 * (OAuth 2's: access_token, id_token, refresh_token, expires_at, scope, token_type, session_state).
 *
 * @example
 * accountFields(provider, tokens); // { access_token: "…", expires_at: 1767225600, token_type: "bearer" }
 */
export function accountFields(provider: OAuthConfig, tokens: TokenSet, defaultFields: readonly string[] = DEFAULT_ACCOUNT_FIELDS): TokenSet {
	const chosen = provider.account ? provider.account({ ...tokens }) : undefined;
	const fields: TokenSet = {};
	if (chosen && typeof chosen === 'object') {
		Object.assign(fields, chosen);
	} else {
		for (const key of defaultFields) if (tokens[key] !== undefined) fields[key] = tokens[key];
	}
	if (typeof fields.token_type === 'string') fields.token_type = fields.token_type.toLowerCase();
	return fields;
}

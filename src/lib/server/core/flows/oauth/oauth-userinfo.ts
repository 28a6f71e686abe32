// Where the profile comes from after the code exchange: ID token claims, the userinfo endpoint
// (oauth4webapi), or a provider's own `userinfo.request`. Used by the OAuth 2 and 1.0a callbacks.

import * as oauth from 'oauth4webapi';
import { OAuthCallbackError } from '../../errors.js';
import type { LoggerInstance, OAuthConfig, Profile, TokenSet } from '../../types.js';
import { oauthStepError } from './oauth-errors.js';
import { idpHttpOptions } from './oauth-http.js';
import { definedParams, endpointObject } from './oauth-metadata.js';
import { mergeUserinfoClaims } from './userinfo-claims-merge.js';

/** The standard claims a user is known by; an ID token of the code flow may leave them to userinfo (OIDC Core 5.4). */
const PROFILE_CLAIMS = ['email', 'name'] as const;

/** Providers whose ID tokens lacked the profile claims with nowhere else to read them, already warned about. */
const warnedNoUserinfo = new Set<string>();

/**
 * The profile of the signed-in user: the ID token's claims (OIDC), completed from userinfo when
 * they lack `email` or `name` (`withUserinfoClaims`); else the userinfo endpoint (whose `sub` must
 * match the ID token's) or the provider's `userinfo.request`; plus, for a provider with
 * `formPostUser` (Apple), the callback's `user` form field as `profile.user`.
 *
 * @example
 * const profile = await readProfile(provider, as, client, tokens, claims, params, 10_000, ctx.config.logger);
 */
export async function readProfile(
	provider: OAuthConfig,
	as: oauth.AuthorizationServer,
	client: oauth.Client,
	tokens: TokenSet,
	claims: oauth.IDToken | undefined,
	params: URLSearchParams,
	timeout: number,
	logger: Pick<LoggerInstance, 'warn'>
): Promise<Profile> {
	let profile: Profile;
	if (provider.type === 'oidc' && provider.idToken !== false && claims) {
		profile = await withUserinfoClaims(provider, as, client, tokens, { ...claims }, timeout, logger);
	} else {
		profile = await fetchUserinfo(provider, as, client, tokens, claims?.sub, timeout);
	}
	if (provider.formPostUser === true && profile.user === undefined) {
		const user = formUser(params);
		if (user) profile.user = user;
	}
	return profile;
}

/**
 * The ID token's claims, completed from userinfo when they lack `email` or `name`: a standard
 * OpenID provider puts them in userinfo only (OIDC Core 5.4), and the user would sign in nameless.
 * Userinfo about another subject refuses the sign-in; userinfo that cannot be read leaves the
 * claims as they are (logged). Without a userinfo endpoint, the first such sign-in logs a warning
 * (not for a provider whose name comes in the callback's form, `formPostUser`).
 */
async function withUserinfoClaims(
	provider: OAuthConfig,
	as: oauth.AuthorizationServer,
	client: oauth.Client,
	tokens: TokenSet,
	idClaims: Profile,
	timeout: number,
	logger: Pick<LoggerInstance, 'warn'>
): Promise<Profile> {
	const absent = PROFILE_CLAIMS.filter((claim) => typeof idClaims[claim] !== 'string' || idClaims[claim] === '');
	if (absent.length === 0) return idClaims;
	const lacking = `the ID token has no ${absent.map((claim) => `\`${claim}\``).join(' or ')} claim`;
	const handled = typeof endpointObject(provider.userinfo).request === 'function';
	if (!as.userinfo_endpoint && !handled) {
		// a `formPostUser` provider (Apple) sends the name in the callback's form, not in the ID token
		if (provider.formPostUser !== true && !warnedNoUserinfo.has(provider.id)) {
			warnedNoUserinfo.add(provider.id);
			logger.warn(
				'oidc-profile-claims',
				`Provider "${provider.id}": ${lacking} and the provider has no userinfo endpoint, so users sign in without it. ` +
					'Ask for it (`authorization: { params: { scope: "openid profile email" } }`), set `userinfo` to the endpoint that has it, ' +
					'or map what the ID token has in `profile()`.'
			);
		}
		return idClaims;
	}
	let userinfo: Profile;
	try {
		// the subject is compared below: a mismatch refuses the sign-in, a failed request does not
		userinfo = await fetchUserinfo(provider, as, client, tokens, undefined, timeout);
	} catch (error) {
		// fetchUserinfo's error names the provider and the step already
		logger.warn('oidc-userinfo', `${(error as Error).message} (${lacking}, so the user signs in without it)`);
		return idClaims;
	}
	if (userinfo.sub === undefined || userinfo.sub === null) {
		logger.warn('oidc-userinfo', `Provider "${provider.id}": ${lacking} and its userinfo has no \`sub\` to tie it to the ID token, so it is not used.`);
		return idClaims;
	}
	if (userinfo.sub !== idClaims.sub) {
		throw new OAuthCallbackError(`Provider "${provider.id}": userinfo is about another subject than the ID token; the sign-in is refused.`);
	}
	return mergeUserinfoClaims(idClaims, userinfo);
}

/**
 * The JSON object of the callback's `user` form field (Apple posts the user's name there on the
 * first sign-in), or undefined. Read only for providers with `formPostUser`: anyone can post it.
 */
function formUser(params: URLSearchParams): Record<string, unknown> | undefined {
	const field = params.get('user');
	if (!field) return undefined;
	try {
		const parsed: unknown = JSON.parse(field);
		return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

async function fetchUserinfo(
	provider: OAuthConfig,
	as: oauth.AuthorizationServer,
	client: oauth.Client,
	tokens: TokenSet,
	subject: string | undefined,
	timeout: number
): Promise<Profile> {
	try {
		const handled = await profileFromUserinfoRequest(provider, tokens);
		if (handled) return handled;
		if (!as.userinfo_endpoint) throw new Error('the provider has no userinfo endpoint; set `userinfo`.');
		const endpoint = new URL(as.userinfo_endpoint);
		for (const [name, value] of Object.entries(definedParams(endpointObject(provider.userinfo).params))) endpoint.searchParams.set(name, value);
		const target = { ...as, userinfo_endpoint: endpoint.href };
		const response = await oauth.userInfoRequest(target, client, tokens.access_token ?? '', idpHttpOptions(endpoint.href, timeout));
		if (provider.type === 'oidc') {
			// the userinfo subject must be the ID token's: a swapped response is refused
			return { ...(await oauth.processUserInfoResponse(target, client, subject ?? oauth.skipSubjectCheck, response)) };
		}
		return await profileFromUserinfoResponse(response);
	} catch (error) {
		throw oauthStepError('callback', provider.id, 'the userinfo request', error);
	}
}

/**
 * The profile the provider's own `userinfo.request({ provider, tokens })` returns; undefined when
 * the provider has no such handler. Throws when the handler returns no object.
 *
 * @example
 * await profileFromUserinfoRequest(provider, tokens); // the handler's profile, or undefined without one
 */
export async function profileFromUserinfoRequest(provider: OAuthConfig, tokens: TokenSet): Promise<Profile | undefined> {
	const { request } = endpointObject(provider.userinfo);
	if (typeof request !== 'function') return undefined;
	const profile = await request({ provider, tokens });
	if (!profile || typeof profile !== 'object') throw new Error('userinfo.request must return the profile object.');
	return profile as Profile;
}

/**
 * The profile in a plain (not OIDC) userinfo response: its JSON object. Throws on an error status
 * or a body that is not a JSON object.
 *
 * @example
 * const profile = await profileFromUserinfoResponse(await fetchWithTimeout(userinfoUrl, init, 10_000));
 */
export async function profileFromUserinfoResponse(response: Response): Promise<Profile> {
	if (!response.ok) throw new Error(`the userinfo endpoint answered ${response.status}`);
	const body: unknown = await response.json();
	if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('the userinfo response is not a JSON object');
	return body as Profile;
}

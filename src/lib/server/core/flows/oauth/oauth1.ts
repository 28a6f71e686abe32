// OAuth 1.0a sign-in (RFC 5849 with the 1.0a verifier): request token → authorize redirect →
// access token → signed profile request; check cookie, errors, user and account as in OAuth 2.

import { randomToken } from '../../crypto/random.js';
import { completeSignIn } from '../complete-sign-in.js';
import type { RequestContext } from '../../request/context.js';
import { stringsEqual } from '../../crypto/bytes.js';
import { InvalidCheck, OAuthCallbackError } from '../../errors.js';
import type { Outcome } from '../../response/outcome.js';
import type { Account, CookieOption, EndpointOption, OAuthConfig, Profile, TokenSet, User } from '../../types.js';
import { answerFailedCallback } from './oauth-callback-failure.js';
import { signedInUserId } from './connecting-user.js';
import { clearCheckCookie, sealCheckCookie, takeCheckCookie } from './oauth-checks.js';
import { oauthStepError } from './oauth-errors.js';
import { fetchWithTimeout, idpTimeout, isAllowedEndpoint, readBoundedText } from './oauth-http.js';
import { definedParams, endpointObject, endpointUrl } from './oauth-metadata.js';
import { accountFromTokens, defaultUser, userFromProfile } from './oauth-profile.js';
import { profileFromUserinfoRequest, profileFromUserinfoResponse } from './oauth-userinfo.js';
import { signOAuth1Request } from './oauth1-signature.js';
import { forwardProxiedCallback, proxyState, redirectProxyUrl, redirectUri, requireVouchedUrl } from './redirect-proxy.js';

/**
 * An OAuth 1.0a provider: `version: "1.0a"`, `requestToken` (temporary credentials endpoint),
 * `authorization` (where the user approves), `token` (access token endpoint), `userinfo` (profile,
 * fetched with a signed GET), `clientId`/`clientSecret` (consumer key and secret).
 */
export interface OAuth1Config extends OAuthConfig {
	version: '1.0a';
	requestToken: EndpointOption;
}

/** The token set of an OAuth 1.0a sign-in (Twitter adds `user_id` and `screen_name`). */
export interface OAuth1Tokens extends TokenSet {
	oauth_token: string;
	oauth_token_secret: string;
	user_id?: string;
	screen_name?: string;
}

/** What the request-token cookie holds between the redirect and the callback. */
interface PendingAuthorization {
	token: string;
	secret: string;
	callbackUrl: string;
	/** The user signed in when the sign-in started, in this browser (an explicit "connect", row N1). */
	user?: string;
}

/** Token fields an account keeps when the provider has no `account()` callback. */
const DEFAULT_ACCOUNT_FIELDS = ['oauth_token', 'oauth_token_secret'] as const;

/** The check cookie of OAuth 1.0a, holding the request token and its secret: `<state cookie>.oauth1`. */
function requestTokenCookie(ctx: RequestContext): CookieOption {
	const state = ctx.cookieNames.state;
	return { name: `${state.name}.oauth1`, options: state.options };
}

/**
 * Starts an OAuth 1.0a sign-in: obtains a request token (signed POST carrying `oauth_callback`),
 * keeps it and its secret in a short-lived encrypted httpOnly cookie, and redirects the browser
 * to the provider's authorization page. Failures are `OAuthSignin`.
 *
 * @example
 * // flows/oauth/oauth.ts
 * if (isOAuth1Provider(provider)) return startOAuth1SignIn(ctx, provider, callbackUrl);
 */
export async function startOAuth1SignIn(ctx: RequestContext, provider: OAuthConfig, callbackUrl: string): Promise<Outcome> {
	try {
		const redirect = new URL(endpointWithParams(provider.authorization, 'authorization'));
		const { token, secret } = await requestTemporaryCredentials(ctx, provider);
		const user = await signedInUserId(ctx);
		const pending: PendingAuthorization = { token, secret, callbackUrl, ...(user ? { user } : {}) };
		await sealCheckCookie(ctx, requestTokenCookie(ctx), provider.id, { ...pending });
		redirect.searchParams.set('oauth_token', token);
		return { type: 'redirect', url: redirect.href };
	} catch (error) {
		throw oauthStepError('signin', provider.id, 'starting the sign-in', error);
	}
}

/**
 * Completes an OAuth 1.0a sign-in on the provider's redirect: checks the returned `oauth_token`
 * against the cookie (`InvalidCheck` when missing or different), exchanges it and
 * `oauth_verifier` for an access token, fetches the profile with a signed GET, maps it with
 * `profile()` and hands over to `completeSignIn`. Any failure is logged and ends in the error
 * redirect (upstream failures are `OAuthCallbackError`), with the request-token cookie cleared.
 *
 * @example
 * // flows/oauth/oauth.ts
 * if (isOAuth1Provider(provider)) return handleOAuth1Callback(ctx, provider);
 */
export async function handleOAuth1Callback(ctx: RequestContext, provider: OAuthConfig): Promise<Outcome> {
	let callbackUrl: string | undefined;
	try {
		// on the redirect proxy: send the callback on to the deployment that started the sign-in
		const forward = await forwardProxiedCallback(ctx, provider, new URLSearchParams(ctx.url.searchParams));
		if (forward) return forward;
		const pending = await takePendingAuthorization(ctx, provider);
		callbackUrl = pending?.callbackUrl;
		const identity = await signedInIdentity(ctx, provider, pending);
		return await completeSignIn(ctx, { ...identity, provider, linkRequestedBy: pending?.user });
	} catch (error) {
		return answerFailedCallback(ctx, provider, error, callbackUrl, (failed) => clearCheckCookie(failed, requestTokenCookie(failed)));
	}
}

/** The callback's protocol steps: token check, access token, profile, user and account. */
async function signedInIdentity(
	ctx: RequestContext,
	provider: OAuthConfig,
	pending: PendingAuthorization | undefined
): Promise<{ profile: Profile; user: User; account: Account; callbackUrl: string }> {
	const query = ctx.url.searchParams;
	if (query.has('denied')) {
		throw new OAuthCallbackError(`${provider.name}: the user declined the authorization request.`);
	}
	if (!pending) {
		throw new InvalidCheck(
			`The request token cookie of this sign-in with "${provider.id}" is missing, expired or invalid. ` +
				'Start the sign-in again from this browser (cookies must be enabled).'
		);
	}
	const returnedToken = query.get('oauth_token');
	if (!returnedToken || !stringsEqual(returnedToken, pending.token)) {
		throw new InvalidCheck(`${provider.name}: the oauth_token in the callback is not the one this sign-in requested.`);
	}
	const verifier = query.get('oauth_verifier');
	if (!verifier) throw new OAuthCallbackError(`${provider.name}: the callback has no oauth_verifier.`);

	let tokens: OAuth1Tokens;
	try {
		tokens = await requestAccessToken(ctx, provider, pending, verifier);
	} catch (error) {
		throw oauthStepError('callback', provider.id, 'the access token request', error);
	}
	let profile: Profile;
	try {
		profile = (await profileFromUserinfoRequest(provider, tokens)) ?? (await fetchProfile(ctx, provider, tokens));
	} catch (error) {
		throw oauthStepError('callback', provider.id, 'the profile request', error);
	}
	const user = await userFromProfile(provider, profile, tokens, defaultOAuth1User);
	const account = accountFromTokens(provider, tokens, user, DEFAULT_ACCOUNT_FIELDS);
	return { profile, user, account, callbackUrl: pending.callbackUrl };
}

/**
 * The `oauth_callback` URL: the `redirect_uri` OAuth 2 would use. Unlike OAuth 2 providers, OAuth
 * 1.0a providers need not check it against a registration and send the user and the verifier to
 * it, so without a proxy it must be this deployment's configured URL (else `OAuthSignin`). With a
 * redirect proxy it is the proxy's callback carrying, as `state`, this deployment's callback URL
 * sealed with the secret (OAuth 1.0a has no state of its own; the provider returns the callback
 * URL's query as it was given).
 */
async function oauthCallback(ctx: RequestContext, provider: OAuthConfig): Promise<string> {
	const target = redirectUri(ctx, provider);
	if (!redirectProxyUrl(ctx, provider)) {
		requireVouchedUrl(ctx, provider, 'signs in with OAuth 1.0a, whose provider sends the user and the oauth_verifier to the oauth_callback kitgate names');
		return target;
	}
	const url = new URL(target);
	url.searchParams.set('state', await proxyState(ctx, provider, randomToken(16, 'base64url')));
	return url.href;
}

/** Obtains temporary credentials (RFC 5849 §2.1), which the provider must confirm were issued for our callback. */
async function requestTemporaryCredentials(ctx: RequestContext, provider: OAuthConfig): Promise<{ token: string; secret: string }> {
	const response = await signedFetch(ctx, provider, {
		method: 'POST',
		url: endpointWithParams(provider.requestToken as EndpointOption | undefined, 'requestToken'),
		...consumerOf(provider),
		extraProtocolParams: { oauth_callback: await oauthCallback(ctx, provider) }
	});
	const answer = await formResponse(response, 'request token');
	const token = answer.get('oauth_token');
	const secret = answer.get('oauth_token_secret');
	if (!token || !secret) throw new Error('the request token response has no oauth_token/oauth_token_secret.');
	// a server that did not take our callback would send the user elsewhere
	if (answer.get('oauth_callback_confirmed') !== 'true') throw new Error('the request token response did not confirm oauth_callback.');
	return { token, secret };
}

/** Reads and clears the request-token cookie; undefined when absent, invalid or for another provider. */
async function takePendingAuthorization(ctx: RequestContext, provider: OAuthConfig): Promise<PendingAuthorization | undefined> {
	const payload = await takeCheckCookie(ctx, requestTokenCookie(ctx), provider.id);
	const { token, secret, callbackUrl, user } = payload ?? {};
	if (typeof token !== 'string' || typeof secret !== 'string' || typeof callbackUrl !== 'string') return undefined;
	return { token, secret, callbackUrl, ...(typeof user === 'string' ? { user } : {}) };
}

/** Exchanges the authorized request token and the verifier for token credentials (RFC 5849 §2.3). */
async function requestAccessToken(
	ctx: RequestContext,
	provider: OAuthConfig,
	pending: PendingAuthorization,
	verifier: string
): Promise<OAuth1Tokens> {
	const response = await signedFetch(ctx, provider, {
		method: 'POST',
		url: endpointWithParams(provider.token, 'token'),
		...consumerOf(provider),
		token: pending.token,
		tokenSecret: pending.secret,
		extraProtocolParams: { oauth_verifier: verifier }
	});
	const tokens = Object.fromEntries(await formResponse(response, 'access token')) as Partial<OAuth1Tokens>;
	if (!tokens.oauth_token || !tokens.oauth_token_secret) {
		throw new Error('the access token response has no oauth_token/oauth_token_secret.');
	}
	return tokens as OAuth1Tokens;
}

/** The profile at the userinfo URL, asked for with a signed GET. */
async function fetchProfile(ctx: RequestContext, provider: OAuthConfig, tokens: OAuth1Tokens): Promise<Profile> {
	const response = await signedFetch(ctx, provider, {
		method: 'GET',
		url: endpointWithParams(provider.userinfo, 'userinfo'),
		...consumerOf(provider),
		token: tokens.oauth_token,
		tokenSecret: tokens.oauth_token_secret
	});
	return profileFromUserinfoResponse(response);
}

/** The default mapping for OAuth 1.0a profiles, which (like X's) carry the id as `id_str` and the handle as `screen_name`. */
function defaultOAuth1User(profile: Profile): User {
	const id = (profile.id_str ?? profile.id ?? profile.sub) as string | null | undefined;
	return defaultUser({ ...profile, sub: id, nickname: profile.screen_name as string | undefined, preferred_username: undefined });
}

/** The consumer key and secret (checked at start-up; a provider passed in directly may lack them). */
function consumerOf(provider: OAuthConfig): { consumerKey: string; consumerSecret: string } {
	if (!provider.clientId || !provider.clientSecret) {
		throw new Error('an OAuth 1.0a provider needs `clientId` (consumer key) and `clientSecret` (consumer secret).');
	}
	return { consumerKey: provider.clientId, consumerSecret: provider.clientSecret };
}

/** The endpoint's URL with its `params` in the query (query parameters are signed too). */
function endpointWithParams(option: EndpointOption | undefined, name: string): string {
	const raw = endpointUrl(option);
	const url = raw ? URL.parse(raw) : null;
	if (!url) throw new Error(`the provider needs a \`${name}\` URL.`);
	if (!isAllowedEndpoint(url)) throw new Error(`\`${name}\` must use https (plain http only on loopback).`);
	for (const [key, value] of Object.entries(definedParams(endpointObject(option).params))) url.searchParams.set(key, value);
	return url.href;
}

/** A request signed with HMAC-SHA1 (header authorization), with the engine's clock and the provider's time limit. */
async function signedFetch(
	ctx: RequestContext,
	provider: OAuthConfig,
	request: Parameters<typeof signOAuth1Request>[0] & { method: 'GET' | 'POST' }
): Promise<Response> {
	const { authorization } = signOAuth1Request({ ...request, timestamp: Math.floor(ctx.now / 1000) });
	const headers = { authorization, accept: 'application/json, application/x-www-form-urlencoded' };
	return fetchWithTimeout(String(request.url), { method: request.method, headers, redirect: 'manual' }, idpTimeout(provider));
}

/** A form-encoded token response, read only up to a size limit; an error status is reported with the (truncated) body. */
async function formResponse(response: Response, endpoint: string): Promise<URLSearchParams> {
	const text = await readBoundedText(response, `the ${endpoint} response`);
	if (!response.ok) throw new Error(`the ${endpoint} endpoint answered ${response.status}: ${text.slice(0, 300)}`);
	return new URLSearchParams(text);
}

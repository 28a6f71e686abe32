// OAuth 1.0a sign-in (RFC 5849 with the 1.0a verifier): request token → authorize redirect →
// access token → signed profile request, then the shared end of every flow (`completeSignIn`).

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { completeSignIn } from '../../complete-sign-in.js';
import type { RequestContext } from '../../context.js';
import { expiredCookie } from '../../cookies.js';
import { AuthError, InvalidCheck, OAuthCallbackError, OAuthSignin } from '../../errors.js';
import { decodeJwt, encodeJwt } from '../../jwt.js';
import { failureAnswer } from '../../failure-answer.js';
import type { Outcome } from '../../outcome.js';
import type { Account, CookieOption, EndpointOption, OAuthConfig, Profile, TokenSet, User } from '../../types.js';
import { CHECK_MAX_AGE } from './oauth-checks.js';
import { userFromProfile } from './oauth-profile.js';
import { DEFAULT_IDP_TIMEOUT_MS, fetchWithTimeout, isAllowedEndpoint } from './oauth-http.js';
import { signOAuth1Request } from './oauth1-signature.js';
import { forwardProxiedCallback, proxyState, redirectProxyUrl, redirectUri } from './redirect-proxy.js';

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
	provider: string;
	token: string;
	secret: string;
	callbackUrl: string;
}

/** The encrypted cookie holding the request token and its secret: `<state cookie>.oauth1`. */
function requestTokenCookie(ctx: RequestContext): CookieOption {
	const state = ctx.cookieNames.state;
	const maxAge = Math.min(state.options.maxAge ?? CHECK_MAX_AGE, CHECK_MAX_AGE);
	return { name: `${state.name}.oauth1`, options: { ...state.options, maxAge } };
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
		const consumer = consumerOf(provider, OAuthSignin);
		const requestTokenUrl = endpointWithParams(provider.requestToken as EndpointOption | undefined, 'requestToken', provider, OAuthSignin);
		const authorizationUrl = endpointWithParams(provider.authorization, 'authorization', provider, OAuthSignin);

		const response = await signedFetch(ctx, provider, {
			method: 'POST',
			url: requestTokenUrl,
			...consumer,
			extraProtocolParams: { oauth_callback: await oauthCallback(ctx, provider) }
		});
		const answer = await formResponse(response, `${provider.name} request token`, OAuthSignin);
		const token = answer.get('oauth_token');
		const secret = answer.get('oauth_token_secret');
		if (!token || !secret) throw new OAuthSignin(`${provider.name}: the request token response has no oauth_token/oauth_token_secret.`);
		// RFC 5849 §2.1: a server that did not take our callback would send the user elsewhere
		if (answer.get('oauth_callback_confirmed') !== 'true') {
			throw new OAuthSignin(`${provider.name}: the request token response did not confirm oauth_callback.`);
		}

		const cookie = requestTokenCookie(ctx);
		const pending: PendingAuthorization = { provider: provider.id, token, secret, callbackUrl };
		const sealed = await encodeJwt({
			token: { ...pending },
			secret: ctx.config.secrets,
			salt: cookie.name,
			maxAge: cookie.options.maxAge ?? CHECK_MAX_AGE,
			now: ctx.now
		});
		ctx.setCookies.push({ name: cookie.name, value: sealed, options: cookie.options });

		const redirect = new URL(authorizationUrl);
		redirect.searchParams.set('oauth_token', token);
		return { type: 'redirect', url: redirect.href };
	} catch (error) {
		throw asAuthError(error, OAuthSignin, `${provider.name}: could not start the OAuth 1.0a sign-in.`);
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
		return await completeSignIn(ctx, { ...identity, provider, callbackUrl: identity.callbackUrl });
	} catch (error) {
		return failedCallback(ctx, provider, error, callbackUrl);
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
	if (!returnedToken || !sameToken(returnedToken, pending.token)) {
		throw new InvalidCheck(`${provider.name}: the oauth_token in the callback is not the one this sign-in requested.`);
	}
	const verifier = query.get('oauth_verifier');
	if (!verifier) throw new OAuthCallbackError(`${provider.name}: the callback has no oauth_verifier.`);

	let tokens: OAuth1Tokens;
	let profile: Profile;
	try {
		tokens = await requestAccessToken(ctx, provider, pending, verifier);
		profile = await fetchProfile(ctx, provider, tokens);
	} catch (error) {
		throw asAuthError(error, OAuthCallbackError, `${provider.name}: the OAuth 1.0a callback failed.`);
	}
	// the shared mapping rules (a user without an id is refused); OAuth 1.0a's default mapping knows `id_str`
	const user = await userFromProfile({ ...provider, profile: provider.profile ?? defaultProfile }, profile, tokens);

	let stored: TokenSet | undefined | void;
	try {
		stored = provider.account ? provider.account({ ...tokens }) : undefined;
	} catch (error) {
		throw new OAuthCallbackError(`account() of provider "${provider.id}" threw.`, { cause: { err: error } });
	}
	const account: Account = {
		...(stored ?? { oauth_token: tokens.oauth_token, oauth_token_secret: tokens.oauth_token_secret }),
		provider: provider.id,
		type: provider.type,
		providerAccountId: user.id as string
	};
	return { profile, user, account, callbackUrl: pending.callbackUrl };
}

/** Logs the failure and answers with the error redirect; only the CSRF cookie and the token cookie's removal are kept. */
function failedCallback(ctx: RequestContext, provider: OAuthConfig, error: unknown, callbackUrl: string | undefined): Outcome {
	const authError = asAuthError(error, OAuthCallbackError, `${provider.name}: the OAuth 1.0a callback failed.`);
	const cookie = requestTokenCookie(ctx);
	return failureAnswer(ctx, authError, { callbackUrl, keep: (c) => c.name === cookie.name });
}

/**
 * The `oauth_callback` URL. With a redirect proxy it is the proxy's callback carrying, as `state`,
 * this deployment's callback URL sealed with the secret (OAuth 1.0a has no state of its own; the
 * provider returns the callback URL's query as it was given).
 */
async function oauthCallback(ctx: RequestContext, provider: OAuthConfig): Promise<string> {
	const target = redirectUri(ctx, provider);
	if (!redirectProxyUrl(ctx, provider)) return target;
	const url = new URL(target);
	url.searchParams.set('state', await proxyState(ctx, provider, randomBytes(16).toString('base64url')));
	return url.href;
}

/** Reads and clears the request-token cookie; undefined when absent, invalid or for another provider. */
async function takePendingAuthorization(ctx: RequestContext, provider: OAuthConfig): Promise<PendingAuthorization | undefined> {
	const cookie = requestTokenCookie(ctx);
	const raw = ctx.cookies[cookie.name];
	if (raw === undefined) return undefined;
	ctx.setCookies.push(expiredCookie(cookie.name, cookie.options));
	const payload = await decodeJwt({ token: raw, secret: ctx.config.secrets, salt: cookie.name, now: ctx.now });
	if (!payload || payload.provider !== provider.id) return undefined;
	const { token, secret, callbackUrl } = payload;
	if (typeof token !== 'string' || typeof secret !== 'string' || typeof callbackUrl !== 'string') return undefined;
	return { provider: provider.id, token, secret, callbackUrl };
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
		url: endpointWithParams(provider.token, 'token', provider, OAuthCallbackError),
		...consumerOf(provider, OAuthCallbackError),
		token: pending.token,
		tokenSecret: pending.secret,
		extraProtocolParams: { oauth_verifier: verifier }
	});
	const answer = await formResponse(response, `${provider.name} access token`, OAuthCallbackError);
	const tokens = Object.fromEntries(answer) as Partial<OAuth1Tokens>;
	if (!tokens.oauth_token || !tokens.oauth_token_secret) {
		throw new OAuthCallbackError(`${provider.name}: the access token response has no oauth_token/oauth_token_secret.`);
	}
	return tokens as OAuth1Tokens;
}

/** The profile: the provider's `userinfo.request` handler, else a signed GET of the userinfo URL. */
async function fetchProfile(ctx: RequestContext, provider: OAuthConfig, tokens: OAuth1Tokens): Promise<Profile> {
	const userinfo = provider.userinfo;
	if (typeof userinfo === 'object' && typeof userinfo.request === 'function') {
		const handled = await userinfo.request({ provider, tokens });
		if (!handled || typeof handled !== 'object') throw new OAuthCallbackError(`${provider.name}: userinfo.request must return the profile object.`);
		return handled as Profile;
	}
	const response = await signedFetch(ctx, provider, {
		method: 'GET',
		url: endpointWithParams(userinfo, 'userinfo', provider, OAuthCallbackError),
		...consumerOf(provider, OAuthCallbackError),
		token: tokens.oauth_token,
		tokenSecret: tokens.oauth_token_secret
	});
	const text = await response.text();
	if (!response.ok) {
		throw new OAuthCallbackError(`${provider.name}: the profile request answered ${response.status}: ${text.slice(0, 300)}`);
	}
	try {
		const parsed: unknown = JSON.parse(text);
		if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Profile;
	} catch {
		// reported below
	}
	throw new OAuthCallbackError(`${provider.name}: the profile response is not a JSON object.`);
}

/** Profile mapping for OAuth 1.0a providers without `profile()`: the common field names. */
function defaultProfile(profile: Profile): User {
	const id = profile.id_str ?? profile.id ?? profile.sub;
	return {
		id: id === undefined || id === null ? undefined : String(id),
		name: (profile.name as string | undefined) ?? (profile.screen_name as string | undefined) ?? null,
		email: profile.email ?? null,
		image: typeof profile.picture === 'string' ? profile.picture : null
	};
}

type ErrorClass = new (message?: string, options?: ErrorOptions) => AuthError;

function consumerOf(provider: OAuthConfig, Failure: ErrorClass): { consumerKey: string; consumerSecret: string } {
	if (!provider.clientId || !provider.clientSecret) {
		throw new Failure(
			`OAuth 1.0a provider "${provider.id}" needs \`clientId\` (consumer key) and \`clientSecret\` (consumer secret).`
		);
	}
	return { consumerKey: provider.clientId, consumerSecret: provider.clientSecret };
}

/** The endpoint's URL with its `params` in the query (query parameters are signed too). */
function endpointWithParams(
	option: EndpointOption | undefined,
	name: string,
	provider: OAuthConfig,
	Failure: ErrorClass
): string {
	const raw = typeof option === 'string' ? option : option?.url;
	const url = raw ? URL.parse(raw) : null;
	if (!url) throw new Failure(`OAuth 1.0a provider "${provider.id}" needs a \`${name}\` URL.`);
	if (!isAllowedEndpoint(url)) {
		throw new Failure(`OAuth 1.0a provider "${provider.id}": \`${name}\` must use https (plain http only on loopback).`);
	}
	const params = typeof option === 'object' ? option.params : undefined;
	for (const [key, value] of Object.entries(params ?? {})) if (value !== undefined) url.searchParams.set(key, value);
	return url.href;
}

/** A request signed with HMAC-SHA1 (header authorization), with the engine's clock and a time limit. */
async function signedFetch(
	ctx: RequestContext,
	provider: OAuthConfig,
	request: Parameters<typeof signOAuth1Request>[0] & { method: 'GET' | 'POST' }
): Promise<Response> {
	const { authorization } = signOAuth1Request({ ...request, timestamp: Math.floor(ctx.now / 1000) });
	return fetchWithTimeout(
		String(request.url),
		{ method: request.method, headers: { authorization, accept: 'application/json, application/x-www-form-urlencoded' }, redirect: 'manual' },
		typeof provider.timeout === 'number' ? provider.timeout : DEFAULT_IDP_TIMEOUT_MS
	);
}

/** A form-encoded token response, or the error class with the status and (truncated) body. */
async function formResponse(response: Response, what: string, Failure: ErrorClass): Promise<URLSearchParams> {
	const text = await response.text();
	if (!response.ok) throw new Failure(`${what} request answered ${response.status}: ${text.slice(0, 300)}`);
	return new URLSearchParams(text);
}

function sameToken(a: string, b: string): boolean {
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	return left.length === right.length && timingSafeEqual(left, right);
}

/** Keeps kitgate errors as they are; wraps anything else (network, handler bugs) with its cause. */
function asAuthError(error: unknown, Failure: ErrorClass, message: string): AuthError {
	if (error instanceof AuthError) return error;
	const detail = error instanceof Error ? `${message} ${error.message}` : message;
	return new Failure(detail, { cause: { err: error } } as ErrorOptions);
}

// OAuth 2 / OpenID Connect sign-in with oauth4webapi: the authorization request (checks kept in
// encrypted cookies), then the callback: checks, code exchange, ID token, userinfo, profile.
// OAuth 1.0a providers (`version: "1.0a"`) are handed to ./oauth1.ts.

import * as oauth from 'oauth4webapi';
import type { RequestBody } from '../../request/body.js';
import { completeSignIn } from '../complete-sign-in.js';
import type { RequestContext } from '../../request/context.js';
import { InvalidCheck } from '../../errors.js';
import type { Outcome } from '../../response/outcome.js';
import type { Account, OAuthCheck, OAuthConfig, Profile, User } from '../../types.js';
import { clearChecks, createChecks, useChecks, type ExpectedChecks } from './oauth-checks.js';
import { signedInUserId } from './connecting-user.js';
import { answerFailedCallback } from './oauth-callback-failure.js';
import { oauthClient } from './oauth-client.js';
import { describeOAuthError, loggableError, oauthStepError } from './oauth-errors.js';
import { idpTimeout } from './oauth-http.js';
import { exchangeCode } from './oauth-code-exchange.js';
import { authorizationServer, endpointObject } from './oauth-metadata.js';
import { handleOAuth1Callback, startOAuth1SignIn } from './oauth1.js';
import { isOAuth1Provider } from './oauth1-provider.js';
import { defaultChecks } from './oauth-provider.js';
import { accountFromTokens, userFromProfile } from './oauth-profile.js';
import { readProfile } from './oauth-userinfo.js';
import { forwardProxiedCallback, proxyState, redirectProxyUrl, redirectUri } from './redirect-proxy.js';

/** Providers whose `checks: ["none"]` was already warned about. */
const warnedNoChecks = new Set<string>();

/** Scope asked of OIDC providers that configure none. */
const DEFAULT_OIDC_SCOPE = 'openid profile email';

/** Authorization parameters a sign-in request's query may not replace: they carry the protections. */
const PROTECTED_PARAMS = new Set([
	'response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'state', 'nonce', 'callbackUrl',
	// a request object (RFC 9101) would carry its own redirect_uri, state, nonce and code_challenge
	'request', 'request_uri'
]);

/**
 * Starts sign-in with an OAuth/OIDC provider: redirects to its authorization endpoint, with the
 * check values (PKCE, state, nonce) and `callbackUrl` kept in encrypted cookies. Query parameters
 * of the sign-in request (e.g. `login_hint`, `prompt`) are passed on. Failures throw `OAuthSignin`.
 *
 * @example
 * // POST /auth/signin/github  (csrfToken checked by the caller)
 * const outcome = await startOAuthSignIn(ctx, github, body, "https://app.example.com/dashboard");
 * outcome.url; // "https://github.com/login/oauth/authorize?response_type=code&client_id=…"
 */
export async function startOAuthSignIn(
	ctx: RequestContext,
	provider: OAuthConfig,
	body: RequestBody,
	callbackUrl: string
): Promise<Outcome> {
	if (isOAuth1Provider(provider)) return startOAuth1SignIn(ctx, provider, callbackUrl);
	let as: oauth.AuthorizationServer;
	try {
		as = await authorizationServer(provider, idpTimeout(provider));
	} catch (error) {
		throw oauthStepError('signin', provider.id, 'loading the authorization server metadata', error);
	}
	if (!as.authorization_endpoint) {
		throw oauthStepError('signin', provider.id, 'finding the authorization endpoint', new Error('the metadata has none'));
	}
	const url = new URL(as.authorization_endpoint);
	const authorization = endpointObject(provider.authorization);
	url.searchParams.set('response_type', 'code');
	url.searchParams.set('client_id', provider.clientId as string);
	url.searchParams.set('redirect_uri', redirectUri(ctx, provider));
	if (provider.type === 'oidc') url.searchParams.set('scope', DEFAULT_OIDC_SCOPE);
	for (const [name, value] of Object.entries(authorization.params ?? {})) if (value !== undefined) url.searchParams.set(name, value);
	for (const [name, value] of requestedAuthorizationParams(ctx, body)) if (!PROTECTED_PARAMS.has(name)) url.searchParams.set(name, value);

	const effective = effectiveChecks(ctx, provider);
	if (effective.length === 0 && !warnedNoChecks.has(provider.id)) {
		warnedNoChecks.add(provider.id);
		ctx.config.logger.warn('oauth-checks-none', `Provider "${provider.id}" has checks: ["none"]: its callbacks are not tied to the browser that started them.`);
	}
	const checks = await createChecks(ctx, provider.id, effective, {
		callbackUrl,
		linkUserId: await signedInUserId(ctx),
		makeState: (random) => (redirectProxyUrl(ctx, provider) ? proxyState(ctx, provider, random) : random)
	});
	for (const [name, value] of Object.entries(checks)) url.searchParams.set(name, value);
	return { type: 'redirect', url: url.href };
}

/**
 * Completes sign-in when the provider sends the user back (`GET` or form-post `POST` to
 * `{basePath}/callback/{id}`): validates state/PKCE/nonce, exchanges the code, validates the ID
 * token (issuer, audience, expiry, nonce, signature), reads the profile and signs the user in.
 * Any failure ends in a redirect to the sign-in (or error) page, with the check cookies cleared.
 *
 * @example
 * // GET /auth/callback/github?code=…&state=…
 * const outcome = await handleOAuthCallback(ctx, github, {});
 */
export async function handleOAuthCallback(ctx: RequestContext, provider: OAuthConfig, body: RequestBody): Promise<Outcome> {
	if (isOAuth1Provider(provider)) return handleOAuth1Callback(ctx, provider);
	const params = callbackParams(ctx, body);
	const forward = await forwardProxiedCallback(ctx, provider, params);
	if (forward) return forward;
	let callbackUrl: string | undefined;
	try {
		const expected = await useChecks(ctx, provider.id, effectiveChecks(ctx, provider));
		callbackUrl = expected.callbackUrl;
		const { profile, user, account } = await signedInIdentity(ctx, provider, params, expected);
		return await completeSignIn(ctx, { provider, profile, user, account, callbackUrl, linkRequestedBy: expected.linkRequestedBy });
	} catch (error) {
		return answerFailedCallback(ctx, provider, error, callbackUrl, clearChecks);
	}
}

/**
 * The provider's checks, plus `state` when a redirect proxy is used (it carries the origin).
 *
 * @example
 * effectiveChecks(ctx, { ...provider, checks: ['pkce'] }); // ['pkce'] or, behind a redirect proxy, ['pkce', 'state']
 */
export function effectiveChecks(ctx: RequestContext, provider: OAuthConfig): OAuthCheck[] {
	const configured = provider.checks ?? defaultChecks(provider.type);
	if (!redirectProxyUrl(ctx, provider)) return configured.filter((check) => check !== 'none');
	return [...new Set([...configured.filter((check) => check !== 'none'), 'state' as const])];
}

/** Runs the protocol steps of the callback and returns who signed in. */
async function signedInIdentity(
	ctx: RequestContext,
	provider: OAuthConfig,
	params: URLSearchParams,
	expected: ExpectedChecks
): Promise<{ profile: Profile; user: User; account: Account }> {
	const timeout = idpTimeout(provider);
	let as: oauth.AuthorizationServer;
	try {
		as = await authorizationServer(provider, timeout);
	} catch (error) {
		throw oauthStepError('callback', provider.id, 'loading the authorization server metadata', error);
	}
	const client = oauthClient(provider);

	let callback: URLSearchParams;
	try {
		callback = oauth.validateAuthResponse(as, client, params, expected.state);
	} catch (error) {
		if (error instanceof oauth.AuthorizationResponseError) throw oauthStepError('callback', provider.id, 'the authorization', error);
		throw new InvalidCheck(`Provider "${provider.id}": the authorization response failed its checks: ${describeOAuthError(error)}`, {
			cause: { err: loggableError(error) }
		});
	}

	const { tokens, claims } = await exchangeCode(ctx, provider, as, client, callback, expected, timeout);
	const profile = await readProfile(provider, as, client, tokens, claims, params, timeout, ctx.config.logger);
	const user = await userFromProfile(provider, profile, tokens);
	return { profile, user, account: accountFromTokens(provider, tokens, user) };
}

/**
 * Extra authorization parameters the sign-in asks for: the query of `POST /signin/:id` (Auth.js's
 * `signIn(id, options, authorizationParams)`), then form fields named `authorizationParams.<name>`
 * (kitgate's components) or `authorizationParams-<name>` (hand-written Auth.js forms).
 */
function requestedAuthorizationParams(ctx: RequestContext, body: RequestBody): URLSearchParams {
	const params = new URLSearchParams(ctx.query);
	for (const [key, value] of Object.entries(body)) {
		const name = /^authorizationParams[.-](.+)$/.exec(key)?.[1];
		if (name && typeof value === 'string') params.set(name, value);
	}
	return params;
}

/** The callback's parameters: the query of a GET, the form fields of a POST (`response_mode=form_post`). */
function callbackParams(ctx: RequestContext, body: RequestBody): URLSearchParams {
	if (ctx.method !== 'POST') return new URLSearchParams(ctx.url.searchParams);
	const params = new URLSearchParams();
	for (const [name, value] of Object.entries(body)) if (typeof value === 'string') params.set(name, value);
	return params;
}

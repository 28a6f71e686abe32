// `redirectProxyUrl`: one stable deployment receives every OAuth callback (the only redirect URI
// registered at the provider) and forwards it to the deployment that started the sign-in.

import type { RequestContext } from '../../request/context.js';
import { OAuthSignin } from '../../errors.js';
import { decodeJwt, encodeJwt } from '../../crypto/jwt.js';
import type { Outcome } from '../../response/outcome.js';
import type { OAuthConfig } from '../../types.js';
import { CHECK_MAX_AGE } from './oauth-checks.js';

/** Key-derivation salt of proxy states: they are read by another deployment sharing the secret. */
const PROXY_STATE_SALT = 'kitgate.redirect-proxy-state';

/**
 * The redirect proxy for `provider`: its own setting, else `config.redirectProxyUrl` / AUTH_REDIRECT_PROXY_URL.
 *
 * @example
 * redirectProxyUrl(ctx, provider); // 'https://auth.example.com/auth' or undefined
 */
export function redirectProxyUrl(ctx: RequestContext, provider: OAuthConfig): string | undefined {
	return provider.redirectProxyUrl || ctx.config.redirectProxyUrl || undefined;
}

/**
 * This deployment's callback URL for `provider`: `{origin}{basePath}/callback/{id}`.
 *
 * @example
 * ownCallbackUrl(ctx, github); // 'https://preview-42.example.com/auth/callback/github'
 */
export function ownCallbackUrl(ctx: RequestContext, provider: OAuthConfig): string {
	return `${ctx.authUrl}/callback/${encodeURIComponent(provider.id)}`;
}

/**
 * The `redirect_uri` of authorization and token requests: the proxy's callback when a redirect
 * proxy is set, else this deployment's.
 *
 * @example
 * redirectUri(ctx, github); // "https://app.example.com/auth/callback/github"
 */
export function redirectUri(ctx: RequestContext, provider: OAuthConfig): string {
	const proxy = redirectProxyUrl(ctx, provider);
	return proxy ? `${proxy.replace(/\/+$/, '')}/callback/${encodeURIComponent(provider.id)}` : ownCallbackUrl(ctx, provider);
}

/**
 * Throws `OAuthSignin` unless this deployment's URL is fixed by configuration (AUTH_URL, or
 * SvelteKit's adapter): for sign-ins whose callback goes wherever that URL says, with nobody
 * checking it against a registration. `why` completes "Provider "x" …" in the message.
 *
 * @example
 * requireVouchedUrl(ctx, provider, 'signs in with OAuth 1.0a, …'); // throws when the URL came from a Host header
 */
export function requireVouchedUrl(ctx: RequestContext, provider: OAuthConfig, why: string): void {
	if (ctx.urlVouched) return;
	throw new OAuthSignin(
		`Provider "${provider.id}" ${why}; this deployment's URL may not come from the request's Host header: set AUTH_URL to its public URL.`
	);
}

/**
 * A `state` value that carries this deployment's callback URL, encrypted with the secret so only a
 * deployment sharing it can read it and no one can forge a forwarding target. The URL must be
 * fixed by configuration (AUTH_URL, or SvelteKit's adapter): taken from a Host header, anyone
 * could name their own host as the target and have the proxy forward a victim's code there.
 *
 * @example
 * const state = await proxyState(ctx, provider, oauth.generateRandomState());
 */
export async function proxyState(ctx: RequestContext, provider: OAuthConfig, random: string): Promise<string> {
	requireVouchedUrl(ctx, provider, 'uses a redirect proxy, which forwards callbacks to the deployment that started the sign-in');
	return encodeJwt({
		token: { random, origin: ownCallbackUrl(ctx, provider) },
		secret: ctx.config.secrets,
		salt: PROXY_STATE_SALT,
		maxAge: CHECK_MAX_AGE,
		now: ctx.now
	});
}

/**
 * When this deployment received a callback whose state was made by another deployment, the
 * redirect that forwards it there (with every parameter); otherwise undefined.
 *
 * @example
 * const forward = await forwardProxiedCallback(ctx, provider, params);
 * if (forward) return forward;
 */
export async function forwardProxiedCallback(
	ctx: RequestContext,
	provider: OAuthConfig,
	params: URLSearchParams
): Promise<Outcome | undefined> {
	const state = params.get('state');
	// proxy states are JWEs: five dot-separated parts; plain random states are skipped cheaply
	if (!state || state.split('.').length !== 5) return undefined;
	const payload = await decodeJwt({ token: state, secret: ctx.config.secrets, salt: PROXY_STATE_SALT, now: ctx.now });
	const origin = typeof payload?.origin === 'string' ? URL.parse(payload.origin) : null;
	if (!origin || origin.href === ownCallbackUrl(ctx, provider)) return undefined;
	const isCallback = /^https?:$/.test(origin.protocol) && origin.pathname.endsWith(`/callback/${encodeURIComponent(provider.id)}`);
	if (!isCallback) return undefined;
	origin.search = params.toString();
	return { type: 'redirect', url: origin.href };
}

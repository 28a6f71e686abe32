// The authorization server metadata of an OAuth/OIDC provider: discovered from `issuer` or
// `wellKnown` (cached per document for an hour), with explicit endpoints taking precedence.

import * as oauth from 'oauth4webapi';
import type { EndpointOption, OAuthConfig } from '../../types.js';
import { endpointUrl } from './endpoint-rules.js';
import { idpHttpOptions } from './oauth-http.js';

export { endpointUrl } from './endpoint-rules.js';

/** How long discovered metadata is reused before it is fetched again. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

/** Discovered documents by URL, with their expiry; a failed discovery is not cached. */
const discoveryCache = new Map<string, { metadata: Promise<oauth.AuthorizationServer>; expires: number }>();

/** Placeholder issuer of providers configured with explicit endpoints only (they issue no ID token). */
const NO_ISSUER = 'https://issuer.invalid';


/**
 * An endpoint option as an object: `{}` when unset or a plain URL string (read its URL with `endpointUrl`).
 *
 * @example
 * endpointObject(provider.userinfo).request; // the provider's handler, if any
 */
export function endpointObject(option: EndpointOption | undefined): Exclude<EndpointOption, string> {
	return typeof option === 'object' && option !== null ? option : {};
}

/**
 * `params` without its undefined values.
 *
 * @example
 * definedParams({ scope: 'openid', prompt: undefined }); // { scope: 'openid' }
 */
export function definedParams(params: Record<string, string | undefined> | undefined): Record<string, string> {
	return Object.fromEntries(Object.entries(params ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * The metadata kitgate uses for `provider`: discovery (when `issuer` or `wellKnown` is set)
 * overlaid with the explicit `authorization`, `token`, `userinfo` and `jwks_endpoint` URLs.
 * Throws on network or validation failure (callers turn that into OAuthSignin/OAuthCallbackError).
 *
 * @example
 * const as = await authorizationServer(provider, 10_000);
 * as.token_endpoint; // "https://idp.example.com/oauth/token"
 */
export async function authorizationServer(provider: OAuthConfig, timeoutMs: number): Promise<oauth.AuthorizationServer> {
	const discovered = needsDiscovery(provider) ? await discover(provider, timeoutMs) : undefined;
	const overrides: Record<string, string> = {};
	const set = (key: string, value: string | undefined) => {
		if (value) overrides[key] = value;
	};
	set('authorization_endpoint', endpointUrl(provider.authorization));
	set('token_endpoint', endpointUrl(provider.token));
	set('userinfo_endpoint', endpointUrl(provider.userinfo));
	set('jwks_uri', typeof provider.jwks_endpoint === 'string' ? provider.jwks_endpoint : undefined);
	if (!discovered) return { issuer: provider.issuer ?? NO_ISSUER, ...overrides };
	// keep the cached object when nothing is overridden: oauth4webapi caches JWKS per metadata object
	return Object.keys(overrides).length === 0 ? discovered : { ...discovered, ...overrides };
}

/**
 * True when `wellKnown` is set, or `issuer` is set and an endpoint the flow needs is not given
 * explicitly (authorization, token, userinfo when the profile comes from it, JWKS for OIDC).
 *
 * @example
 * needsDiscovery({ ...provider, wellKnown: 'https://idp.example.com/.well-known/openid-configuration' }); // true
 */
export function needsDiscovery(provider: OAuthConfig): boolean {
	if (provider.wellKnown) return true;
	if (!provider.issuer) return false;
	const given = (option: EndpointOption | undefined) =>
		Boolean(endpointUrl(option)) || (typeof option === 'object' && typeof option.request === 'function');
	const needsUserinfo = provider.type === 'oauth' || provider.idToken === false;
	return (
		!endpointUrl(provider.authorization) ||
		!given(provider.token) ||
		(needsUserinfo && !given(provider.userinfo)) ||
		(provider.type === 'oidc' && typeof provider.jwks_endpoint !== 'string')
	);
}

/** Fetches (or reuses) the discovery document of `provider`. */
function discover(provider: OAuthConfig, timeoutMs: number): Promise<oauth.AuthorizationServer> {
	const key = provider.wellKnown ?? (provider.issuer as string);
	const now = Date.now();
	const cached = discoveryCache.get(key);
	if (cached && cached.expires > now) return cached.metadata;
	const metadata = fetchDiscovery(provider, timeoutMs);
	discoveryCache.set(key, { metadata, expires: now + DISCOVERY_TTL_MS });
	// a failure must not stick: the next sign-in tries again
	metadata.catch(() => {
		if (discoveryCache.get(key)?.metadata === metadata) discoveryCache.delete(key);
	});
	return metadata;
}

async function fetchDiscovery(provider: OAuthConfig, timeoutMs: number): Promise<oauth.AuthorizationServer> {
	if (provider.wellKnown) {
		const http = idpHttpOptions(provider.wellKnown, timeoutMs);
		const response = await http[oauth.customFetch](provider.wellKnown, {
			method: 'GET',
			headers: { accept: 'application/json' },
			redirect: 'manual',
			body: undefined
		});
		// the document names its issuer; a configured `issuer` must match it
		const expected = provider.issuer ?? (await issuerOf(response.clone()));
		return oauth.processDiscoveryResponse(new URL(expected), response);
	}
	const issuer = new URL(provider.issuer as string);
	const response = await oauth.discoveryRequest(issuer, idpHttpOptions(issuer.href, timeoutMs));
	return oauth.processDiscoveryResponse(issuer, response);
}

/** The `issuer` a discovery document declares; oauth4webapi then validates the whole document. */
async function issuerOf(response: Response): Promise<string> {
	try {
		const body = (await response.json()) as { issuer?: unknown };
		if (typeof body.issuer === 'string' && URL.canParse(body.issuer)) return body.issuer;
	} catch {
		// not JSON: processDiscoveryResponse reports it
	}
	return 'https://issuer-missing.invalid';
}

/**
 * Forgets cached discovery documents (tests; or after an IdP changed its endpoints).
 *
 * @example
 * clearDiscoveryCache();
 */
export function clearDiscoveryCache(): void {
	discoveryCache.clear();
}

// Checks an OAuth 2 / OIDC provider's options at start-up and fills in defaults (checks, client
// authentication), so a mistake fails with a message instead of at a user's sign-in. Steps: ./oauth.ts.

import { describeUnknownKeys, unknownKeys } from '../../config/option-keys.js';
import { providerEnvPrefix } from '../../config/env.js';
import { InvalidConfiguration } from '../../errors.js';
import type { EndpointOption, OAuthCheck, OAuthConfig } from '../../types.js';
import { endpointUrl, isAllowedEndpoint } from './endpoint-rules.js';
import { OAUTH_CONFIG_KEYS } from './oauth-config-keys.js';
import { checkOAuth1Provider, isOAuth1Provider } from './oauth1-provider.js';
import { privateKeySigningAlgorithm } from './signing-key-algorithm.js';

const CHECKS: ReadonlySet<string> = new Set<OAuthCheck>(['pkce', 'state', 'nonce', 'none']);

/**
 * Token endpoint client authentication methods kitgate supports, and the option each needs.
 *
 * @example
 * CLIENT_AUTH_METHODS.private_key_jwt; // "client.private_key"
 */
export const CLIENT_AUTH_METHODS = {
	client_secret_basic: 'clientSecret',
	client_secret_post: 'clientSecret',
	client_secret_jwt: 'clientSecret',
	private_key_jwt: 'client.private_key',
	none: undefined
} as const;

/** A supported `client.token_endpoint_auth_method`. */
export type ClientAuthMethod = keyof typeof CLIENT_AUTH_METHODS;

/**
 * The client authentication method of a provider that names none: `private_key_jwt` with a
 * `client.private_key`, else `client_secret_basic` with a `clientSecret`, else `none`. Pure.
 *
 * @example
 * defaultClientAuthMethod({ ...provider, clientSecret: 's' }); // "client_secret_basic"
 */
export function defaultClientAuthMethod(provider: OAuthConfig): ClientAuthMethod {
	if (provider.client?.private_key !== undefined) return 'private_key_jwt';
	return provider.clientSecret ? 'client_secret_basic' : 'none';
}

/**
 * Validates an OAuth/OIDC provider and returns it with defaults: `checks` (`defaultChecks`),
 * `client.token_endpoint_auth_method` (`client_secret_basic`, or `none` without a secret) and, for
 * OIDC, `idToken: true`. Throws `InvalidConfiguration` naming the provider and the fix.
 *
 * @example
 * normalizeOAuthProvider({ id: "idp", name: "IdP", type: "oidc", issuer: "https://idp.example.com", clientId: "app" });
 * // → { ..., checks: ["pkce", "state", "nonce"], client: { token_endpoint_auth_method: "none" }, idToken: true }
 */
export function normalizeOAuthProvider(provider: OAuthConfig): OAuthConfig {
	const fail = (message: string): never => {
		throw new InvalidConfiguration(`OAuth provider "${provider.id}": ${message}`);
	};
	refuseMisspeltOptions(provider);
	// OAuth 1.0a providers (`version: "1.0a"`) have their own flow and rules
	if (isOAuth1Provider(provider)) return checkOAuth1Provider(provider);

	if (typeof provider.clientId !== 'string' || !provider.clientId) {
		fail(`\`clientId\` is required (the client id the identity provider gave your app): set ${providerEnvPrefix(provider.id)}_ID or pass \`clientId\`.`);
	}
	checkUrls(provider, fail);
	const discovers = Boolean(provider.issuer || provider.wellKnown);
	if (!discovers && !endpointUrl(provider.authorization)) {
		fail('set `issuer` (or `wellKnown`) for discovery, or an `authorization` endpoint URL.');
	}
	if (!discovers && !endpointUrl(provider.token) && !hasRequest(provider.token)) {
		fail('set `issuer` (or `wellKnown`), or a `token` endpoint.');
	}
	if (provider.type === 'oidc' && !provider.issuer && !provider.wellKnown) {
		fail('an "oidc" provider needs `issuer` (or `wellKnown`): ID tokens are checked against it.');
	}
	const needsUserinfo = provider.type === 'oauth' || provider.idToken === false;
	if (needsUserinfo && !discovers && !endpointUrl(provider.userinfo) && !hasRequest(provider.userinfo)) {
		fail('set a `userinfo` endpoint (URL or `{ request }`): the profile is read from it.');
	}
	if (typeof provider.authorization === 'object' && provider.authorization.request) {
		fail('`authorization.request` is not supported; use `authorization.url` and `authorization.params`.');
	}
	for (const name of ['profile', 'account'] as const) {
		if (provider[name] !== undefined && typeof provider[name] !== 'function') fail(`\`${name}\` must be a function.`);
	}

	const checks = normalizeChecks(provider, fail);
	const client = { ...provider.client, token_endpoint_auth_method: checkClientAuthentication(provider, fail) };
	checkRefreshAndTimeout(provider, fail);

	return {
		...provider,
		checks,
		client,
		...(provider.type === 'oidc' ? { idToken: provider.idToken !== false } : {})
	};
}

/**
 * Throws `InvalidConfiguration` when the provider object has a key that is not an option but
 * close to one (`clientID`, `clientSecert`, `wellknown`): it would be ignored, and sign-in would
 * fail later. Other keys of its own are kept (an app may carry its own fields on a provider).
 *
 * @example
 * refuseMisspeltOptions({ id: "corp", name: "Corp", type: "oidc", issuer, clientID: "app" }); // throws: did you mean `clientId`?
 */
export function refuseMisspeltOptions(provider: OAuthConfig): void {
	const misspelt = unknownKeys(provider, OAUTH_CONFIG_KEYS).filter((unknown) => unknown.meant !== undefined);
	if (misspelt.length > 0) {
		throw new InvalidConfiguration(`OAuth provider "${provider.id}": ${describeUnknownKeys(misspelt)}. A misspelt option would be ignored, and sign-in would fail later.`);
	}
}

/**
 * The checks of a provider that names none: PKCE and `state` for OAuth 2 (an identity provider may
 * accept any code verifier, and then only `state` ties the callback to the browser), plus `nonce`
 * for OpenID Connect. Pure.
 *
 * @example
 * defaultChecks('oidc'); // ['pkce', 'state', 'nonce']
 */
export function defaultChecks(type: OAuthConfig['type']): OAuthCheck[] {
	return type === 'oidc' ? ['pkce', 'state', 'nonce'] : ['pkce', 'state'];
}

/** `checks` without duplicates; `none` alone; `nonce` only for OIDC. */
function normalizeChecks(provider: OAuthConfig, fail: (message: string) => never): OAuthCheck[] {
	const given = provider.checks ?? defaultChecks(provider.type);
	if (!Array.isArray(given) || given.length === 0) {
		fail('`checks` must be a non-empty array of "pkce", "state", "nonce" (OIDC) or "none", e.g. ["pkce"].');
	}
	const checks = [...new Set(given)];
	for (const check of checks) {
		if (!CHECKS.has(check)) fail(`unknown check ${JSON.stringify(check)}; use "pkce", "state", "nonce" or "none".`);
	}
	if (checks.includes('none') && checks.length > 1) fail('`checks: ["none"]` turns every check off and cannot be combined.');
	if (checks.includes('nonce') && provider.type !== 'oidc') fail('the "nonce" check needs an ID token: use it with type "oidc".');
	return checks;
}

/** The provider's client authentication method, with what it needs (secret, private key). */
function checkClientAuthentication(provider: OAuthConfig, fail: (message: string) => never): ClientAuthMethod {
	const client = provider.client ?? {};
	const method = client.token_endpoint_auth_method ?? defaultClientAuthMethod(provider);
	if (typeof method !== 'string' || !Object.hasOwn(CLIENT_AUTH_METHODS, method)) {
		fail(
			`client.token_endpoint_auth_method ${JSON.stringify(method)} is not supported; ` +
				`use one of ${Object.keys(CLIENT_AUTH_METHODS).map((m) => `"${m}"`).join(', ')}.`
		);
	}
	const needs = CLIENT_AUTH_METHODS[method as ClientAuthMethod];
	if (needs === 'clientSecret' && (typeof provider.clientSecret !== 'string' || !provider.clientSecret)) {
		fail(
			`client.token_endpoint_auth_method "${method}" needs \`clientSecret\` (the secret the identity provider gave your app): ` +
				`set ${providerEnvPrefix(provider.id)}_SECRET or pass \`clientSecret\`.`
		);
	}
	if (needs === 'client.private_key') {
		if (client.private_key === undefined) {
			fail(
				'client.token_endpoint_auth_method "private_key_jwt" needs `client.private_key`: your private key as a JWK, ' +
					'a PEM string or a CryptoKey (register its public key with the identity provider).'
			);
		}
		try {
			privateKeySigningAlgorithm(client.private_key);
		} catch (error) {
			fail(`client.private_key: ${(error as Error).message}.`);
		}
		if (client.private_key_kid !== undefined && (typeof client.private_key_kid !== 'string' || !client.private_key_kid)) {
			fail('client.private_key_kid must be a non-empty string (the key id the identity provider knows the key by).');
		}
	} else if (client.private_key !== undefined || client.private_key_kid !== undefined) {
		fail(`client.private_key is used only by "private_key_jwt", not "${method}": set client.token_endpoint_auth_method to "private_key_jwt", or remove the key.`);
	}
	return method as ClientAuthMethod;
}

/** Every configured URL must parse; identity provider endpoints must be https (http only on loopback). */
function checkUrls(provider: OAuthConfig, fail: (message: string) => never): void {
	const endpoints: [string, string | undefined][] = [
		['issuer', provider.issuer],
		['wellKnown', provider.wellKnown],
		['authorization', endpointUrl(provider.authorization as EndpointOption | undefined)],
		['token', endpointUrl(provider.token as EndpointOption | undefined)],
		['userinfo', endpointUrl(provider.userinfo as EndpointOption | undefined)],
		['jwks_endpoint', typeof provider.jwks_endpoint === 'string' ? provider.jwks_endpoint : undefined]
	];
	for (const [name, value] of endpoints) {
		if (value === undefined) continue;
		if (typeof value !== 'string' || !URL.canParse(value)) fail(`\`${name}\` must be an absolute URL; got ${JSON.stringify(value)}.`);
		if (!isAllowedEndpoint(value)) {
			fail(`\`${name}\` must use https (plain http is allowed only for 127.0.0.1/localhost); got ${value}.`);
		}
	}
	const proxy = provider.redirectProxyUrl;
	if (proxy !== undefined && (typeof proxy !== 'string' || !/^https?:$/.test(URL.parse(proxy)?.protocol ?? ''))) {
		fail(`\`redirectProxyUrl\` must be an absolute http(s) URL up to the base path, e.g. https://auth.example.com/auth.`);
	}
}

function checkRefreshAndTimeout(provider: OAuthConfig, fail: (message: string) => never): void {
	const { refresh, timeout } = provider;
	const skew = typeof refresh === 'object' && refresh !== null ? (refresh as { skewSeconds?: unknown }).skewSeconds : undefined;
	const refreshOk =
		refresh === undefined ||
		typeof refresh === 'boolean' ||
		(typeof refresh === 'object' && refresh !== null && (skew === undefined || (typeof skew === 'number' && skew >= 0)));
	if (!refreshOk) fail('`refresh` must be true, false or { skewSeconds: number }.');
	if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0 && Number.isFinite(timeout))) {
		fail('`timeout` must be a positive number of milliseconds.');
	}
}

function hasRequest(option: EndpointOption | undefined): boolean {
	return typeof option === 'object' && typeof option.request === 'function';
}

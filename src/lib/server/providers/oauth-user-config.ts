// What a built-in OAuth/OIDC provider accepts (`OAuthUserConfig`) and how the user's options,
// the provider's defaults and `AUTH_<ID>_*` environment variables merge. Used by `kitgate/providers/*`.

import { InvalidConfiguration } from '../core/errors.js';
import type { Awaitable, EndpointOption, OAuthConfig, TokenSet, User } from '../core/types.js';

/** Environment variables a provider may read its credentials from. */
export type ProviderEnv = Record<string, string | undefined>;

/** Maps an upstream profile record of shape `P` to the user kitgate stores. */
export type ProfileCallback<P> = (profile: P, tokens: TokenSet) => Awaitable<User>;

/** The named fields of `OAuthConfig`, without its index signature. */
type NamedFields<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/**
 * Options of a built-in OAuth/OIDC provider: any field of `OAuthConfig`, all optional, with
 * `profile` typed for the provider's own profile record `P`.
 *
 * `clientId`, `clientSecret` and `issuer` default to the environment variables
 * `AUTH_<ID>_ID`, `AUTH_<ID>_SECRET` and `AUTH_<ID>_ISSUER`, where `<ID>` is the provider id in
 * upper case with every character other than a letter or digit replaced by `_`
 * (`microsoft-entra-id` reads `AUTH_MICROSOFT_ENTRA_ID_ID`).
 *
 * @example
 * const options: OAuthUserConfig<GitHubProfile> = { clientId: "Iv1.abc", profile: (p) => ({ id: String(p.id), name: p.login }) };
 */
export type OAuthUserConfig<P> = Partial<Omit<NamedFields<OAuthConfig>, 'profile'>> & {
	clientId?: string;
	clientSecret?: string;
	profile?: ProfileCallback<P>;
	[key: string]: unknown;
};

/** What a provider module passes to `mergeProvider`: a complete provider with a typed `profile`. */
export type ProviderDefaults<P> = Omit<NamedFields<OAuthConfig>, 'profile'> & {
	profile?: ProfileCallback<P>;
	[key: string]: unknown;
};

/**
 * The environment prefix of provider `id`.
 *
 * @example
 * providerEnvPrefix("microsoft-entra-id") // "AUTH_MICROSOFT_ENTRA_ID" (reads AUTH_MICROSOFT_ENTRA_ID_ID, …_SECRET, …_ISSUER)
 */
export function providerEnvPrefix(id: string): string {
	return `AUTH_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

function processEnv(): ProviderEnv {
	return (globalThis as { process?: { env: ProviderEnv } }).process?.env ?? {};
}

type EndpointObject = Exclude<EndpointOption, string>;

function asEndpointObject(value: EndpointOption | undefined): EndpointObject | undefined {
	if (value === undefined) return undefined;
	return typeof value === 'string' ? { url: value } : value;
}

/**
 * Merges an endpoint: a string from the user replaces the default entirely (its own request
 * handler is dropped too: a different URL is a different endpoint); an object is merged key by
 * key, with `params` merged one level deeper.
 */
function mergeEndpoint(base: EndpointOption | undefined, override: EndpointOption | undefined): EndpointOption | undefined {
	if (override === undefined) return base;
	if (typeof override === 'string' || base === undefined) return override;
	const baseObject = asEndpointObject(base)!;
	const merged: EndpointObject = { ...baseObject, ...withoutUndefined(override) };
	if (baseObject.params || override.params) merged.params = { ...baseObject.params, ...override.params };
	return merged;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Endpoint fields merged key by key (`requestToken` is the OAuth 1.0a temporary-credentials endpoint). */
const ENDPOINT_KEYS = ['authorization', 'token', 'userinfo', 'requestToken'] as const;

/**
 * Builds a provider from its `defaults` and the user's `options`. Options win; `undefined` in
 * options never erases a default; `style`, `client` and the endpoints' `params` are merged one
 * level deep; `clientId`, `clientSecret` and `issuer` fall back to `AUTH_<ID>_ID`,
 * `AUTH_<ID>_SECRET` and `AUTH_<ID>_ISSUER` (see `OAuthUserConfig`), then to the defaults.
 *
 * @example
 * export default function Example(options: OAuthUserConfig<ExampleProfile> = {}): OAuthConfig {
 *   return mergeProvider<ExampleProfile>({ id: "example", name: "Example", type: "oauth", authorization: "https://example.com/authorize" }, options);
 * }
 */
export function mergeProvider<P>(
	defaults: ProviderDefaults<P>,
	options: OAuthUserConfig<P> = {},
	env: ProviderEnv = processEnv()
): OAuthConfig {
	const given = withoutUndefined(options) as OAuthUserConfig<P>;
	const merged: Record<string, unknown> = { ...defaults, ...given };
	const prefix = providerEnvPrefix(String(merged.id));
	merged.clientId = given.clientId ?? env[`${prefix}_ID`] ?? defaults.clientId;
	merged.clientSecret = given.clientSecret ?? env[`${prefix}_SECRET`] ?? defaults.clientSecret;
	merged.issuer = given.issuer ?? env[`${prefix}_ISSUER`] ?? defaults.issuer;
	if (defaults.style || given.style) merged.style = { ...defaults.style, ...given.style };
	if (defaults.client || given.client) merged.client = { ...defaults.client, ...given.client };
	for (const key of ENDPOINT_KEYS) {
		merged[key] = mergeEndpoint(defaults[key] as EndpointOption | undefined, given[key] as EndpointOption | undefined);
	}
	for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
	// the profile callback is typed for this provider's record; the engine passes exactly that record
	return merged as OAuthConfig;
}

/**
 * The URL of an endpoint option (undefined for a handler without a URL).
 *
 * @example
 * endpointUrl({ url: "https://gitlab.com/oauth/token", params: {} }) // "https://gitlab.com/oauth/token"
 */
export function endpointUrl(option: EndpointOption | undefined): string | undefined {
	return typeof option === 'string' ? option : option?.url;
}

/**
 * The provider's `issuer`, or an `InvalidConfiguration` error that says how to set it: for
 * providers that run on the customer's own domain (Keycloak, Okta, Auth0, Cognito, generic OIDC).
 *
 * @example
 * requireIssuer(provider, "https://kc.example.com/realms/myrealm")
 */
export function requireIssuer(provider: OAuthConfig, example: string): string {
	if (typeof provider.issuer === 'string' && provider.issuer) return provider.issuer;
	throw new InvalidConfiguration(
		`Provider "${provider.id}" needs \`issuer\`, e.g. ${example}; pass it as an option or set ${providerEnvPrefix(provider.id)}_ISSUER.`
	);
}

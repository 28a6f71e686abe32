// What a built-in OAuth/OIDC provider accepts (`OAuthUserConfig`) and how the user's options,
// the provider's defaults and `AUTH_<ID>_*` environment variables merge. Used by `kitgate/providers/*`.

import { PROVIDER_WITH_ENV, missingVariablesError, processEnv, providerEnvPrefix, type MissingVariable } from '../core/config/env.js';
import { describeUnknownKeys, exactKeys, unknownKeys } from '../core/config/option-keys.js';
import { InvalidConfiguration } from '../core/errors.js';
import { OAUTH_CONFIG_KEYS } from '../core/flows/oauth/oauth-config-keys.js';
import type { Awaitable, EndpointOption, OAuthConfig, TokenSet, User } from '../core/types.js';
import { withoutUndefined } from '../core/util/without-undefined.js';

/** Environment variables a provider may read its credentials from. */
export type ProviderEnv = Record<string, string | undefined>;

/** Maps an upstream profile record of shape `P` to the user kitgate stores. */
export type ProfileCallback<P> = (profile: P, tokens: TokenSet) => Awaitable<User>;

/** The named fields of `OAuthConfig`, without its index signature. */
type NamedFields<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/**
 * Options of a built-in OAuth/OIDC provider: the fields of `OAuthConfig`, all optional, with
 * `profile` typed for the provider's own profile record `P`. Nothing else: a misspelt option
 * (`clientSecert`, `clientID`) is a type error, and refused when the config is resolved.
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
};

/**
 * Every option of `OAuthUserConfig`, checked against the type by the compiler: what a built-in
 * OAuth/OIDC factory accepts (a factory with options of its own adds them, e.g. GitHub's `enterprise`).
 */
export const OAUTH_USER_CONFIG_KEYS = exactKeys<OAuthUserConfig<unknown>>()(OAUTH_CONFIG_KEYS);

/** What a provider module passes to `mergeProvider`: a complete provider with a typed `profile`. */
export type ProviderDefaults<P> = Omit<NamedFields<OAuthConfig>, 'profile'> & {
	profile?: ProfileCallback<P>;
};

export { providerEnvPrefix };
// the engine's one definition, also offered beside the merge helpers to provider code
export { endpointUrl } from '../core/flows/oauth/endpoint-rules.js';

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

/** Endpoint fields merged key by key (`requestToken` is the OAuth 1.0a temporary-credentials endpoint). */
const ENDPOINT_KEYS = ['authorization', 'token', 'userinfo', 'requestToken'] as const;

/** What a provider module asks of the merged provider, checked when the config is resolved. */
export interface ProviderRules {
	/** The provider runs on the customer's own domain: `issuer` (or `wellKnown`) is required; an example of one. */
	issuerExample?: string;
	/** The identity provider always needs a client secret (no public clients): a missing one is reported at start-up. */
	needsSecret?: boolean;
	/**
	 * Every option the factory accepts (default `OAUTH_USER_CONFIG_KEYS`); a factory with options of
	 * its own lists them too, so a misspelt one is matched to them as well.
	 */
	optionKeys?: readonly string[];
	/** Last touches to the merged provider (e.g. Auth0's trailing slash on the issuer). */
	finish?: (provider: OAuthConfig) => OAuthConfig;
}

/**
 * Builds a provider from its `defaults` and the user's `options`. Options win; `undefined` in
 * options never erases a default; `style`, `client` and the endpoints' `params` are merged one
 * level deep; `clientId`, `clientSecret` and `issuer` fall back to `AUTH_<ID>_ID`,
 * `AUTH_<ID>_SECRET` and `AUTH_<ID>_ISSUER` (see `OAuthUserConfig`), then to the defaults.
 * Nothing is required yet: the engine rebuilds the provider with the environment the app's
 * integration read (SvelteKit's `.env`), and reports then, at start-up (or on the first request of
 * a lazy config) — never while an app is being built — an unknown option (naming the one it most
 * likely meant) and every missing variable (`AUTH_<ID>_ID`, `_SECRET` with `needsSecret`,
 * `_ISSUER` with `issuerExample`), all at once with the config's other missing variables.
 *
 * @example
 * export default function Example(options: OAuthUserConfig<ExampleProfile> = {}): OAuthConfig {
 *   return mergeProvider<ExampleProfile>({ id: "example", name: "Example", type: "oauth", authorization: "https://example.com/authorize" }, options);
 * }
 */
export function mergeProvider<P>(
	defaults: ProviderDefaults<P>,
	options: OAuthUserConfig<P> = {},
	env: ProviderEnv = processEnv(),
	rules: ProviderRules = {}
): OAuthConfig {
	const build = (environment: ProviderEnv, strict: boolean): OAuthConfig => {
		const merged = mergeWithEnv(defaults, options, environment);
		if (strict) {
			const unknown = unknownKeys(options, rules.optionKeys ?? OAUTH_USER_CONFIG_KEYS);
			if (unknown.length > 0) {
				throw new InvalidConfiguration(`Provider "${merged.id}": ${describeUnknownKeys(unknown)}. A misspelt option would be ignored, and sign-in would fail later.`);
			}
			const missing = missingVariables(merged, rules);
			if (missing.length > 0) throw missingVariablesError(missing);
		}
		return rules.finish ? rules.finish(merged) : merged;
	};
	const provider = build(env, false);
	Object.defineProperty(provider, PROVIDER_WITH_ENV, { value: (environment: ProviderEnv) => build(environment, true) });
	return provider;
}

/** The variables a merged provider still needs: its client id, its secret (`needsSecret`), its issuer (`issuerExample`). */
function missingVariables(merged: OAuthConfig, rules: ProviderRules): MissingVariable[] {
	const prefix = providerEnvPrefix(merged.id);
	const missing: MissingVariable[] = [];
	if (!merged.clientId) {
		missing.push({ name: `${prefix}_ID`, what: `the client id the identity provider gave your app, for provider "${merged.id}" (or pass \`clientId\`).` });
	}
	if (rules.needsSecret && !merged.clientSecret) {
		missing.push({ name: `${prefix}_SECRET`, what: `the client secret that goes with it, for provider "${merged.id}" (or pass \`clientSecret\`).` });
	}
	if (rules.issuerExample && !merged.issuer && !merged.wellKnown) {
		missing.push({ name: `${prefix}_ISSUER`, what: `the issuer URL of provider "${merged.id}", e.g. ${rules.issuerExample} (or pass \`issuer\`).` });
	}
	return missing;
}

function mergeWithEnv<P>(defaults: ProviderDefaults<P>, options: OAuthUserConfig<P>, env: ProviderEnv): OAuthConfig {
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


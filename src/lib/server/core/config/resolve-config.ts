// Resolves and validates an `AuthConfig` once: defaults, environment variables, provider checks.
// Misconfiguration throws here, at start-up, with a message that says what to change.

import {
	AuthError,
	DuplicateProviderId,
	ExperimentalFeatureNotEnabled,
	InvalidConfiguration,
	MissingAdapter,
	MissingSecret,
	UnsupportedStrategy,
	UntrustedHost
} from '../errors.js';
import {
	MISSING_VARIABLES,
	PROVIDER_WITH_ENV,
	missingVariablesMessage,
	missingVariablesOf,
	processEnv,
	providerEnvPrefix,
	type AuthEnv,
	type MissingVariable
} from './env.js';
import { createLogger, type EngineLogger } from './logger.js';
import { authjsSessionCookieName, defaultCookies, type CookieSet } from '../request/cookies.js';
import { decodeJwt, encodeJwt } from '../crypto/jwt.js';
import { defaultRedirect } from '../response/redirect.js';
import { keepToken, publicSession } from './default-callbacks.js';
import { guardAdapter, type GuardedAdapter } from '../store/adapter-guard.js';
import { randomToken } from '../crypto/random.js';
import { resolveSessionCache, type ResolvedSessionCache } from './session-cache-option.js';
import { sessionCacheInvalidation } from '../session/session-cache-invalidation.js';
import { normalizeEmailProvider } from '../flows/email/email-provider.js';
import { normalizeOAuthProvider, refuseMisspeltOptions } from '../flows/oauth/oauth-provider.js';
import { isOAuth1Provider } from '../flows/oauth/oauth1-provider.js';
import { processRateLimitStore } from '../limits/memory-rate-limit-store.js';
import { resolveRateLimit, type ResolvedRateLimit } from '../limits/rate-limit-rules.js';
import { resolveAccountOptions, type ResolvedAccountOptions } from './account-options.js';
import { resolveTwoFactorOptions, type ResolvedTwoFactorOptions } from './two-factor-options.js';
import { resolveAdminOptions, type ResolvedAdminOptions } from './admin-options.js';
import { resolveOrganizationOptions, type ResolvedOrganizationOptions } from './organization-options.js';
import { skipCSRFCheck } from '../types.js';
import type {
	Adapter,
	AuthConfig,
	CallbacksOptions,
	CookiesOptions,
	EventCallbacks,
	JWTOptions,
	PagesOptions,
	Provider,
	RevocationStore,
	SessionOptions,
	Theme
} from '../types.js';

/** A validated configuration with every default filled in. */
export interface ResolvedConfig {
	providers: Provider[];
	providerById: Map<string, Provider>;
	adapter?: GuardedAdapter;
	basePath: string;
	secrets: string[];
	trustHost: boolean;
	/** Fixed public URL from `AUTH_URL`, when set. */
	authUrl?: URL;
	session: SessionOptions;
	/** Copies of database sessions (`session.cache`), when on. */
	sessionCache?: ResolvedSessionCache;
	jwt: JWTOptions;
	callbacks: CallbacksOptions;
	events: Partial<EventCallbacks>;
	cookies: { secure: CookieSet; insecure: CookieSet };
	useSecureCookies?: boolean;
	pages: Partial<PagesOptions>;
	theme: Theme;
	locale?: string;
	messages?: Record<string, string>;
	logger: EngineLogger;
	redirectProxyUrl?: string;
	experimental: { enableWebAuthn: boolean };
	skipCSRFCheck: boolean;
	debug: boolean;
	now: () => number;
	/** Abuse limits (`rateLimit`), defaults filled in. */
	rateLimit: ResolvedRateLimit;
	/** Where JWT session revocations are kept, and when they are checked. */
	revocation: { store: RevocationStore; check: 'refresh' | 'always' };
	/** Whose session cookies are taken over (`migrateSessionsFrom`); undefined when none are. */
	migrateSessionsFrom?: 'authjs';
	/** The account routes (`account`), defaults filled in. */
	account: ResolvedAccountOptions;
	/** When the second factor is asked for (`twoFactor`), defaults filled in. */
	twoFactor: ResolvedTwoFactorOptions;
	/** The admin routes and `adminApi` (`admin`), defaults filled in; undefined when `admin` is not set. */
	admin?: ResolvedAdminOptions;
	/** The organization routes (`organizations`), defaults filled in; undefined when `organizations` is not set. */
	organizations?: ResolvedOrganizationOptions;
}

export type { AuthEnv } from './env.js';

const MIN_SECRET_LENGTH = 32;
const PROVIDER_TYPES = new Set(['oidc', 'oauth', 'email', 'credentials', 'webauthn']);
const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

const resolvedByConfig = new WeakMap<AuthConfig, ResolvedConfig>();

let webAuthnWarningShown = false;


/**
 * Resolves `config` (cached per config object). Throws an `AuthError` whose message says
 * what to change when the configuration cannot work.
 */
export function resolveConfig(config: AuthConfig, env: AuthEnv = processEnv()): ResolvedConfig {
	const cached = resolvedByConfig.get(config);
	if (cached) return cached;
	const resolved = buildConfig(config, env);
	resolvedByConfig.set(config, resolved);
	return resolved;
}

function buildConfig(config: AuthConfig, env: AuthEnv): ResolvedConfig {
	if (!config || typeof config !== 'object') {
		throw new InvalidConfiguration('kitgate needs a configuration object: Auth(request, { providers, secret, ... }).');
	}
	// every missing variable is reported at once, in one error, after the checks that can find more
	const missing = new MissingVariables();
	try {
		const resolved = buildWithVariables(config, env, missing);
		missing.throwIfAny();
		return resolved;
	} catch (error) {
		// a variable found missing earlier goes first, as when it stopped the start-up on its own
		missing.throwIfAny();
		throw error;
	}
}

/** The variables found missing while a config is resolved, thrown together. */
class MissingVariables {
	private readonly found: { variable: MissingVariable; rank: number; error: new (message: string) => AuthError }[] = [];

	/** `error`: the class of the error when this variable is the most important one missing (`MissingSecret` before `UntrustedHost`, before the providers'). */
	add(variable: MissingVariable, error: new (message: string) => AuthError = InvalidConfiguration): void {
		if (this.found.some((entry) => entry.variable.name === variable.name)) return;
		const rank = error === MissingSecret ? 0 : error === UntrustedHost ? 1 : 2;
		this.found.push({ variable, rank, error });
	}

	/** Throws one error naming every missing variable (its class: the most important one's), if any is missing. */
	throwIfAny(): void {
		if (this.found.length === 0) return;
		const ordered = [...this.found].sort((a, b) => a.rank - b.rank);
		const variables = ordered.map((entry) => entry.variable);
		const error = new ordered[0].error(missingVariablesMessage(variables));
		Object.defineProperty(error, MISSING_VARIABLES, { value: variables });
		throw error;
	}
}

function buildWithVariables(config: AuthConfig, env: AuthEnv, missing: MissingVariables): ResolvedConfig {
	const logger = createLogger(config.logger, config.debug ?? false);
	const secrets = resolveSecrets(config.secret, env, missing);
	const authUrl = resolveAuthUrl(config.url, env);
	const basePath = resolveBasePath(config.basePath, authUrl);
	const trust = resolveTrustHost(config.trustHost, env);
	const trustHost = trust.trusted;
	if (!trustHost && !authUrl) {
		missing.add(
			{
				name: 'AUTH_URL',
				what:
					'the public URL of the app, e.g. https://example.com (or pass `url`): kitgate does not trust the Host header, so it cannot know it. ' +
					'With SvelteKit and adapter-node, setting ORIGIN is enough. ' +
					'Or set `trustHost: true` (AUTH_TRUST_HOST=true) when a proxy you run sets Host/X-Forwarded-Host.'
			},
			UntrustedHost
		);
	}

	const migrateSessionsFrom = resolveSessionMigration(config.migrateSessionsFrom);
	const strategy = config.session?.strategy ?? (config.adapter ? 'database' : 'jwt');
	if (strategy !== 'jwt' && strategy !== 'database') {
		throw new UnsupportedStrategy(`session.strategy must be "jwt" or "database", not ${JSON.stringify(strategy)}.`);
	}
	if (strategy === 'database' && !config.adapter) {
		throw new UnsupportedStrategy(
			'session.strategy "database" needs an adapter: pass `adapter` (e.g. SQLiteAdapter()) or use strategy "jwt".'
		);
	}
	const sessionCache = resolveSessionCache(config.session?.cache, strategy);
	const rateLimit = resolveRateLimit(config.rateLimit);
	const revocation = resolveRevocation(config.session, rateLimit);
	// with copies of sessions, the adapter's session and user writes make the copies they concern stale
	const invalidation = sessionCacheInvalidation(sessionCache, { secrets, revocation: revocation.store, now: config.now ?? Date.now, logError: (error) => logger.error(error) });
	const adapter = config.adapter ? guardAdapter(config.adapter, invalidation) : undefined;
	const session: SessionOptions = {
		strategy,
		maxAge: positiveSeconds(config.session?.maxAge, 30 * 24 * 60 * 60, 'session.maxAge'),
		updateAge: positiveSeconds(config.session?.updateAge, 24 * 60 * 60, 'session.updateAge'),
		// 32 random bytes (256 bits) as hex: the interface allows any hex of random bytes; Auth.js's UUID has 122 bits
		generateSessionToken: config.session?.generateSessionToken ?? (() => randomToken(32, 'hex'))
	};

	const { providers, incomplete } = resolveProviders(config, adapter, env, missing);
	checkEmailLinkOrigin([...providers, ...incomplete], { authUrl, explicitTrust: trust.explicit, production: env.NODE_ENV === 'production', logger, missing });
	const cookies = {
		secure: mergeCookies(defaultCookies(true), config.cookies),
		insecure: mergeCookies(defaultCookies(false), config.cookies)
	};
	if (migrateSessionsFrom) checkCookiesApart(cookies);
	const experimental = { enableWebAuthn: config.experimental?.enableWebAuthn === true };
	if (experimental.enableWebAuthn && !webAuthnWarningShown) {
		webAuthnWarningShown = true;
		logger.warn('experimental-webauthn', 'WebAuthn (passkeys) is experimental and may change without notice.');
	}

	const jwtMaxAge = positiveSeconds(config.jwt?.maxAge, session.maxAge, 'jwt.maxAge');

	return {
		providers,
		providerById: new Map(providers.map((p) => [p.id, p])),
		adapter,
		basePath,
		secrets,
		trustHost,
		authUrl,
		session,
		sessionCache,
		jwt: {
			maxAge: jwtMaxAge,
			encode: config.jwt?.encode ?? encodeJwt,
			decode: config.jwt?.decode ?? decodeJwt
		},
		callbacks: {
			signIn: config.callbacks?.signIn ?? (() => true),
			redirect: config.callbacks?.redirect ?? defaultRedirect,
			session: config.callbacks?.session ?? publicSession,
			jwt: config.callbacks?.jwt ?? keepToken
		},
		events: config.events ?? {},
		cookies,
		useSecureCookies: config.useSecureCookies,
		pages: config.pages ?? {},
		theme: config.theme ?? {},
		locale: config.locale,
		messages: config.messages,
		logger,
		redirectProxyUrl: config.redirectProxyUrl ?? env.AUTH_REDIRECT_PROXY_URL,
		experimental,
		// only the exported marker turns the check off: `false`, `null` or `0` must not
		skipCSRFCheck: config.skipCSRFCheck === skipCSRFCheck,
		debug: config.debug ?? false,
		now: config.now ?? Date.now,
		rateLimit,
		revocation,
		migrateSessionsFrom,
		account: resolveAccountOptions(config.account, { adapter, providers, strategy }),
		twoFactor: resolveTwoFactorOptions(config.twoFactor, { adapter, jwtMaxAge }),
		admin: resolveAdminOptions(config.admin, { adapter, strategy }),
		organizations: resolveOrganizationOptions(config.organizations, { adapter, providers })
	};
}

/** `migrateSessionsFrom`: the one library whose session cookies kitgate reads, or none. */
function resolveSessionMigration(value: unknown): 'authjs' | undefined {
	if (value === undefined) return undefined;
	if (value !== 'authjs') {
		throw new InvalidConfiguration(`migrateSessionsFrom must be "authjs" (or left out), not ${JSON.stringify(value)}.`);
	}
	return value;
}

/**
 * With `migrateSessionsFrom`, kitgate's session cookie cannot carry Auth.js's name: kitgate would
 * read each Auth.js cookie as its own, fail to decrypt it, and sign everyone out.
 */
function checkCookiesApart(cookies: ResolvedConfig['cookies']): void {
	for (const secure of [true, false]) {
		const { name } = (secure ? cookies.secure : cookies.insecure).sessionToken;
		if (name === authjsSessionCookieName(secure) || name === authjsSessionCookieName(!secure)) {
			throw new InvalidConfiguration(
				`cookies.sessionToken.name is "${name}", the name of Auth.js's session cookie, which migrateSessionsFrom reads: ` +
					'leave kitgate\'s default name (or choose another one).'
			);
		}
	}
}

/** The revocation store and check: `session.revocationStore`, else a given `rateLimit.store` that can keep them, else process memory. */
function resolveRevocation(session: AuthConfig['session'], rateLimit: ResolvedRateLimit): ResolvedConfig['revocation'] {
	// every read: a revoked or deleted user's JWT session ends on its next request
	const check = session?.revocationCheck ?? 'always';
	if (check !== 'refresh' && check !== 'always') {
		throw new InvalidConfiguration(`session.revocationCheck must be "refresh" or "always", not ${JSON.stringify(check)}.`);
	}
	const given = session?.revocationStore;
	if (given !== undefined && !isRevocationStore(given)) {
		throw new InvalidConfiguration('session.revocationStore needs revokedAt(userId, now) and revoke(userId, at, keepSeconds).');
	}
	const shared = rateLimit.storeGiven && isRevocationStore(rateLimit.store) ? rateLimit.store : undefined;
	return { store: given ?? shared ?? processRateLimitStore(), check };
}

function isRevocationStore(value: unknown): value is RevocationStore {
	const store = value as Partial<RevocationStore> | undefined;
	return typeof store?.revokedAt === 'function' && typeof store.revoke === 'function';
}

function resolveSecrets(secret: AuthConfig['secret'], env: AuthEnv, missing: MissingVariables): string[] {
	// as Auth.js reads them: AUTH_SECRET_3, _2, _1 before AUTH_SECRET, the first one signing
	const raw = secret ?? [env.AUTH_SECRET_3, env.AUTH_SECRET_2, env.AUTH_SECRET_1, env.AUTH_SECRET];
	const secrets = (Array.isArray(raw) ? raw : [raw]).filter((s): s is string => typeof s === 'string' && s !== '');
	if (secrets.length === 0) {
		const what = 'at least 32 random characters, e.g. from `openssl rand -base64 32` (or pass `secret`): it encrypts session cookies and signs CSRF tokens.';
		missing.add({ name: 'AUTH_SECRET', what }, MissingSecret);
		return secrets;
	}
	const short = secrets.findIndex((s) => s.length < MIN_SECRET_LENGTH);
	if (short >= 0) {
		throw new MissingSecret(
			`The secret${secrets.length > 1 ? ` at index ${short}` : ''} has ${secrets[short].length} characters; ` +
				`kitgate needs at least ${MIN_SECRET_LENGTH} random characters (e.g. from \`openssl rand -base64 32\`).`
		);
	}
	return secrets;
}

function resolveAuthUrl(configured: string | undefined, env: AuthEnv): URL | undefined {
	const value = configured ?? env.AUTH_URL;
	if (!value) return undefined;
	try {
		const url = new URL(value);
		if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
		return url;
	} catch {
		const name = configured === undefined ? 'AUTH_URL' : '`url`';
		throw new InvalidConfiguration(`${name} must be an absolute http(s) URL, e.g. https://example.com; got ${JSON.stringify(value)}.`);
	}
}

/** `basePath` wins; else a path in AUTH_URL; else `/auth`. Always `/x/y` without trailing slash. */
function resolveBasePath(basePath: string | undefined, authUrl: URL | undefined): string {
	const raw = basePath ?? (authUrl && authUrl.pathname !== '/' ? authUrl.pathname : '/auth');
	if (typeof raw !== 'string' || !/^\/?[A-Za-z0-9._~\-/]*$/.test(raw) || raw.includes('//')) {
		throw new InvalidConfiguration(`basePath must be a URL path such as "/auth"; got ${JSON.stringify(raw)}.`);
	}
	const trimmed = `/${raw.replace(/^\/+|\/+$/g, '')}`;
	if (trimmed === '/') throw new InvalidConfiguration('basePath cannot be "/": mount kitgate under a path such as "/auth".');
	return trimmed;
}

/** Whether the Host header is trusted, and whether the app said so itself (`trustHost`, AUTH_TRUST_HOST). */
function resolveTrustHost(trustHost: boolean | undefined, env: AuthEnv): { trusted: boolean; explicit: boolean } {
	if (typeof trustHost === 'boolean') return { trusted: trustHost, explicit: trustHost };
	const fromEnv = env.AUTH_TRUST_HOST;
	if (fromEnv !== undefined && fromEnv !== '') {
		const trusted = fromEnv === 'true' || fromEnv === '1';
		return { trusted, explicit: trusted };
	}
	// hosting platforms that set Host themselves, and local development
	return { trusted: Boolean(env.VERCEL || env.CF_PAGES) || env.NODE_ENV !== 'production', explicit: false };
}

let emailOriginWarningShown = false;

/**
 * Email links (and the sender and subject made from them) need a public URL nobody can forge: in
 * production, an email provider without AUTH_URL starts only when the app trusts the host itself.
 */
function checkEmailLinkOrigin(
	providers: Provider[],
	facts: { authUrl?: URL; explicitTrust: boolean; production: boolean; logger: EngineLogger; missing: MissingVariables }
): void {
	const email = providers.find((provider) => provider.type === 'email');
	if (!email || facts.authUrl || facts.explicitTrust) return;
	if (facts.production) {
		const what =
			`the public URL of the app, e.g. https://example.com (or pass \`url\`): email provider "${email.id}" mails sign-in links, ` +
			'which must point at your site whatever Host header a request carries. Or set `trustHost: true` ' +
			'(AUTH_TRUST_HOST=true) only if a proxy you run sets Host and X-Forwarded-Host itself.';
		facts.missing.add({ name: 'AUTH_URL', what }, UntrustedHost);
		return;
	}
	if (!emailOriginWarningShown) {
		emailOriginWarningShown = true;
		facts.logger.warn(
			'email-link-origin',
			`Email provider "${email.id}" builds sign-in links from the request's Host header; set AUTH_URL before going to production.`
		);
	}
}

function positiveSeconds(value: number | undefined, fallback: number, name: string): number {
	if (value === undefined) return fallback;
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
		throw new InvalidConfiguration(`${name} must be a number of seconds (0 or more); got ${JSON.stringify(value)}.`);
	}
	return value;
}

/**
 * The providers, checked and with their environment; `incomplete`: those still missing variables
 * (recorded in `missing`), as given, for the checks that need only their type.
 */
function resolveProviders(
	config: AuthConfig,
	adapter: Adapter | undefined,
	env: AuthEnv,
	missing: MissingVariables
): { providers: Provider[]; incomplete: Provider[] } {
	if (!Array.isArray(config.providers)) {
		throw new InvalidConfiguration('`providers` must be an array, e.g. providers: [Credentials({ ... })].');
	}
	const seen = new Set<string>();
	const resolved: Provider[] = [];
	const incomplete: Provider[] = [];
	config.providers.forEach((entry, index) => {
		// a provider factory passed without calling it, e.g. `providers: [GitHub]`
		const given = (typeof entry === 'function' ? (entry as () => Provider)() : entry) as Provider;
		if (!given || typeof given !== 'object') {
			throw new InvalidConfiguration(`providers[${index}] is not a provider object.`);
		}
		let provider: Provider;
		try {
			provider = withEnvironment(given, env);
		} catch (error) {
			// a built-in provider without its variables: reported with every other missing one
			const variables = missingVariablesOf(error);
			if (!variables) throw error;
			for (const variable of variables) missing.add(variable);
			incomplete.push(given);
			return;
		}
		if (!PROVIDER_TYPES.has(provider.type)) {
			throw new InvalidConfiguration(
				`Provider ${JSON.stringify(provider.id ?? index)} has unknown type ${JSON.stringify(provider.type)}; ` +
					'use one of "oidc", "oauth", "email", "credentials", "webauthn".'
			);
		}
		if (typeof provider.id !== 'string' || !PROVIDER_ID.test(provider.id)) {
			throw new InvalidConfiguration(
				`providers[${index}] needs an \`id\` made of letters, digits, "-" and "_"; got ${JSON.stringify(provider.id)}.`
			);
		}
		if (seen.has(provider.id)) {
			throw new DuplicateProviderId(
				`Two providers have the id "${provider.id}": give one of them another \`id\` (it is part of the callback URL).`
			);
		}
		seen.add(provider.id);
		const variables = missingCredentials(provider);
		if (variables.length > 0) {
			for (const variable of variables) missing.add(variable);
			incomplete.push(provider);
			return;
		}
		const named = { ...provider, name: typeof provider.name === 'string' ? provider.name : provider.id } as Provider;
		resolved.push(checkProvider(named, config, adapter));
	});
	return { providers: resolved, incomplete };
}

/** The variables an OAuth provider object (not a built-in one: those report their own) still lacks: its client id, and an OAuth 1.0a consumer secret. */
function missingCredentials(provider: Provider): MissingVariable[] {
	if (provider.type !== 'oauth' && provider.type !== 'oidc') return [];
	// `clientID` given is a misspelling, not a missing variable
	refuseMisspeltOptions(provider);
	const prefix = providerEnvPrefix(provider.id);
	const missing: MissingVariable[] = [];
	if (typeof provider.clientId !== 'string' || !provider.clientId) {
		missing.push({ name: `${prefix}_ID`, what: `the client id the identity provider gave your app, for provider "${provider.id}" (or pass \`clientId\`).` });
	}
	if (isOAuth1Provider(provider) && (typeof provider.clientSecret !== 'string' || !provider.clientSecret)) {
		missing.push({ name: `${prefix}_SECRET`, what: `the consumer secret of provider "${provider.id}" (or pass \`clientSecret\`).` });
	}
	return missing;
}

/**
 * The provider with what the environment the integration read gives it: a built-in provider
 * rebuilds itself (it knows its variables); another OAuth provider gets `clientId`,
 * `clientSecret` and `issuer` from `AUTH_<ID>_ID`, `_SECRET` and `_ISSUER` when it has none.
 */
function withEnvironment(provider: Provider, env: AuthEnv): Provider {
	const rebuild = (provider as { [PROVIDER_WITH_ENV]?: (env: AuthEnv) => Provider })[PROVIDER_WITH_ENV];
	if (typeof rebuild === 'function') return rebuild(env);
	if ((provider.type !== 'oauth' && provider.type !== 'oidc') || typeof provider.id !== 'string') return provider;
	const prefix = providerEnvPrefix(provider.id);
	const filled = { ...provider };
	filled.clientId ??= env[`${prefix}_ID`];
	filled.clientSecret ??= env[`${prefix}_SECRET`];
	filled.issuer ??= env[`${prefix}_ISSUER`];
	for (const key of ['clientId', 'clientSecret', 'issuer'] as const) if (filled[key] === undefined) delete filled[key];
	return filled;
}

function checkProvider(provider: Provider, config: AuthConfig, adapter: Adapter | undefined): Provider {
	switch (provider.type) {
		case 'credentials':
			if (typeof provider.authorize !== 'function') {
				throw new InvalidConfiguration(`Credentials provider "${provider.id}" needs an \`authorize(credentials, request)\` function.`);
			}
			return { ...provider, credentials: provider.credentials ?? {} };
		case 'email':
			if (!adapter) {
				throw new MissingAdapter(
					`Email provider "${provider.id}" stores one-time tokens and needs an adapter: pass \`adapter\` (e.g. SQLiteAdapter()).`
				);
			}
			return normalizeEmailProvider(provider);
		case 'webauthn':
			if (config.experimental?.enableWebAuthn !== true) {
				throw new ExperimentalFeatureNotEnabled(
					`Provider "${provider.id}" uses WebAuthn, which is experimental: set \`experimental: { enableWebAuthn: true }\`.`
				);
			}
			if (!adapter) {
				throw new MissingAdapter(`Passkey provider "${provider.id}" stores authenticators and needs an adapter.`);
			}
			return provider;
		case 'oauth':
		case 'oidc':
			return normalizeOAuthProvider(provider);
	}
}

function mergeCookies(defaults: CookieSet, overrides: Partial<CookiesOptions> | undefined): CookieSet {
	if (!overrides) return defaults;
	const merged = { ...defaults };
	for (const key of Object.keys(defaults) as (keyof CookieSet)[]) {
		const override = overrides[key];
		if (!override) continue;
		merged[key] = {
			name: override.name ?? defaults[key].name,
			options: { ...defaults[key].options, ...override.options }
		};
	}
	return merged;
}

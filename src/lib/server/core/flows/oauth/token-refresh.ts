// Upstream token refresh (`refresh: true` on an OAuth provider): keeps the provider's access token
// fresh with its refresh token while a session is read, single-flight per refresh token.

import { base64url } from '../../crypto/bytes.js';
import { digest } from '../../crypto/hash.js';
import { assertAdapterMethods, type GuardedAdapter } from '../../store/adapter-guard.js';
import type { RequestContext } from '../../request/context.js';
import { expiredCookie } from '../../request/cookies.js';
import { OAuthCallbackError } from '../../errors.js';
import { decodeJwt, encodeJwt } from '../../crypto/jwt.js';
import { loadOnce } from '../../util/load-once.js';
import type { Account, AdapterUser, JWT, OAuthConfig, Provider, TokenSet } from '../../types.js';
import type { RefreshResult } from './token-refresh-request.js';
import { withoutUndefined } from '../../util/without-undefined.js';

/** Where the JWT session keeps the upstream tokens of a provider with `refresh` on. */
export const UPSTREAM_TOKEN_KEY = 'kitgate.upstream';

/** The `session.error` (and upstream entry `error`) when the provider refused to refresh. */
export const REFRESH_TOKEN_ERROR = 'RefreshTokenError';

/** Refresh this many seconds before `expires_at` unless the provider says otherwise. */
const DEFAULT_SKEW_SECONDS = 60;

/** How long a finished refresh is reused for requests still carrying the old refresh token. */
const REUSE_MS = 30_000;

/**
 * The upstream tokens a JWT session holds under `UPSTREAM_TOKEN_KEY`.
 *
 * @example
 * const upstream = token[UPSTREAM_TOKEN_KEY] as UpstreamTokens | undefined;
 */
export interface UpstreamTokens {
	provider: string;
	providerAccountId: string;
	access_token?: string;
	refresh_token?: string;
	expires_at?: number;
	token_type?: string;
	scope?: string;
	/** Set to `RefreshTokenError` once the provider refused the refresh token. */
	error?: string;
}


/** The request to the provider, with the OAuth library: loaded on the first refresh only. */
const refreshRequest = loadOnce(() => import('./token-refresh-request.js'));

/** Refreshes in progress (and just finished), by provider and refresh-token hash. */
const refreshes = new Map<string, Promise<RefreshResult>>();

/**
 * JWT strategy, at sign-in: adds the account's upstream tokens to the session token when the
 * provider has `refresh` on and returned a refresh token. Called by `establishSession`.
 *
 * @example
 * const token = withUpstreamTokens(ctx, await callbacks.jwt({ token, user, account }), account);
 * token["kitgate.upstream"].access_token;
 */
export function withUpstreamTokens(ctx: RequestContext, token: JWT | null, account: Account | null): JWT | null {
	if (!token || !account?.refresh_token || !refreshSettings(ctx.config.providerById.get(account.provider))) return token;
	const upstream: UpstreamTokens = {
		provider: account.provider,
		providerAccountId: account.providerAccountId,
		access_token: account.access_token,
		refresh_token: account.refresh_token,
		expires_at: account.expires_at,
		token_type: account.token_type,
		scope: account.scope
	};
	return { ...token, [UPSTREAM_TOKEN_KEY]: withoutUndefined(upstream) };
}

/**
 * JWT strategy, on every session read: the token with refreshed upstream tokens when they are
 * within `skewSeconds` of `expires_at`, marked `RefreshTokenError` when the provider refused.
 * Returns `token` itself at once (no promise, no work) when nothing is due. Called by the session read.
 *
 * @example
 * const current = await refreshUpstreamTokens(ctx, decoded);
 */
export function refreshUpstreamTokens(ctx: RequestContext, token: JWT): JWT | Promise<JWT> {
	const upstream = token[UPSTREAM_TOKEN_KEY] as UpstreamTokens | undefined;
	if (!upstream || typeof upstream !== 'object' || upstream.error || !upstream.refresh_token) return token;
	const provider = ctx.config.providerById.get(upstream.provider);
	const settings = refreshSettings(provider);
	if (!settings || !isDue(upstream.expires_at, ctx.now, settings.skewSeconds)) return token;
	return refreshToken(ctx, token, provider as OAuthConfig, upstream, upstream.refresh_token);
}

/** The token with its upstream tokens refreshed now, or marked refused. */
async function refreshToken(ctx: RequestContext, token: JWT, provider: OAuthConfig, upstream: UpstreamTokens, refreshToken: string): Promise<JWT> {
	const result = await refreshOnce(ctx, provider, refreshToken);
	if (result.ok) return { ...token, [UPSTREAM_TOKEN_KEY]: withoutUndefined({ ...upstream, ...freshFields(result.tokens, upstream) }) };
	if (result.refused) return { ...token, [UPSTREAM_TOKEN_KEY]: { ...upstream, error: REFRESH_TOKEN_ERROR } };
	return token;
}

/**
 * Database strategy, at sign-in: remembers which account's tokens to keep fresh, in a cookie
 * beside the session cookie (database sessions know only their user). Called by `completeSignIn`.
 *
 * @example
 * await rememberUpstreamAccount(ctx, provider, account);
 */
export async function rememberUpstreamAccount(ctx: RequestContext, provider: Provider, account: Account): Promise<void> {
	const option = upstreamCookie(ctx);
	if (ctx.config.session.strategy !== 'database' || !account.refresh_token || !refreshSettings(provider)) {
		if (ctx.cookies[option.name] !== undefined) ctx.setCookies.push(expiredCookie(option.name, option.options));
		return;
	}
	await writeUpstreamCookie(ctx, { provider: account.provider, providerAccountId: account.providerAccountId, expires_at: account.expires_at });
}

/**
 * The `session.error` of this read, if any. JWT strategy: the mark left by `refreshUpstreamTokens`.
 * Database strategy: refreshes the remembered account (through `getAccount`/`updateAccount`)
 * when due. Called by `getSession`.
 *
 * @example
 * const error = await upstreamSessionError(ctx, { token }); // "RefreshTokenError" | undefined
 */
export async function upstreamSessionError(
	ctx: RequestContext,
	stored: { token: JWT } | { user: AdapterUser }
): Promise<string | undefined> {
	if ('token' in stored) return upstreamTokenError(stored.token);
	return refreshStoredAccount(ctx, stored.user);
}

/**
 * JWT strategy: the error of the upstream tokens the session `token` carries (`RefreshTokenError`
 * after a refused refresh), read from the token alone. Pure.
 *
 * @example
 * if (upstreamTokenError(token)) session.error = upstreamTokenError(token);
 */
export function upstreamTokenError(token: JWT): string | undefined {
	const upstream = token[UPSTREAM_TOKEN_KEY] as UpstreamTokens | undefined;
	return typeof upstream?.error === 'string' ? upstream.error : undefined;
}

async function refreshStoredAccount(ctx: RequestContext, user: AdapterUser): Promise<string | undefined> {
	const option = upstreamCookie(ctx);
	const raw = ctx.cookies[option.name];
	if (!raw) return undefined;
	const ref = await decodeJwt({ token: raw, secret: ctx.config.secrets, salt: option.name, now: ctx.now });
	if (!ref || typeof ref.provider !== 'string' || typeof ref.providerAccountId !== 'string') return undefined;
	if (typeof ref.error === 'string') return ref.error;
	const provider = ctx.config.providerById.get(ref.provider);
	const settings = refreshSettings(provider);
	const adapter = ctx.config.adapter;
	// the cookie's copy of expires_at spares a database read on every request
	const cookieExpiry = typeof ref.expires_at === 'number' ? ref.expires_at : undefined;
	if (!settings || !adapter || !isDue(cookieExpiry, ctx.now, settings.skewSeconds) || !canUpdateAccounts(ctx, adapter)) return undefined;

	const reference = { provider: ref.provider, providerAccountId: ref.providerAccountId };
	const account = await adapter.getAccount(ref.providerAccountId, ref.provider);
	// the cookie only points at an account; it counts only for the account's own user
	if (!account || account.userId !== user.id || !account.refresh_token) return undefined;
	if (!isDue(account.expires_at, ctx.now, settings.skewSeconds)) {
		// refreshed meanwhile (another device or process): just catch up
		await writeUpstreamCookie(ctx, { ...reference, expires_at: account.expires_at });
		return undefined;
	}

	const result = await refreshOnce(ctx, provider as OAuthConfig, account.refresh_token, async (tokens) => {
		await adapter.updateAccount({ ...reference, ...freshFields(tokens, account) });
	});
	if (result.ok) {
		await writeUpstreamCookie(ctx, { ...reference, expires_at: result.tokens.expires_at });
		return undefined;
	}
	if (result.refused) {
		await writeUpstreamCookie(ctx, { ...reference, error: REFRESH_TOKEN_ERROR });
		return REFRESH_TOKEN_ERROR;
	}
	return isDue(account.expires_at, ctx.now, 0) ? REFRESH_TOKEN_ERROR : undefined;
}

/**
 * Spends `refreshToken` at most once per process: concurrent (and, for a short while, later)
 * requests carrying the same refresh token share one refresh and its result. `persist` runs once.
 */
function refreshOnce(
	ctx: RequestContext,
	provider: OAuthConfig,
	refreshToken: string,
	persist?: (tokens: TokenSet) => Promise<void>
): Promise<RefreshResult> {
	const key = `${provider.id}\u0000${base64url(digest('sha256', refreshToken))}`;
	const running = refreshes.get(key);
	if (running) return running;
	const promise = refreshRequest().then(
		({ refreshNow }) => refreshNow(ctx, provider, refreshToken, persist),
		// a module that cannot be loaded (EMFILE, a redeploy under a running process) fails this refresh only
		(error: unknown): RefreshResult => {
			ctx.config.logger.error(new OAuthCallbackError('The token refresh code could not be loaded.', { cause: { err: error } }));
			return { ok: false, refused: false };
		}
	);
	refreshes.set(key, promise);
	void promise.then((result) => {
		// a failed attempt may be retried at once; a finished one is reused by requests still in flight
		if (!result.ok && !result.refused) refreshes.delete(key);
		else setTimeout(() => refreshes.delete(key), REUSE_MS).unref?.();
	});
	return promise;
}


/** Token fields after a refresh: new values, keeping the old refresh token when it did not rotate. */
function freshFields(tokens: TokenSet, previous: { refresh_token?: string; scope?: string; id_token?: string }): TokenSet {
	return withoutUndefined({
		access_token: tokens.access_token,
		expires_at: tokens.expires_at,
		token_type: tokens.token_type,
		refresh_token: tokens.refresh_token ?? previous.refresh_token,
		scope: tokens.scope ?? previous.scope,
		...(previous.id_token !== undefined || tokens.id_token !== undefined ? { id_token: tokens.id_token ?? previous.id_token } : {})
	});
}

/** The refresh settings of a provider, or undefined when it does not refresh. */
function refreshSettings(provider: Provider | undefined): { skewSeconds: number } | undefined {
	if (!provider || (provider.type !== 'oauth' && provider.type !== 'oidc')) return undefined;
	const { refresh } = provider as OAuthConfig;
	if (refresh === true) return { skewSeconds: DEFAULT_SKEW_SECONDS };
	if (refresh && typeof refresh === 'object') return { skewSeconds: refresh.skewSeconds ?? DEFAULT_SKEW_SECONDS };
	return undefined;
}

/**
 * True when tokens expiring at `expiresAt` (seconds) should be refreshed now (pure).
 *
 * @example
 * isDue(account.expires_at, Date.now(), 60);
 */
export function isDue(expiresAt: number | undefined, nowMs: number, skewSeconds: number): boolean {
	return typeof expiresAt === 'number' && nowMs / 1000 >= expiresAt - skewSeconds;
}

let missingUpdateWarned = false;

function canUpdateAccounts(ctx: RequestContext, adapter: GuardedAdapter): boolean {
	try {
		assertAdapterMethods(adapter, ['updateAccount']);
		return true;
	} catch {
		if (!missingUpdateWarned) {
			missingUpdateWarned = true;
			ctx.config.logger.warn(
				'refresh-needs-update-account',
				'A provider has `refresh` on, but the adapter has no `updateAccount` method to store refreshed tokens; tokens are not refreshed.'
			);
		}
		return false;
	}
}

/** The cookie naming the account to keep fresh (database strategy); it lives as long as the session. */
function upstreamCookie(ctx: RequestContext) {
	const session = ctx.cookieNames.sessionToken;
	return { name: `${session.name}-upstream`, options: { ...session.options, maxAge: ctx.config.session.maxAge } };
}

async function writeUpstreamCookie(
	ctx: RequestContext,
	value: { provider: string; providerAccountId: string; expires_at?: number; error?: string }
): Promise<void> {
	const option = upstreamCookie(ctx);
	const sealed = await encodeJwt({
		token: withoutUndefined(value),
		secret: ctx.config.secrets,
		salt: option.name,
		maxAge: ctx.config.session.maxAge,
		now: ctx.now
	});
	ctx.setCookies.push({ name: option.name, value: sealed, options: option.options });
}

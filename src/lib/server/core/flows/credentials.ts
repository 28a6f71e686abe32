// Credentials sign-in: `authorize()` checks the submitted fields; success starts a session
// (JWT, or a database session row for the returned user), failure redirects with a code. Failed
// attempts are rate-limited and take at least `minFailureMs`.

import { isUniqueViolation } from '../../adapters/errors.js';
import { assertAdapterMethods } from '../adapter-guard.js';
import type { RequestContext } from '../context.js';
import { readableRequest, type RequestBody } from '../body.js';
import { resolveCallbackUrl, requestedCallbackUrl } from '../callback-url.js';
import { CallbackRouteError, CredentialsSignin, AuthError } from '../errors.js';
import { emitEvent } from '../events.js';
import { errorRedirect, type Outcome } from '../outcome.js';
import { normalizeIdentifier, rateLimitedOutcome, takeAttempt } from '../rate-limit.js';
import { establishSession } from '../session.js';
import { checkSignInAllowed } from '../sign-in-callback.js';
import type { Account, AdapterUser, CredentialsConfig, User } from '../types.js';

/** Fields kitgate adds to forms; they are not passed to `authorize()`. */
const RESERVED_FIELDS = new Set(['csrfToken', 'callbackUrl', 'redirectTo', 'redirect', 'providerId']);

/** A refused sign-in: logged, and back to the sign-in page keeping where the user was going. */
function refused(ctx: RequestContext, error: CredentialsSignin, callbackUrl: string): Outcome {
	ctx.config.logger.error(error);
	return errorRedirect(ctx, error, callbackUrl);
}

/** Handles a credentials form POST; CSRF has been checked by the caller. */
export async function credentialsSignIn(
	ctx: RequestContext,
	provider: CredentialsConfig,
	body: RequestBody
): Promise<Outcome> {
	const callbackUrl = await resolveCallbackUrl(ctx, requestedCallbackUrl(ctx, body));
	const credentials = Object.fromEntries(Object.entries(body).filter(([key]) => !RESERVED_FIELDS.has(key)));

	const attempt = await takeAttempt(ctx, 'credentials', attemptIdentifier(ctx, provider, credentials));
	if (attempt.limited) return rateLimitedOutcome(ctx, attempt.retryAfter, callbackUrl);
	const started = performance.now();
	let authorized: User | null;
	try {
		authorized = await provider.authorize(credentials, readableRequest(ctx.request));
	} catch (error) {
		if (error instanceof CredentialsSignin) {
			await failureFloor(provider, started);
			return refused(ctx, error, callbackUrl);
		}
		// the app failed, not the user: this attempt does not count
		await attempt.discarded();
		throw new CallbackRouteError(`authorize() of provider "${provider.id}" threw.`, { cause: { err: error } });
	}
	if (!authorized || typeof authorized !== 'object') {
		await failureFloor(provider, started);
		return refused(ctx, new CredentialsSignin(), callbackUrl);
	}
	await attempt.succeeded();

	const user: User = { ...authorized, id: authorized.id === undefined ? crypto.randomUUID() : String(authorized.id) };
	const account: Account = { providerAccountId: user.id as string, type: 'credentials', provider: provider.id };
	const redirect = await checkSignInAllowed(ctx, { user, account, credentials });
	if (redirect) return { type: 'redirect', url: redirect.redirect };

	if (ctx.config.session.strategy === 'database') {
		// every method the flow may call, checked before the first write
		assertAdapterMethods(ctx.config.adapter!, ['getUser', 'createUser', 'createSession', 'deleteSession']);
	}
	const sessionUser = ctx.config.session.strategy === 'database' ? await ensureStoredUser(ctx, user) : user;
	await establishSession(ctx, { user: sessionUser, account });
	await emitEvent(ctx, 'signIn', { user: authorized, account });
	return { type: 'redirect', url: callbackUrl };
}

/** Shortest answer time of a failed attempt when the provider sets none (ms). */
export const DEFAULT_MIN_FAILURE_MS = 300;

/**
 * Waits until `minFailureMs` (default 300) have passed since `started`: a refusal for an unknown
 * user, typically fast, then takes as long as a wrong password checked against a slow hash.
 */
async function failureFloor(provider: CredentialsConfig, started: number): Promise<void> {
	const floor = provider.minFailureMs ?? DEFAULT_MIN_FAILURE_MS;
	const remaining = floor - (performance.now() - started);
	if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
}

/**
 * The identifier an attempt counts against: `rateLimit.credentials.identifier`, else the `email`
 * or `username` field, else the first declared field that is not a password.
 */
function attemptIdentifier(ctx: RequestContext, provider: CredentialsConfig, credentials: Record<string, unknown>): string | undefined {
	const custom = ctx.config.rateLimit.credentials?.identifier;
	if (custom) return normalizeIdentifier(custom(credentials));
	const declared = Object.entries(provider.credentials ?? {}).find(([, input]) => input?.type !== 'password')?.[0];
	const field = ['email', 'username', declared].find((name) => name !== undefined && typeof credentials[name] === 'string');
	return field ? normalizeIdentifier(credentials[field]) : undefined;
}

/**
 * Database sessions need a stored user to own the session row: the user `authorize()` returned is
 * looked up by id and created when the adapter does not know it yet.
 */
async function ensureStoredUser(ctx: RequestContext, user: User): Promise<AdapterUser> {
	const adapter = ctx.config.adapter!;
	try {
		const existing = await adapter.getUser(user.id as string);
		if (existing) return existing;
		const created = await adapter.createUser({
			...user,
			id: user.id as string,
			email: user.email ?? '',
			emailVerified: null
		});
		await emitEvent(ctx, 'createUser', { user: created });
		return created;
	} catch (error) {
		if (error instanceof AuthError) throw error;
		// the same user's first sign-in on another server (or request) stored it first: use that row
		const winner = isUniqueViolation(error) ? await Promise.resolve(adapter.getUser(user.id as string)).catch(() => null) : null;
		if (winner) return winner;
		const hint = isUniqueViolation(error)
			? ' Its email belongs to another stored user: return that user (adapter.getUserByEmail) from authorize().'
			: '';
		throw new CallbackRouteError(`Could not store the user authorize() returned for a database session.${hint}`, {
			cause: { err: error }
		});
	}
}

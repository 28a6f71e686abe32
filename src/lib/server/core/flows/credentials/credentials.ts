// Credentials sign-in: `authorize()` checks the submitted fields; success starts a session
// (JWT, or a database session row for the stored user whose `credentials` account is the returned
// user: stored-user.ts), failure redirects with a code. Declared fields must each be one string
// (else 400); failed attempts are counted against the declared identifier field (rate limits) and
// take at least `minFailureMs`.

import { assertAdapterMethods, hasAdapterMethod } from '../../store/adapter-guard.js';
import type { RequestContext } from '../../request/context.js';
import { repeatedFields, type RequestBody } from '../../request/body.js';
import { resolveCallbackUrl, requestedCallbackUrl } from '../../response/callback-url.js';
import { CallbackRouteError, CredentialsSignin, InvalidRequest } from '../../errors.js';
import { emitEvent } from '../../config/events.js';
import { failureAnswer } from '../../response/failure-answer.js';
import type { Outcome } from '../../response/outcome.js';
import { rateLimitedOutcome, takeAttempt } from '../../limits/rate-limit.js';
import { identifierField, normalizeIdentifier } from '../../limits/rate-limit-rules.js';
import { establishSession } from '../../session/session.js';
import { refuseBannedUser } from '../../session/ban.js';
import { checkSignInAllowed } from '../sign-in-callback.js';
import type { Account, CredentialsConfig, User } from '../../types.js';
import { STORED_USER_METHODS, storeCredentialsUser } from './stored-user.js';
import { findCredentialsUser } from './credentials-user.js';
import { secondFactorGate } from '../../two-factor/second-factor.js';

/** Fields kitgate adds to forms; they are not passed to `authorize()`. */
const RESERVED_FIELDS = new Set(['csrfToken', 'callbackUrl', 'redirectTo', 'redirect', 'providerId']);

/** Providers whose missing identifier field was logged already (once per resolved config). */
const warnedUncounted = new WeakSet<CredentialsConfig>();

/** Says once per provider, at its first failure, that failures are not counted per identifier. */
function warnUncounted(ctx: RequestContext, provider: CredentialsConfig): void {
	if (!ctx.config.rateLimit.credentials?.perIdentifier || warnedUncounted.has(provider)) return;
	warnedUncounted.add(provider);
	ctx.config.logger.warn(
		'credentials-identifier',
		`Credentials provider "${provider.id}" declares no field that is not a password, so failed attempts are limited per client address only. ` +
			'Declare its fields (credentials: { username: {}, password: { type: "password" } }) or name the identifier field with rateLimit.credentials.identifier.'
	);
}

/** Handles a credentials form POST; CSRF has been checked by the caller. */
export async function credentialsSignIn(
	ctx: RequestContext,
	provider: CredentialsConfig,
	body: RequestBody
): Promise<Outcome> {
	const callbackUrl = await resolveCallbackUrl(ctx, requestedCallbackUrl(ctx, body));
	const credentials = withoutReservedFields(body);

	// the fields are checked before anything counts or runs: what is counted is what authorize reads
	const fieldNames = credentialFieldNames(ctx, provider);
	const checked = checkedIdentifier(ctx, provider, credentials, fieldNames, repeatedFields(body, fieldNames));
	if ('problem' in checked) return malformedCredentials(ctx, checked.problem, callbackUrl);
	const { identifier } = checked;
	const refused = (error: CredentialsSignin) => {
		if (identifier === undefined) warnUncounted(ctx, provider);
		return failureAnswer(ctx, error, { callbackUrl });
	};

	const attempt = await takeAttempt(ctx, 'credentials', identifier);
	if (attempt.limited) return rateLimitedOutcome(ctx, attempt, callbackUrl);
	const started = performance.now();
	let authorized: User | null;
	try {
		// a function that names the request gets a real one; one that does not, a stand-in built if it ever reads it
		authorized = await provider.authorize(credentials, provider.authorize.length >= 2 ? ctx.readableRequest() : ctx.readableRequestOnDemand());
	} catch (error) {
		await failureFloor(provider, started);
		if (error instanceof CredentialsSignin) return refused(error);
		// counted all the same: many apps throw a plain Error for a wrong password, and an
		// uncounted failure would be an unlimited guess (an outage can lock an account for a window)
		throw new CallbackRouteError(`authorize() of provider "${provider.id}" threw.`, { cause: { err: error } });
	}
	if (!authorized || typeof authorized !== 'object') {
		await failureFloor(provider, started);
		return refused(new CredentialsSignin());
	}
	await attempt.succeeded();

	const user: User = { ...authorized, id: authorized.id === undefined ? crypto.randomUUID() : String(authorized.id) };
	const account: Account = { providerAccountId: user.id as string, type: 'credentials', provider: provider.id };
	const redirect = await checkSignInAllowed(ctx, { user, account, credentials });
	if (redirect) return { type: 'redirect', url: redirect.redirect };

	if (ctx.config.session.strategy === 'database') {
		// every method the flow may call, checked before the first write
		assertAdapterMethods(ctx.config.adapter!, [...STORED_USER_METHODS, 'createSession', 'deleteSession']);
	}
	// database sessions: the stored user whose `credentials` account is authorize()'s id (stored-user.ts);
	// JWT sessions keep authorize()'s id as `sub`, recorded as such in the token (session-subject.ts)
	const sessionUser = ctx.config.session.strategy === 'database' ? await storeCredentialsUser(ctx, provider, user) : user;
	// a stored user with a second factor gets no session yet: the second step (two-factor/second-factor.ts)
	const storedId = await storedUserId(ctx, provider, sessionUser);
	if (storedId !== undefined) {
		await refuseBannedUser(ctx, storedId);
		const gated = await secondFactorGate(ctx, { userId: storedId, user: sessionUser, account, callbackUrl });
		if (gated) return gated;
	}
	await establishSession(ctx, { user: sessionUser, account, storedUserId: storedId });
	await emitEvent(ctx, 'signIn', { user: authorized, account });
	return { type: 'redirect', url: callbackUrl };
}

/**
 * The stored user a credentials sign-in is (database sessions: the one stored for it; JWT sessions:
 * the one the credentials mapping finds, flows/credentials/credentials-user.ts), when the adapter
 * stores second factors or JWT sessions are listed; undefined otherwise.
 */
async function storedUserId(ctx: RequestContext, provider: CredentialsConfig, sessionUser: User): Promise<string | undefined> {
	const adapter = ctx.config.adapter;
	// needed for the second step, or to list the JWT session under its stored user (jwt-sessions.ts)
	if (!adapter || (!hasAdapterMethod(adapter, 'getTwoFactor') && !ctx.config.account.listJwtSessions)) return undefined;
	if (ctx.config.session.strategy === 'database') return sessionUser.id;
	const found = await findCredentialsUser(adapter, provider.id, { id: sessionUser.id as string, email: sessionUser.email });
	return found.kind === 'none' ? undefined : found.user.id;
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

/** The body's fields but kitgate's own: what `authorize()` gets. */
function withoutReservedFields(body: RequestBody): Record<string, unknown> {
	const credentials: Record<string, unknown> = {};
	for (const key of Object.keys(body)) {
		if (RESERVED_FIELDS.has(key)) continue;
		// a field named __proto__ is a field like any other (defined, not assigned)
		if (key === '__proto__') Object.defineProperty(credentials, key, { value: body[key], enumerable: true, writable: true, configurable: true });
		else credentials[key] = body[key];
	}
	return credentials;
}

/** The checked field names of each provider, by the identifier option they were worked out under. */
const fieldNamesOf = new WeakMap<CredentialsConfig, { option: unknown; names: readonly string[] }>();

/** The fields checked before `authorize` runs: the declared ones and the identifier field. */
function credentialFieldNames(ctx: RequestContext, provider: CredentialsConfig): readonly string[] {
	const option = ctx.config.rateLimit.credentials?.identifier;
	const known = fieldNamesOf.get(provider);
	if (known && known.option === option) return known.names;
	const declared = Object.keys(provider.credentials ?? {});
	const field = typeof option === 'function' ? undefined : identifierField(provider.credentials ?? {}, option);
	const names = Object.freeze(field === undefined || declared.includes(field) ? declared : [...declared, field]);
	fieldNamesOf.set(provider, { option, names });
	return names;
}

/**
 * The identifier an attempt is counted against, normalised, or why the fields cannot be checked.
 * The field is `rateLimit.credentials.identifier` (a name or a function), else the provider's
 * declared identifier field; a blank value names no account, and such attempts share one counter.
 * Undefined when the provider declares no identifier field (only the address is counted then).
 * `repeated` holds the checked fields the form sent more than once.
 */
function checkedIdentifier(
	ctx: RequestContext,
	provider: CredentialsConfig,
	credentials: Record<string, unknown>,
	fieldNames: readonly string[],
	repeated: ReadonlySet<string>
): { identifier: string | undefined } | { problem: string } {
	const option = ctx.config.rateLimit.credentials?.identifier;
	const field = typeof option === 'function' ? undefined : identifierField(provider.credentials ?? {}, option);
	const problem = credentialFieldsProblem(credentials, fieldNames, field, repeated);
	if (problem) return { problem };
	if (typeof option === 'function') {
		const custom = option(credentials);
		if (typeof custom !== 'string') return { problem: 'rateLimit.credentials.identifier found no identifier in the submitted fields.' };
		return { identifier: normalizeIdentifier(custom) ?? '' };
	}
	return { identifier: field === undefined ? undefined : (normalizeIdentifier(credentials[field]) ?? '') };
}

/**
 * Why submitted credentials cannot be checked, or undefined when they can: each of the `checked`
 * fields (the declared ones and the identifier field) that is present must be exactly one string,
 * and the `identifier` field must be present. `repeated` holds fields a form sent more than once.
 * The message names the field, never its value. Pure.
 *
 * @example
 * credentialFieldsProblem({ username: ['ada'] }, ['username'], 'username', new Set())
 * // 'The credentials field "username" must be one string; it was an array.'
 */
export function credentialFieldsProblem(
	credentials: Record<string, unknown>,
	checked: readonly string[],
	identifier: string | undefined,
	repeated: ReadonlySet<string>
): string | undefined {
	for (const name of checked) {
		if (repeated.has(name)) return `The credentials field "${name}" must be one string; it was sent more than once.`;
		if (!Object.hasOwn(credentials, name)) {
			if (name === identifier) return `The credentials field "${name}" (the identifier attempts are counted against) is missing.`;
			continue;
		}
		const value = credentials[name];
		if (typeof value !== 'string') {
			const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
			return `The credentials field "${name}" must be one string; it was ${kind}.`;
		}
	}
	return undefined;
}

/** The answer to credentials that cannot be checked: `InvalidRequest`, before anything is counted or `authorize` runs. */
function malformedCredentials(ctx: RequestContext, problem: string, callbackUrl: string): Outcome {
	return failureAnswer(ctx, new InvalidRequest(problem), { callbackUrl });
}

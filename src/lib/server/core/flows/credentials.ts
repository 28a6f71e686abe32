// Credentials sign-in: `authorize()` checks the submitted fields; success starts a session
// (JWT, or a database session row for the returned user), failure redirects with a code.

import { isUniqueViolation } from '../../adapters/errors.js';
import { assertAdapterMethods } from '../adapter-guard.js';
import type { RequestContext } from '../context.js';
import type { RequestBody } from '../body.js';
import { resolveCallbackUrl, requestedCallbackUrl } from '../callback-url.js';
import { CallbackRouteError, CredentialsSignin, AuthError } from '../errors.js';
import { emitEvent } from '../events.js';
import type { Outcome } from '../outcome.js';
import { establishSession } from '../session.js';
import { checkSignInAllowed } from '../sign-in-callback.js';
import type { Account, AdapterUser, CredentialsConfig, User } from '../types.js';

/** Fields kitgate adds to forms; they are not passed to `authorize()`. */
const RESERVED_FIELDS = new Set(['csrfToken', 'callbackUrl', 'redirectTo', 'redirect', 'providerId']);

/** Handles a credentials form POST; CSRF has been checked by the caller. */
export async function credentialsSignIn(
	ctx: RequestContext,
	provider: CredentialsConfig,
	body: RequestBody
): Promise<Outcome> {
	const callbackUrl = await resolveCallbackUrl(ctx, requestedCallbackUrl(ctx, body));
	const credentials = Object.fromEntries(Object.entries(body).filter(([key]) => !RESERVED_FIELDS.has(key)));

	let authorized: User | null;
	try {
		authorized = await provider.authorize(credentials, ctx.request);
	} catch (error) {
		if (error instanceof CredentialsSignin) throw error;
		throw new CallbackRouteError(`authorize() of provider "${provider.id}" threw.`, { cause: { err: error } });
	}
	if (!authorized || typeof authorized !== 'object') throw new CredentialsSignin();

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
		const hint = isUniqueViolation(error)
			? ' Its email belongs to another stored user: return that user (adapter.getUserByEmail) from authorize().'
			: '';
		throw new CallbackRouteError(`Could not store the user authorize() returned for a database session.${hint}`, {
			cause: { err: error }
		});
	}
}

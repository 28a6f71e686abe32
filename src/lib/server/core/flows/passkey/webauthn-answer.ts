// How the passkey routes answer: JSON always. Success is `{ url }` (the client navigates), a
// failure `{ error: <type> }` with a 4xx status, no session cookie and the challenge cleared.

import type { RequestContext } from '../../request/context.js';
import { AccessDenied, AuthError, CallbackRouteError } from '../../errors.js';
import { failureAnswer } from '../../response/failure-answer.js';
import { emitEvent } from '../../config/events.js';
import { pageUrl, type Outcome } from '../../response/outcome.js';
import { establishSession } from '../../session/session.js';
import type { Account, AdapterUser } from '../../types.js';

/**
 * Runs a passkey route; any error becomes a logged, JSON 4xx answer with no session.
 *
 * @example
 * return answerWebAuthn(ctx, () => verifyRegistration(ctx, provider, state, body));
 */
export async function answerWebAuthn(ctx: RequestContext, run: () => Promise<Outcome>): Promise<Outcome> {
	try {
		return await run();
	} catch (error) {
		return webAuthnFailure(ctx, error);
	}
}

/**
 * The JSON answer for a failed passkey request; the cause goes to the log.
 *
 * @example webAuthnFailure(ctx, new MissingCSRF()) // { type: 'json', status: 403, body: { error: 'MissingCSRF' } }
 */
export function webAuthnFailure(ctx: RequestContext, error: unknown): Outcome {
	const authError = error instanceof AuthError ? error : new CallbackRouteError('The passkey request failed.', { cause: { err: error } });
	const challenge = ctx.cookieNames.webauthnChallenge.name;
	// keep only a fresh CSRF token and the challenge's removal: never a session on failure
	return failureAnswer(ctx, authError, { json: true, keep: (c) => c.name === challenge && c.value === '' });
}

/** What a verified ceremony hands over to start the session. */
export interface PasskeySignIn {
	user: AdapterUser;
	account: Account;
	isNewUser: boolean;
	callbackUrl: string;
}

/**
 * Starts the session of a verified passkey user, fires `signIn`, and answers `{ url }`.
 *
 * @example
 * return finishPasskeySignIn(ctx, { user, account, isNewUser: false, callbackUrl });
 */
export async function finishPasskeySignIn(ctx: RequestContext, signIn: PasskeySignIn): Promise<Outcome> {
	const { user, account, isNewUser, callbackUrl } = signIn;
	const started = await establishSession(ctx, { user, account, isNewUser });
	if (!started) throw new AccessDenied('The jwt callback returned null: no session was started.');
	await emitEvent(ctx, 'signIn', { user, account, isNewUser });
	const newUserPage = isNewUser && ctx.config.pages.newUser;
	return { type: 'json', body: { url: newUserPage ? pageUrl(ctx, 'newUser', { callbackUrl }) : callbackUrl } };
}

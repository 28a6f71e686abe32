// Turns failures of OAuth protocol steps (oauth4webapi errors, network errors) into kitgate
// errors whose message says which step failed and why, and whose logged cause carries no token.

import * as oauth from 'oauth4webapi';
import { AuthError, OAuthCallbackError, OAuthSignin } from '../../errors.js';
import { IdpUnreachableError } from './oauth-http.js';

/**
 * The kitgate error for a failed step: `OAuthSignin` while starting, `OAuthCallbackError` on the
 * callback. Kitgate errors pass through unchanged.
 *
 * @example
 * catch (error) { throw oauthStepError('callback', 'github', 'the token request', error); }
 */
export function oauthStepError(phase: 'signin' | 'callback', providerId: string, step: string, error: unknown): AuthError {
	if (error instanceof AuthError) return error;
	const ErrorClass = phase === 'signin' ? OAuthSignin : OAuthCallbackError;
	return new ErrorClass(`Provider "${providerId}": ${step} failed: ${describeOAuthError(error)}`, { cause: { err: loggableError(error) } });
}

/**
 * One line on what went wrong, without token values (oauth4webapi messages never include them).
 *
 * @example
 * describeOAuthError(error); // 'the identity provider answered 400 "invalid_grant" (grant request is invalid)'
 */
export function describeOAuthError(error: unknown): string {
	if (error instanceof oauth.ResponseBodyError) {
		return `the identity provider answered ${error.status} "${error.error}"${error.error_description ? ` (${error.error_description})` : ''}`;
	}
	if (error instanceof oauth.AuthorizationResponseError) {
		return `the identity provider returned "${error.error}"${error.error_description ? ` (${error.error_description})` : ''}`;
	}
	if (error instanceof oauth.WWWAuthenticateChallengeError) {
		const [challenge] = error.cause;
		const reason = challenge?.parameters.error ? ` "${challenge.parameters.error}"` : '';
		const detail = challenge?.parameters.error_description ? ` (${challenge.parameters.error_description})` : '';
		return `the identity provider answered ${error.status} with a ${challenge?.scheme ?? ''} challenge${reason}${detail}`;
	}
	if (error instanceof Error) return error.message;
	return String(error);
}

/**
 * A copy of `error` fit for logs: name, message, code and stack, but not the response body or
 * claims oauth4webapi attaches as `cause` (they can hold tokens). Network errors keep their cause.
 *
 * @example
 * new OAuthCallbackError('…', { cause: { err: loggableError(error) } });
 */
export function loggableError(error: unknown): unknown {
	if (!(error instanceof Error) || error instanceof IdpUnreachableError) return error;
	const copy = new Error(error.message);
	copy.name = error.name;
	copy.stack = error.stack;
	const code = (error as { code?: unknown }).code;
	if (code !== undefined) Object.assign(copy, { code });
	return copy;
}

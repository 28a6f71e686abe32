// How the engine answers a failure: the error is logged at its level, every cookie the failed
// request queued is dropped (a failure never starts a session), and the failure table says the
// status or the page. The one place a failure becomes an answer.

import type { RequestContext } from '../request/context.js';
import type { OutgoingCookie } from '../request/cookies.js';
import { AuthError, CredentialsSignin, failures, type ErrorType } from '../errors.js';
import { pageUrl, type Outcome } from './outcome.js';
import type { EngineLogger } from '../config/logger.js';

/** How a failure is answered besides its table row. */
export interface FailureOptions {
	/** More query parameters for the sign-in page (the address typed, to fill the form again). */
	params?: Record<string, string | undefined>;
	/** Answer JSON `{ error }` with the table's status (script routes: session, passkeys). */
	json?: boolean;
	/** Kept on the sign-in page's URL, so a retry lands where the user was going. */
	callbackUrl?: string;
	/** Queued cookies to keep besides the fresh CSRF token (for example removals of check cookies). */
	keep?: (cookie: OutgoingCookie) => boolean;
	/** Headers the failure's answer carries (`Retry-After` of a rate limit, `Allow` of a wrong method). */
	headers?: Record<string, string>;
}

/**
 * The kitgate error for anything thrown: an unexpected error becomes a `Configuration` error that
 * carries it as its cause (users see no detail of it).
 *
 * @example asAuthError(new TypeError('x')).type // 'Configuration'
 */
export function asAuthError(error: unknown): AuthError {
	return error instanceof AuthError ? error : new AuthError('Unexpected error', { cause: { err: error } });
}

/**
 * Logs a failure at the level its code has in the failure table.
 *
 * @example logFailure(ctx.config.logger, new MissingCSRF()) // logger.warn('MissingCSRF', 'CSRF token missing or invalid')
 */
export function logFailure(logger: EngineLogger, error: AuthError): void {
	const level = failures[error.type].log;
	if (level === 'error') return logger.error(error);
	// a credentials refusal's code is what the user saw; the message is the app's own
	const message = error instanceof CredentialsSignin ? `${error.message} (code "${error.code}")` : error.message;
	const cause = (error.cause as { err?: unknown } | undefined)?.err;
	if (cause === undefined) logger[level](error.type, message);
	else logger[level](error.type, message, cause);
}

/**
 * The answer to a failed request: logged, no cookie but a fresh CSRF token (and what `keep`
 * allows), then JSON with the table's status for script routes and script callers
 * (`X-Auth-Return-Redirect: 1` or a JSON body; they also get the page's `url`), or a redirect to
 * the page the table names.
 *
 * @example
 * } catch (error) {
 *   return failureAnswer(ctx, error, { callbackUrl });
 * }
 */
export function failureAnswer(ctx: RequestContext, error: unknown, options: FailureOptions = {}): Outcome {
	const authError = asAuthError(error);
	logFailure(ctx.config.logger, authError);
	const csrf = ctx.cookieNames.csrfToken.name;
	const kept = ctx.setCookies.filter((cookie) => cookie.name === csrf || options.keep?.(cookie));
	ctx.setCookies.splice(0, ctx.setCookies.length, ...kept);

	const type = authError.type;
	const { status } = failures[type];
	const failure = { type, code: authError instanceof CredentialsSignin ? authError.code : undefined };
	const { headers } = options;
	if (options.json) return { type: 'json', status, body: { error: type }, headers, failure };
	const url = failurePageUrl(ctx, authError, options.callbackUrl, options.params);
	if (isScriptCaller(ctx.headers)) return { type: 'json', status, body: { error: type, url }, headers, failure };
	return { type: 'redirect', url, failure };
}

/** A caller that reads the answer itself: it asked for JSON answers, or sent JSON (no HTML form can). */
function isScriptCaller(headers: RequestContext['headers']): boolean {
	if (headers.get('x-auth-return-redirect') === '1') return true;
	return (headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() === 'application/json';
}

/** The page a browser meets after `error`: the sign-in page with `?error=` (and `code`), or the error page. */
function failurePageUrl(ctx: RequestContext, error: AuthError, callbackUrl?: string, params?: Record<string, string | undefined>): string {
	const type: ErrorType = error.type;
	if (failures[type].page !== 'signIn') return pageUrl(ctx, 'error', { error: type });
	const code = error instanceof CredentialsSignin ? error.code : undefined;
	return pageUrl(ctx, 'signIn', { ...params, error: type, code, callbackUrl });
}

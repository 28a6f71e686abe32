// Reads the session of any request without going through the routes: what `getSession(req)`
// (Express) and `locals.auth()` (SvelteKit) call. Cookies to refresh come back as Set-Cookie lines.

import { resolveConfig } from './config/resolve-config.js';
import { createSessionContext, type RequestContext, type RequestOptions, type SessionRequest } from './request/context.js';
import { serializeCookie, type OutgoingCookie } from './request/cookies.js';
import { AuthError, failures, type ErrorType } from './errors.js';
import { asAuthError, logFailure } from './response/failure-answer.js';
import { getSession } from './session/session.js';
import type { AuthConfig, Session } from './types.js';

/** A session read, with the Set-Cookie header values to send back (extension or clean-up). */
export interface SessionCheck {
	session: Session | null;
	setCookies: string[];
	/** The same cookies as objects, for integrations that set cookies through their framework. */
	cookies: OutgoingCookie[];
	/** Set when the session could not be read (e.g. the adapter failed); the session is then null. */
	error?: { type: ErrorType; status: number };
}

/**
 * The JSON answer of `GET {basePath}/session` for a session check: what the route answers, for
 * integrations that serve this hot route without building a Web Request and Response.
 */
export function sessionRouteAnswer(check: SessionCheck): { status: number; body: string } {
	const { status, body } = sessionAnswer(check);
	return { status, body: JSON.stringify(body) };
}

/** The session route's answer as a value: the session (or null), or the failure's `{ error }` and status. */
export function sessionAnswer(check: SessionCheck): { status: number; body: Session | null | { error: ErrorType } } {
	if (check.error) return { status: check.error.status, body: { error: check.error.type } };
	return { status: 200, body: check.session };
}

/**
 * The session of `request`, or null. With `update`, runs the callbacks with `trigger: "update"`.
 * A broken cookie is "no session"; only configuration errors throw.
 *
 * @example
 * const { session, setCookies } = await checkSession(request, config);
 */
export function checkSession(
	request: Request | SessionRequest,
	config: AuthConfig,
	options: RequestOptions & { update?: { data: unknown } } = {}
): Promise<SessionCheck> {
	// not async: readSession's promise is handed on as it is, one promise and its ticks fewer per read
	try {
		return readSession(createSessionContext(request, resolveConfig(config), options), options.update);
	} catch (error) {
		// a bad configuration still rejects, as from an async function
		return Promise.reject(error);
	}
}

/**
 * The one session read: what `GET {basePath}/session`, `POST {basePath}/session`, Express's
 * `getSession` and SvelteKit's `locals.auth()` all call. A failure is logged and answered by the
 * failure table (no session, the code and its status), never thrown.
 *
 * @example const check = await readSession(ctx);
 */
export async function readSession(ctx: RequestContext, update?: { data: unknown }): Promise<SessionCheck> {
	try {
		const session = await getSession(ctx, update);
		return { session, setCookies: ctx.setCookies.map(serializeCookie), cookies: ctx.setCookies };
	} catch (error) {
		// e.g. an invalid Host header met while a callback asked for the origin: no session to read
		if (error instanceof AuthError && error.type === 'InvalidRequest') return { session: null, setCookies: [], cookies: [] };
		const failure = asAuthError(error);
		logFailure(ctx.config.logger, failure);
		// a failed read sets nothing
		ctx.setCookies.splice(0, ctx.setCookies.length);
		return { session: null, setCookies: [], cookies: [], error: { type: failure.type, status: failures[failure.type].status } };
	}
}

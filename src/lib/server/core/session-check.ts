// Reads the session of any request without going through the routes: what `getSession(req)`
// (Express) and `locals.auth()` (SvelteKit) call. Cookies to refresh come back as Set-Cookie lines.

import { resolveConfig } from './config.js';
import { createSessionContext, type RequestOptions, type SessionRequest } from './context.js';
import { serializeCookie, type OutgoingCookie } from './cookies.js';
import { AuthError, failures, type ErrorType } from './errors.js';
import { asAuthError, logFailure } from './failure-answer.js';
import { getSession } from './session.js';
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
	if (check.error) return { status: check.error.status, body: JSON.stringify({ error: check.error.type }) };
	return { status: 200, body: JSON.stringify(check.session) };
}

/**
 * The session of `request`, or null. With `update`, runs the callbacks with `trigger: "update"`.
 * A broken cookie is "no session"; only configuration errors throw.
 *
 * @example
 * const { session, setCookies } = await checkSession(request, config);
 */
export async function checkSession(
	request: Request | SessionRequest,
	config: AuthConfig,
	options: RequestOptions & { update?: { data: unknown } } = {}
): Promise<SessionCheck> {
	const resolved = resolveConfig(config);
	const ctx = createSessionContext(request, resolved, options);
	try {
		const session = await getSession(ctx, options.update);
		return { session, setCookies: ctx.setCookies.map(serializeCookie), cookies: ctx.setCookies };
	} catch (error) {
		// e.g. an invalid Host header met while a callback asked for the origin
		if (error instanceof AuthError && error.type === 'InvalidRequest') return { session: null, setCookies: [], cookies: [] };
		const failure = asAuthError(error);
		logFailure(resolved.logger, failure);
		return { session: null, setCookies: [], cookies: [], error: { type: failure.type, status: failures[failure.type].status } };
	}
}

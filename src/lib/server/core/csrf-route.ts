// GET {basePath}/csrf answered from a light context, as the session route is (session-check.ts):
// a client fetches a token before each sign-in, so integrations serve it without routing.

import { resolveConfig } from './config/resolve-config.js';
import { createSessionContext, requestCsrf, type RequestOptions, type SessionRequest } from './request/context.js';
import { serializeCookie } from './request/cookies.js';
import type { AuthConfig } from './types.js';

/** The answer of `GET {basePath}/csrf`: JSON `{ csrfToken }` and the CSRF cookie when a new token was made. */
export interface CsrfRouteAnswer {
	status: number;
	body: string;
	/** Set-Cookie header values. */
	setCookies: string[];
}

/**
 * What `GET {basePath}/csrf` answers, read without parsing the URL or building a Web Request (the
 * route reads only the cookies and the scheme). The same token and cookie as the routed action.
 *
 * @example
 * const { status, body, setCookies } = csrfRouteAnswer({ url: request.url, headers: request.headers }, config);
 */
export function csrfRouteAnswer(request: SessionRequest, config: AuthConfig, options: RequestOptions = {}): CsrfRouteAnswer {
	const ctx = createSessionContext(request, resolveConfig(config), options);
	const { token } = requestCsrf(ctx);
	return { status: 200, body: JSON.stringify({ csrfToken: token }), setCookies: ctx.setCookies.map(serializeCookie) };
}

// What every organization route shares (docs/organizations.md, "Routes"): the CSRF check of a
// change, the signed-in user behind it, and how a change answers — a redirect to `returnTo` with
// `?organization=<result>` or `?organizationError=<code>` for a form, `{ result, url }` or
// `{ error }` for a script.

import type { RequestBody } from '../request/body.js';
import { requestCsrf, type RequestContext } from '../request/context.js';
import { isCsrfValid, isSameOriginPost } from '../request/csrf.js';
import { InvalidRequest, MissingCSRF, SessionRequired } from '../errors.js';
import { asAuthError, failureAnswer } from '../response/failure-answer.js';
import type { Outcome } from '../response/outcome.js';
import { prefersAccountPage } from '../account/account-page.js';
import { readAccountSession } from '../account/account-session.js';
import type { AdapterUser } from '../types.js';
import type { OrganizationResult } from '../organization-types.js';

/**
 * The CSRF check of a change: the body's `csrfToken` must match its cookie. A framework origin
 * check or `skipCSRFCheck` stands in only for a post that shows it is same-origin.
 */
export function assertOrganizationCsrf(ctx: RequestContext, body: RequestBody): void {
	if (isCsrfValid(requestCsrf(ctx), body.csrfToken)) return;
	if ((ctx.config.skipCSRFCheck || ctx.csrfChecked) && isSameOriginPost(ctx.request.headers, ctx.origin)) return;
	throw new MissingCSRF('The CSRF token is missing or does not match its cookie. Fetch one from /csrf (or GET /organizations) first.');
}

/**
 * The signed-in user of the request (read as the account routes read it), `SessionRequired`
 * without one.
 *
 * @example
 * const user = await requireOrganizationUser(ctx);
 */
export async function requireOrganizationUser(ctx: RequestContext): Promise<AdapterUser> {
	const session = await readAccountSession(ctx);
	if (!session) throw new SessionRequired('The organization routes need a signed-in user.');
	return session.user;
}

/** A caller that reads the answer itself: it asked for JSON answers, or sent JSON (no HTML form can). */
export function isScriptCaller(request: Request): boolean {
	if (request.headers.get('x-auth-return-redirect') === '1') return true;
	return (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() === 'application/json';
}

/** A change that went through: back to `returnTo` with `?organization=<result>`, or `{ result, url }` to a script. */
export function organizationSuccess(ctx: RequestContext, result: OrganizationResult, returnTo: string, extra: Record<string, string> = {}): Outcome {
	const url = withOrganizationParam(returnTo, 'organization', result);
	if (isScriptCaller(ctx.request)) return { type: 'json', body: { result, url, ...extra } };
	return { type: 'redirect', url };
}

/**
 * A failed change or page. Without a session a browser signs in and comes back to `signInReturn`;
 * before `returnTo` is known, or for a script, the failure's own answer; after, back to `returnTo`
 * with `?organizationError=<code>`.
 */
export function organizationFailure(ctx: RequestContext, error: unknown, returnTo: string | undefined, signInReturn = `${ctx.authUrl}/organizations`): Outcome {
	const failure = asAuthError(error);
	const script = isScriptCaller(ctx.request);
	const browser = !script && prefersAccountPage(ctx.request.headers);
	if (failure.type === 'SessionRequired') return failureAnswer(ctx, failure, browser ? { callbackUrl: signInReturn } : { json: true });
	if (script || returnTo === undefined) return failureAnswer(ctx, failure, { json: !browser });
	const outcome = failureAnswer(ctx, failure);
	return outcome.type === 'redirect' ? { ...outcome, url: withOrganizationParam(returnTo, 'organizationError', failure.type) } : outcome;
}

/** A JSON view, never cached by a shared cache under another user's cookie. */
export function organizationJson(body: unknown): Outcome {
	return { type: 'json', body, headers: { vary: 'Accept, Cookie' } };
}

/** The one value of a query parameter; `InvalidRequest` when it is repeated. */
export function singleQueryValue(query: URLSearchParams, name: string): string | undefined {
	const values = query.getAll(name);
	if (values.length > 1) throw new InvalidRequest(`\`${name}\` was given more than once.`);
	return values[0];
}

/** A result or error code of the query, kept only when it looks like one (`created`, `OrganizationForbidden`). */
export function noticeCode(value: string | null | undefined): string | null {
	return value && /^[A-Za-z][A-Za-z-]{0,63}$/.test(value) ? value : null;
}

function withOrganizationParam(url: string, name: 'organization' | 'organizationError', value: string): string {
	const target = new URL(url);
	target.searchParams.delete('organization');
	target.searchParams.delete('organizationError');
	target.searchParams.set(name, value);
	return target.href;
}

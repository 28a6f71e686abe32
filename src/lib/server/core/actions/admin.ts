// GET|POST {basePath}/admin[/:operation]: the admin routes (docs/admin.md, "Routes"). GET answers
// the user list or one user's detail (JSON, or the built-in admin pages to a browser); each change
// is a POST with `csrfToken`, as a form (answered with a redirect to `callbackUrl` carrying
// `?admin=<result>` or `?adminError=<code>`) or as JSON (`{ result, url }` or `{ error }`). Only
// an admin gets past the first check; nobody else learns anything about any user.

import { repeatedFields, stringField, type RequestBody } from '../request/body.js';
import { requestedCallbackUrl, resolveCallbackUrl } from '../response/callback-url.js';
import { requestCsrf, type RequestContext } from '../request/context.js';
import { isCsrfValid, isSameOriginPost } from '../request/csrf.js';
import { AdminRequired, InvalidRequest, MethodNotAllowed, MissingCSRF, UnknownAction, type AuthError } from '../errors.js';
import { asAuthError, failureAnswer } from '../response/failure-answer.js';
import type { Outcome } from '../response/outcome.js';
import { rateLimitedOutcome, takeAttempt } from '../limits/rate-limit.js';
import { prefersAccountPage } from '../account/account-page.js';
import type { AdapterUser } from '../types.js';
import * as operations from '../admin/admin-operations.js';
import type { AdminCall } from '../admin/admin-operations.js';
import { requireAdminSession } from '../admin/admin-session.js';
import { showAdminListPage, showAdminUserPage } from '../admin/admin-page.js';
import { startImpersonation, stopImpersonation } from '../admin/impersonation.js';
import type { AdminOperation, AdminResult } from '../admin-types.js';

/** The changes posted under `{basePath}/admin/`, by their path segment. */
const CHANGES = new Set<AdminOperation>([
	'create-user',
	'set-role',
	'ban',
	'unban',
	'end-session',
	'end-sessions',
	'reset-two-factor',
	'remove-passkey',
	'delete-user',
	'impersonate',
	'stop-impersonating'
]);

/** Fields a form may not repeat: kitgate and an app reading the request must see the same user. */
const SINGLE_FIELDS = ['userId', 'sessionId', 'credentialID', 'role', 'email', 'csrfToken', 'callbackUrl'];

/**
 * `GET {basePath}/admin` (the user list: `?q=` searches, `?page=` pages from 1) and
 * `GET {basePath}/admin/user?id=<userId>` (one user's detail), as JSON, or the built-in pages to
 * a browser. Anyone but an admin gets `AdminRequired` (a browser without a session is sent to sign
 * in), whatever they asked for.
 *
 * @example
 * // GET /auth/admin?q=ada → { "users": [ … ], "total": 1, "page": 1, "pageSize": 20, … }
 */
export async function showAdmin(ctx: RequestContext, operation: string | undefined, _body: RequestBody): Promise<Outcome> {
	const page = prefersAccountPage(ctx.request.headers);
	try {
		if (!ctx.config.admin) throw new UnknownAction('The admin routes are off (no `admin` in the config).');
		if (operation !== undefined && operation !== 'user') {
			if (CHANGES.has(operation as AdminOperation)) {
				return failureAnswer(ctx, new MethodNotAllowed(`GET ${ctx.url.pathname}: admin changes are POSTs.`), { json: !page, headers: { allow: 'POST' } });
			}
			throw new UnknownAction(`GET ${ctx.url.pathname}: no such admin page.`);
		}
		const admin = await requireAdminSession(ctx);
		const call: AdminCall = { ctx, actor: admin };
		const notice = { result: code(ctx.query.get('admin')), error: code(ctx.query.get('adminError')) };
		const shared = { csrfToken: requestCsrf(ctx).token, basePath: ctx.config.basePath, viewer: viewerOf(admin) };
		if (operation === undefined) {
			const list = { ...(await operations.listUsers(call, { search: single(ctx.query, 'q'), page: single(ctx.query, 'page') })), ...shared };
			return page ? showAdminListPage(ctx, list, notice) : json(list);
		}
		const id = single(ctx.query, 'id');
		const detail = { ...(await operations.getUser(call, id ?? '')), ...shared };
		return page ? showAdminUserPage(ctx, detail, notice) : json(detail);
	} catch (error) {
		const failure = asAuthError(error);
		// a browser without a session signs in and comes back here; a script gets what every non-admin gets
		if (failure.type === 'SessionRequired') return page ? failureAnswer(ctx, failure, { callbackUrl: ctx.url.href }) : failureAnswer(ctx, notAnAdmin(failure), { json: true });
		return failureAnswer(ctx, failure, { json: !page });
	}
}

/**
 * `POST {basePath}/admin/:operation`: one admin change. Checked in this order: the routes are on
 * and the operation exists, the CSRF token, an admin session (not an impersonated one), the rate
 * limit (`rateLimit.account`, per admin), then the operation's own checks (the user
 * exists, is neither an admin nor the admin themselves). `stop-impersonating` is posted by the
 * impersonated session itself, so it needs no admin.
 *
 * @example
 * // POST /auth/admin/ban  csrfToken=…&userId=user-1&reason=spam&days=7&callbackUrl=/auth/admin/user?id=user-1
 * // → 302 /auth/admin/user?id=user-1&admin=banned
 */
export async function changeAdmin(ctx: RequestContext, operation: string | undefined, body: RequestBody): Promise<Outcome> {
	let returnTo: string | undefined;
	let admin: AdapterUser | undefined;
	try {
		if (!ctx.config.admin) throw new UnknownAction('The admin routes are off (no `admin` in the config).');
		if (!operation || !CHANGES.has(operation as AdminOperation)) throw new UnknownAction(`POST ${ctx.url.pathname}: no such admin change.`);
		const op = operation as AdminOperation;
		assertAdminCsrf(ctx, body);
		if (repeatedFields(body, SINGLE_FIELDS).size > 0) throw new InvalidRequest('A field of the admin change was sent more than once.');
		if (op === 'stop-impersonating') {
			// back to `callbackUrl`, else to the user's page in the admin
			const stopped = await stopImpersonation(ctx, body);
			return success(ctx, 'impersonation-stopped', stopped.type === 'redirect' ? stopped.url : await resolveCallbackUrl(ctx, undefined));
		}
		admin = await requireAdminSession(ctx);
		// per admin only: users sharing the admin's address (a NAT) must not use up the admin's changes
		const attempt = await takeAttempt(ctx, 'account', `admin\u0000${admin.id}`, { byAddress: false });
		returnTo = await resolveCallbackUrl(ctx, requestedCallbackUrl(ctx, body) ?? defaultReturn(ctx, op, body));
		if (attempt.limited) return withError(rateLimitedOutcome(ctx, attempt, returnTo, { json: isScriptCaller(ctx.request) }), returnTo);
		return await carryOut({ ctx, actor: admin }, op, body, returnTo);
	} catch (error) {
		return adminFailure(ctx, error, admin === undefined ? undefined : returnTo);
	}
}

async function carryOut(call: AdminCall, op: AdminOperation, body: RequestBody, returnTo: string): Promise<Outcome> {
	const { ctx } = call;
	const userId = body.userId;
	switch (op) {
		case 'create-user': {
			const user = await operations.createUser(call, { email: body.email, name: body.name, role: body.role });
			// the new user's page, unless the form named where to go
			const to = requestedCallbackUrl(ctx, body) ? returnTo : detailUrl(ctx, user.id);
			return success(ctx, 'user-created', to, { userId: user.id });
		}
		case 'set-role':
			await operations.setRole(call, userId, body.role);
			return success(ctx, 'role-set', returnTo);
		case 'ban':
			await operations.ban(call, userId, { reason: body.reason, expires: body.expires, days: body.days });
			return success(ctx, 'banned', returnTo);
		case 'unban':
			await operations.unban(call, userId);
			return success(ctx, 'unbanned', returnTo);
		case 'end-session':
			await operations.endSession(call, userId, body.sessionId);
			return success(ctx, 'session-ended', returnTo);
		case 'end-sessions':
			await operations.endSessions(call, userId);
			return success(ctx, 'sessions-ended', returnTo);
		case 'reset-two-factor':
			await operations.resetTwoFactor(call, userId);
			return success(ctx, 'two-factor-reset', returnTo);
		case 'remove-passkey':
			await operations.removePasskey(call, userId, body.credentialID);
			return success(ctx, 'passkey-removed', returnTo);
		case 'delete-user':
			await operations.deleteUser(call, userId);
			return success(ctx, 'user-deleted', returnTo);
		case 'impersonate': {
			const target = await operations.impersonationTarget(call, userId);
			await startImpersonation(ctx, call.actor!, target);
			await operations.auditImpersonation(call, target.id);
			return success(ctx, 'impersonating', returnTo);
		}
		default:
			throw new UnknownAction(`No admin change "${op}".`);
	}
}

/** Where a change goes back to without `callbackUrl`: the user's page; the list after a deletion; the site when impersonating. */
function defaultReturn(ctx: RequestContext, op: AdminOperation, body: RequestBody): string {
	if (op === 'impersonate') return ctx.baseUrl;
	const userId = stringField(body, 'userId');
	if (op === 'delete-user' || op === 'create-user' || !userId) return `${ctx.authUrl}/admin`;
	return detailUrl(ctx, userId);
}

function detailUrl(ctx: RequestContext, userId: string): string {
	// not encodeURIComponent: it throws on a lone surrogate, which a JSON body can carry
	return `${ctx.authUrl}/admin/user?${new URLSearchParams({ id: userId })}`;
}

/**
 * The CSRF check of an admin change: the body's `csrfToken` must match its cookie. A framework
 * origin check or `skipCSRFCheck` stands in only for a post that shows it is same-origin.
 */
function assertAdminCsrf(ctx: RequestContext, body: RequestBody): void {
	if (isCsrfValid(requestCsrf(ctx), body.csrfToken)) return;
	if ((ctx.config.skipCSRFCheck || ctx.csrfChecked) && isSameOriginPost(ctx.request.headers, ctx.origin)) return;
	throw new MissingCSRF('The CSRF token is missing or does not match its cookie. Fetch one from /csrf (or GET /admin) first.');
}

/** A change that went through: back to `returnTo` with `?admin=<result>`, or `{ result, url }` to a script. */
function success(ctx: RequestContext, result: AdminResult, returnTo: string, extra: Record<string, string> = {}): Outcome {
	const url = withParam(returnTo, 'admin', result);
	if (isScriptCaller(ctx.request)) return { type: 'json', body: { result, url, ...extra } };
	return { type: 'redirect', url };
}

/** A rate-limited redirect turned into `?adminError=RateLimited` on the admin's page. */
function withError(outcome: Outcome, returnTo: string): Outcome {
	if (outcome.type !== 'redirect') return outcome;
	return { ...outcome, url: withParam(returnTo, 'adminError', 'RateLimited') };
}

/**
 * A failed change. Before the caller is known to be an admin (`returnTo` undefined): the failure's
 * own answer (a missing session signs in; anything else is the error page or `{ error }`). After:
 * back to `returnTo` with `?adminError=<code>` (forms) or `{ error }` with the table's status.
 */
function adminFailure(ctx: RequestContext, error: unknown, returnTo: string | undefined): Outcome {
	let failure = asAuthError(error);
	const script = isScriptCaller(ctx.request);
	const browser = !script && prefersAccountPage(ctx.request.headers);
	if (failure.type === 'SessionRequired') {
		if (browser) return failureAnswer(ctx, failure, { callbackUrl: `${ctx.authUrl}/admin` });
		failure = notAnAdmin(failure);
	}
	if (script || returnTo === undefined) return failureAnswer(ctx, failure, { json: !browser });
	const outcome = failureAnswer(ctx, failure);
	return outcome.type === 'redirect' ? { ...outcome, url: withParam(returnTo, 'adminError', failure.type) } : outcome;
}

/** What a caller without a session who cannot sign in here (a script) gets: the answer of every non-admin. */
function notAnAdmin(cause: AuthError): AuthError {
	return new AdminRequired('Only an admin may do this; the request has no session.', { cause });
}

/** A caller that reads the answer itself: it asked for JSON answers, or sent JSON (no HTML form can). */
function isScriptCaller(request: Request): boolean {
	if (request.headers.get('x-auth-return-redirect') === '1') return true;
	return (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() === 'application/json';
}

function json(body: unknown): Outcome {
	return { type: 'json', body, headers: { vary: 'Accept, Cookie' } };
}

/** The one value of a query parameter; `InvalidRequest` when it is repeated. */
function single(query: URLSearchParams, name: string): string | undefined {
	const values = query.getAll(name);
	if (values.length > 1) throw new InvalidRequest(`\`${name}\` was given more than once.`);
	return values[0];
}

/** A result or error code of the query, kept only when it looks like one. */
function code(value: string | null): string | null {
	return value && /^[A-Za-z][A-Za-z-]{0,63}$/.test(value) ? value : null;
}

function viewerOf(admin: AdapterUser): { id: string; name: string | null; email: string | null } {
	return { id: admin.id, name: admin.name ?? null, email: admin.email || null };
}

function withParam(url: string, name: string, value: string): string {
	const target = new URL(url);
	target.searchParams.delete('admin');
	target.searchParams.delete('adminError');
	target.searchParams.set(name, value);
	return target.href;
}

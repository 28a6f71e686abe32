// GET|POST {basePath}/account[/:operation]: the signed-in user's own account. GET answers the
// overview (JSON), or the account page to a browser; each change is a POST with `csrfToken`, as a
// form (answered with a redirect back to `callbackUrl` carrying `?account=<result>` or
// `?accountError=<code>`) or as JSON (answered `{ result, url }` or `{ error, url? }`). The
// two-factor steps that show a secret once answer a browser's form with the account page itself.
// docs/account.md describes every operation.

import { accountMethods, type AccountOperation } from '../config/account-options.js';
import { assertAdapterMethods } from '../store/adapter-guard.js';
import { stringField, type RequestBody } from '../request/body.js';
import { requestedCallbackUrl, resolveCallbackUrl } from '../response/callback-url.js';
import { requestCsrf, type RequestContext } from '../request/context.js';
import { isCsrfValid, isSameOriginPost } from '../request/csrf.js';
import { MissingAdapter, MissingCSRF, UnknownAction } from '../errors.js';
import { asAuthError, failureAnswer, logFailure } from '../response/failure-answer.js';
import type { Outcome } from '../response/outcome.js';
import { rateLimitedOutcome, takeAttempt } from '../limits/rate-limit.js';
import { readAccountSession, requireAccountSession, requireFreshSignIn, type AccountSession } from '../account/account-session.js';
import type { AccountResult } from '../account-types.js';
import { deleteAccount, endOtherSessions, endSession, removePasskey, renamePasskey, unlinkAccount } from '../account/changes.js';
import { confirmEmailChange, requestEmailChange, showEmailConfirmation } from '../account/email-change.js';
import { startLink } from '../account/link.js';
import { confirmTwoFactor, regenerateRecoveryCodes, removeTwoFactor, reopenEnrolment, startTwoFactor, twoFactorStepPage } from '../account/two-factor.js';
import { accountOverview, hasPasskeys } from '../account/overview.js';
import { prefersAccountPage, showAccountPage } from '../account/account-page.js';
import { refuseWhileImpersonating } from '../admin/impersonation-guard.js';

/** The changes posted under `{basePath}/account/`, by their path segment. */
const CHANGES = new Set<AccountOperation>([
	'unlink',
	'link',
	'rename-passkey',
	'remove-passkey',
	'end-session',
	'end-other-sessions',
	'change-email',
	'confirm-email',
	'delete',
	'two-factor-start',
	'two-factor-confirm',
	'two-factor-recovery-codes',
	'two-factor-remove'
]);

/**
 * `GET {basePath}/account`: the overview of the signed-in user's account (`AccountOverview`), 401
 * `SessionRequired` without a session; a browser (`Accept: text/html` first) gets the account
 * page instead. `GET {basePath}/account/confirm-email`: the page an email-change link opens.
 *
 * @example
 * // GET /auth/account → { "user": { … }, "accounts": [ … ], "passkeys": [ … ], "sessions": [ … ], … }
 */
export async function showAccount(ctx: RequestContext, operation: string | undefined, _body: RequestBody): Promise<Outcome> {
	if (operation === 'confirm-email') {
		checkEnabled(ctx, 'confirm-email');
		return showEmailConfirmation(ctx, await readAccountSession(ctx));
	}
	if (operation !== undefined) throw new UnknownAction(`GET ${ctx.url.pathname}: the account route's changes are POSTs.`);
	const page = prefersAccountPage(ctx.request.headers);
	try {
		checkEnabled(ctx, 'overview');
		if (page) return await showAccountPage(ctx);
		const session = await requireAccountSession(ctx);
		return { type: 'json', body: await accountOverview(ctx, session), headers: { vary: 'Accept, Cookie' } };
	} catch (error) {
		return failureAnswer(ctx, error, { json: !page });
	}
}

/**
 * `POST {basePath}/account/:operation`: one change to the signed-in user's account. Checked in
 * this order: the operation exists and is on, the adapter can do it, the CSRF token, a session,
 * the rate limit (`rateLimit.account`, per user and address), then the operation's own checks
 * (a recent sign-in for sensitive ones, ownership of what it names, never the last way in).
 *
 * @example
 * // POST /auth/account/rename-passkey  csrfToken=…&credentialID=…&name=Work+laptop&callbackUrl=/settings
 * // → 302 /settings?account=passkey-renamed
 * // `returnTo` (optional): the form's page, where a refusal or a needed sign-in comes back to
 * // when `callbackUrl` is elsewhere (a deletion's home page)
 */
export async function changeAccount(ctx: RequestContext, operation: string | undefined, body: RequestBody): Promise<Outcome> {
	let returnTo: string | undefined;
	// where a refusal or a needed sign-in comes back to: the form's page, when it differs from the
	// page a success goes to (a deletion's is the home page)
	let retryAt: string | undefined;
	try {
		if (!operation || !CHANGES.has(operation as AccountOperation)) {
			throw new UnknownAction(`POST ${ctx.url.pathname}: no such account change.`);
		}
		const op = operation as AccountOperation;
		checkEnabled(ctx, op);
		returnTo = await resolveCallbackUrl(ctx, requestedCallbackUrl(ctx, body));
		const formPage = stringField(body, 'returnTo');
		retryAt = formPage ? await resolveCallbackUrl(ctx, formPage) : returnTo;
		assertAccountCsrf(ctx, body);
		// an admin impersonating the user changes nothing of theirs (docs/admin.md)
		await refuseWhileImpersonating(ctx, 'account changes');
		const session = await requireAccountSession(ctx);
		const attempt = await takeAttempt(ctx, 'account', session.user.id);
		if (attempt.limited) return limited(ctx, rateLimitedOutcome(ctx, attempt, retryAt, { json: isScriptCaller(ctx.request) }), retryAt!);
		return await carryOut(ctx, op, session, body, returnTo);
	} catch (error) {
		return accountFailure(ctx, error, retryAt ?? returnTo);
	}
}

async function carryOut(ctx: RequestContext, op: AccountOperation, session: AccountSession, body: RequestBody, returnTo: string): Promise<Outcome> {
	switch (op) {
		case 'unlink':
			await unlinkAccount(ctx, session, body);
			return success(ctx, 'unlinked', returnTo);
		case 'link':
			return startLink(ctx, session, body, withParam(returnTo, 'account', 'linked'));
		case 'rename-passkey':
			await renamePasskey(ctx, session, body);
			return success(ctx, 'passkey-renamed', returnTo);
		case 'remove-passkey':
			await removePasskey(ctx, session, body);
			return success(ctx, 'passkey-removed', returnTo);
		case 'end-session':
			await endSession(ctx, session, body);
			return success(ctx, 'session-ended', returnTo);
		case 'end-other-sessions':
			requireFreshSignIn(ctx, session, 'Ending the other sessions');
			await endOtherSessions(ctx, session);
			return success(ctx, 'other-sessions-ended', returnTo);
		case 'change-email':
			return limited(ctx, await requestEmailChange(ctx, session, body, returnTo), returnTo) ?? success(ctx, 'email-change-requested', returnTo);
		case 'confirm-email':
			return limited(ctx, await confirmEmailChange(ctx, session, body, returnTo), returnTo) ?? success(ctx, 'email-changed', returnTo);
		case 'delete':
			await deleteAccount(ctx, session);
			return success(ctx, 'account-deleted', returnTo);
		// the second factor (account/two-factor.ts): start, confirm and new recovery codes show what
		// is shown once, in the account page a browser's form gets back, or in JSON to a script
		case 'two-factor-start': {
			const enrolment = await startTwoFactor(ctx, session);
			return isBrowserForm(ctx.request) ? twoFactorStepPage(ctx, session, returnTo, { enrolment }) : { type: 'json', body: enrolment };
		}
		case 'two-factor-confirm':
			return confirmAnswer(ctx, session, body, returnTo);
		case 'two-factor-recovery-codes': {
			const renewed = await regenerateRecoveryCodes(ctx, session, body);
			if (!isBrowserForm(ctx.request)) return { type: 'json', body: renewed };
			return twoFactorStepPage(ctx, session, returnTo, { recoveryCodes: renewed.recoveryCodes, result: renewed.result });
		}
		case 'two-factor-remove':
			await removeTwoFactor(ctx, session, body);
			return success(ctx, 'two-factor-removed', returnTo);
		default:
			throw new UnknownAction(`No account change "${op as string}".`);
	}
}

/**
 * `two-factor-confirm`'s answer. A browser whose code was wrong (or who typed too many) gets the
 * same enrolment back with the alert, so a typo does not mean scanning a new QR code.
 */
async function confirmAnswer(ctx: RequestContext, session: AccountSession, body: RequestBody, returnTo: string): Promise<Outcome> {
	try {
		const confirmed = await confirmTwoFactor(ctx, session, body);
		if (!isBrowserForm(ctx.request)) return { type: 'json', body: confirmed };
		return await twoFactorStepPage(ctx, session, returnTo, { recoveryCodes: confirmed.recoveryCodes, result: confirmed.result });
	} catch (error) {
		const failure = asAuthError(error);
		const again = failure.type === 'InvalidSecondFactor' || failure.type === 'RateLimited' ? isBrowserForm(ctx.request) && (await reopenEnrolment(ctx, session, body)) : null;
		if (!again) throw error;
		logFailure(ctx.config.logger, failure);
		return twoFactorStepPage(ctx, session, returnTo, { enrolment: again, error: failure.type });
	}
}

/** Throws `UnknownAction` when the routes or the operation are off, `MissingAdapter`/`MissingAdapterMethod` when the adapter cannot do it. */
function checkEnabled(ctx: RequestContext, op: AccountOperation): void {
	const { account, adapter, session, providers } = ctx.config;
	if (!account.enabled) throw new UnknownAction(adapter ? 'The account routes are off (`account: false`).' : 'The account routes need an adapter: there is no stored account to manage.');
	if ((op === 'change-email' || op === 'confirm-email') && !account.emailProvider) {
		throw new UnknownAction(`Email changes are off: ${account.emailChangeOff ?? 'no email provider'}.`);
	}
	if (op === 'delete' && !account.deleteAccount) throw new UnknownAction('Deleting accounts is off (`account.deleteAccount: false`).');
	if (!adapter) throw new MissingAdapter('The account routes read and change stored users and need an adapter.');
	assertAdapterMethods(adapter, accountMethods(op, session.strategy, hasPasskeys(providers)));
}

/**
 * The CSRF check of an account change: the body's `csrfToken` must match its cookie. A framework
 * origin check or `skipCSRFCheck` stands in for the token only when the post shows it is
 * same-origin (`Origin` / `Sec-Fetch-Site`): these changes can delete the account.
 */
function assertAccountCsrf(ctx: RequestContext, body: RequestBody): void {
	if (isCsrfValid(requestCsrf(ctx), body.csrfToken)) return;
	if ((ctx.config.skipCSRFCheck || ctx.csrfChecked) && isSameOriginPost(ctx.request.headers, ctx.origin)) return;
	throw new MissingCSRF('The CSRF token is missing or does not match its cookie. Fetch one from /csrf (or GET /account) first.');
}

/** A change that went through: back to the page of the form with `?account=<result>`, or `{ result, url }` to a script. */
function success(ctx: RequestContext, result: AccountResult, returnTo: string): Outcome {
	const url = withParam(returnTo, 'account', result);
	if (isScriptCaller(ctx.request)) return { type: 'json', body: { result, url } };
	return { type: 'redirect', url };
}

/** A rate-limited outcome (from `rateLimitedOutcome`) turned into the account routes' answer; undefined passes through. */
function limited(ctx: RequestContext, outcome: Outcome, returnTo: string): Outcome;
function limited(ctx: RequestContext, outcome: Outcome | undefined, returnTo: string): Outcome | undefined;
function limited(ctx: RequestContext, outcome: Outcome | undefined, returnTo: string): Outcome | undefined {
	if (!outcome || outcome.type !== 'redirect') return outcome;
	return { ...outcome, url: withParam(returnTo, 'accountError', 'RateLimited') };
}

/**
 * A failed change: a missing session or a stale sign-in goes to the sign-in page and comes back to
 * `returnTo`; any other failure goes back to `returnTo` with `?accountError=<code>` (forms) or is
 * `{ error }` with the failure table's status (scripts). Logged and cleaned up by `failureAnswer`.
 */
function accountFailure(ctx: RequestContext, error: unknown, returnTo: string | undefined): Outcome {
	const failure = asAuthError(error);
	const needsSignIn = failure.type === 'SessionRequired' || failure.type === 'FreshSignInRequired';
	if (needsSignIn) return failureAnswer(ctx, failure, { callbackUrl: returnTo });
	if (isScriptCaller(ctx.request) || returnTo === undefined) return failureAnswer(ctx, failure, { json: isScriptCaller(ctx.request) });
	const outcome = failureAnswer(ctx, failure);
	return outcome.type === 'redirect' ? { ...outcome, url: withParam(returnTo, 'accountError', failure.type) } : outcome;
}

/** A caller that reads the answer itself: it asked for JSON answers, or sent JSON (no HTML form can). */
function isScriptCaller(request: Request): boolean {
	if (request.headers.get('x-auth-return-redirect') === '1') return true;
	return (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() === 'application/json';
}

/** A browser's own form post, which can show a page: it prefers HTML, and is no script caller. */
function isBrowserForm(request: Request): boolean {
	return !isScriptCaller(request) && prefersAccountPage(request.headers);
}

function withParam(url: string, name: string, value: string): string {
	const target = new URL(url);
	target.searchParams.delete('account');
	target.searchParams.delete('accountError');
	target.searchParams.set(name, value);
	return target.href;
}

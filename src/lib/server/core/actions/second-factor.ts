// GET|POST {basePath}/second-factor: the second sign-in step. GET shows the form (a code from the
// authenticator app, or a recovery code), or sends the browser to `pages.secondFactor`; POST checks
// the code against the pending sign-in's user and starts the session, and trusts this browser when
// asked ("Trust this browser", `twoFactor.trustBrowserDays`). With `twoFactor.required`, a user
// without a second factor sets one up here instead: GET shows a new key, POST confirms it with a
// first code, then the session starts and the recovery codes are shown once. Forms are answered with
// redirects (after a recovery code, with a page saying how many are left), scripts (JSON body or
// `X-Auth-Return-Redirect: 1`) with JSON.

import { stringField, type RequestBody } from '../request/body.js';
import { requestCsrf, type RequestContext } from '../request/context.js';
import { isCsrfValid, isSameOriginPost } from '../request/csrf.js';
import { AccessDenied, InvalidRequest, InvalidSecondFactor, MissingCSRF, SecondFactorExpired } from '../errors.js';
import { pageOutcome } from '../response/built-in-pages.js';
import { emitEvent } from '../config/events.js';
import { failureAnswer } from '../response/failure-answer.js';
import { rememberUpstreamAccount } from '../flows/oauth/token-refresh.js';
import { pageUrl, type Outcome } from '../response/outcome.js';
import { takeAttempt, rateLimitedOutcome, type Attempt, type LimitedAttempt } from '../limits/rate-limit.js';
import { establishSession } from '../session/session.js';
import { assertAdapterMethods } from '../store/adapter-guard.js';
import { sendSecurityNotice } from '../account/credential-change.js';
import { endEmailChangeLinks } from '../account/email-change-links.js';
import { enrolmentView, newEnrolment, openEnrolment, storeTwoFactor, type EnrollingUser, type TwoFactorEnrolment } from '../two-factor/enrolment.js';
import { clearPendingSignIn, pendingCookie, readPendingSignIn, twoFactorOf, useSecondFactor, type PendingSignIn } from '../two-factor/second-factor.js';
import { verifyTotp } from '../two-factor/totp.js';
import { passkeyStepOffered } from '../two-factor/passkey-second-factor.js';
import { trustThisBrowser } from '../two-factor/trusted-browser.js';
import type { AdapterUser } from '../types.js';

/** The purpose a forced enrolment's key is sealed for (apart from the account routes' enrolment). */
const SIGN_IN_ENROLMENT_SALT = 'kitgate.sign-in-enrolment';

/**
 * `GET {basePath}/second-factor`: the form of the second step while a sign-in is pending (or a
 * redirect to `pages.secondFactor`, keeping `error`), with "Trust this browser" when
 * `twoFactor.trustBrowserDays` is set; for a user without a second factor under
 * `twoFactor.required`, a new key to set up (always the built-in page: the key never goes into a
 * URL). Without a pending sign-in, the sign-in page with `SecondFactorExpired`.
 *
 * @example
 * // GET /auth/second-factor → 200 text/html (form posting `code` and `csrfToken`)
 */
export async function showSecondFactor(ctx: RequestContext): Promise<Outcome> {
	let pending: PendingSignIn | null;
	try {
		pending = await readPendingSignIn(ctx);
	} catch (error) {
		return pendingReadFailure(ctx, error, false);
	}
	if (!pending) return failureAnswer(ctx, new SecondFactorExpired('No sign-in is waiting for its second step.'));
	try {
		if (await mustEnrol(ctx, pending)) return enrolmentPage(ctx, pending, await newEnrolment(ctx, enrollingUser(pending), SIGN_IN_ENROLMENT_SALT, pending.signInId));
	} catch (error) {
		return failureAnswer(ctx, error);
	}
	const requested = ctx.url.searchParams.get('error');
	const error = requested === 'InvalidSecondFactor' || requested === 'RateLimited' ? requested : undefined;
	if (ctx.config.pages.secondFactor) return { type: 'redirect', url: pageUrl(ctx, 'secondFactor', { error }) };
	// "Use a passkey" when the user has one (actions/second-factor-passkey.ts)
	const passkey = (await passkeyStepOffered(ctx, pending)) ? { url: `${ctx.authUrl}/second-factor/passkey` } : undefined;
	return pageOutcome(ctx, 'second-factor', { ...pageBasics(ctx, pending), error, trustDays: ctx.config.twoFactor.trustBrowserDays, passkey });
}

/** What every state of the second step's page shows: where it posts, its CSRF token, the way back to sign-in. */
function pageBasics(ctx: RequestContext, pending: PendingSignIn): { action: string; csrfToken: string; signInUrl: string } {
	return { action: `${ctx.authUrl}/second-factor`, csrfToken: requestCsrf(ctx).token, signInUrl: pageUrl(ctx, 'signIn', { callbackUrl: pending.callbackUrl }) };
}

/** A user without a second factor under `twoFactor.required`: the step sets one up instead of asking for a code. */
async function mustEnrol(ctx: RequestContext, pending: PendingSignIn): Promise<boolean> {
	return ctx.config.twoFactor.required && !(await twoFactorOf(ctx, pending.userId));
}

function enrollingUser(pending: PendingSignIn): EnrollingUser {
	return { id: pending.userId, email: pending.user.email, name: pending.user.name };
}

/** The forced enrolment's page: the key, and the form that confirms it with a first code (again after `error`). */
function enrolmentPage(ctx: RequestContext, pending: PendingSignIn, enrolment: TwoFactorEnrolment, error?: 'InvalidSecondFactor' | 'RateLimited'): Outcome {
	const shown = { secret: enrolment.secret, qrCodeSvg: enrolment.qrCodeSvg, pending: enrolment.pending };
	return pageOutcome(ctx, 'second-factor', { ...pageBasics(ctx, pending), enrolment: shown, error });
}

/**
 * `POST {basePath}/second-factor` with `code` (six digits, or a recovery code) and `csrfToken`:
 * checked in this order: a pending sign-in, the CSRF token, the rate limit (`rateLimit.secondFactor`,
 * per user and address), the code (spent once). Then the session starts, `signIn` fires, and the
 * browser goes to the sign-in's callback URL; after a recovery code it gets a page that says how
 * many codes are left, with links on to the callback URL and to the account page (scripts get
 * `{ url, recoveryCodesLeft? }`). A ticked `trustBrowser` also sets the trusted-browser cookie.
 * Under `twoFactor.required`, for a user without a second factor, the body is the set-up's
 * `pending` and first `code` instead (confirmEnrolment).
 *
 * @example
 * // POST /auth/second-factor  csrfToken=…&code=492039 → 302 /dashboard (session cookie set)
 */
export async function verifySecondFactor(ctx: RequestContext, body: RequestBody): Promise<Outcome> {
	const json = isScriptCaller(ctx.request);
	let pending: PendingSignIn | null;
	try {
		pending = await readPendingSignIn(ctx);
	} catch (error) {
		return pendingReadFailure(ctx, error, json);
	}
	if (!pending) return failureAnswer(ctx, new SecondFactorExpired('No sign-in is waiting for its second step (missing, expired or tampered cookie).'), { json });
	try {
		assertCsrf(ctx, body);
		const adapter = ctx.config.adapter!;
		assertAdapterMethods(adapter, ['getTwoFactor', 'useTotpStep', 'useRecoveryCode', ...(ctx.config.session.strategy === 'database' ? (['createSession'] as const) : [])]);
		const attempt = await takeAttempt(ctx, 'secondFactor', pending.userId);
		if (await mustEnrol(ctx, pending)) return await confirmEnrolment(ctx, pending, body, attempt, json);
		if (attempt.limited) return retryPage(ctx, rateLimitedOutcome(ctx, attempt, undefined, { json }), 'RateLimited');
		const record = await twoFactorOf(ctx, pending.userId);
		if (!record) {
			clearPendingSignIn(ctx);
			return failureAnswer(ctx, new SecondFactorExpired('The user no longer has a second factor: sign in again.'), { json });
		}
		const used = await useSecondFactor(ctx, pending.userId, record, stringField(body, 'code') ?? stringField(body, 'recoveryCode'));
		if (!used) {
			return retryPage(ctx, failureAnswer(ctx, new InvalidSecondFactor('The second-factor code is wrong, malformed or already used.'), { json }), 'InvalidSecondFactor');
		}
		await attempt.succeeded();
		clearPendingSignIn(ctx);
		await finishSignIn(ctx, pending);
		if (isTicked(body.trustBrowser)) {
			// the factor as it is after this code (a recovery code spent changes it)
			const now = await twoFactorOf(ctx, pending.userId);
			if (now) await trustThisBrowser(ctx, pending.userId, now);
		}
		if (used.kind === 'recovery') {
			await emitEvent(ctx, 'twoFactor', { user: await storedUser(ctx, pending), change: 'recovery-code-used', remainingRecoveryCodes: used.remaining });
			if (json) return { type: 'json', body: { url: pending.callbackUrl, recoveryCodesLeft: used.remaining } };
			return recoveryCodeUsedPage(ctx, pending, used.remaining);
		}
		return json ? { type: 'json', body: { url: pending.callbackUrl } } : { type: 'redirect', url: pending.callbackUrl };
	} catch (error) {
		return failureAnswer(ctx, error, { json });
	}
}

/**
 * The forced enrolment's confirmation (`twoFactor.required`, the user has no second factor): the
 * posted `pending` must be this sign-in's, in this browser, and the code the new key's current one
 * (counted under `rateLimit.secondFactor`). Then the key is stored, the session starts and the
 * recovery codes are shown once, with a link on to the callback URL.
 */
async function confirmEnrolment(ctx: RequestContext, pending: PendingSignIn, body: RequestBody, attempt: Attempt | LimitedAttempt, json: boolean): Promise<Outcome> {
	const sealed = stringField(body, 'pending');
	const opened = await openEnrolment(ctx, pending.userId, sealed, SIGN_IN_ENROLMENT_SALT, pending.signInId);
	if (!opened) return failureAnswer(ctx, new InvalidRequest('`pending` is missing, expired, or was made for another sign-in or browser: sign in again.'), { json });
	const again = (error: 'InvalidSecondFactor' | 'RateLimited') => enrolmentPage(ctx, pending, enrolmentView(ctx, enrollingUser(pending), opened.totp, sealed!), error);
	if (attempt.limited) return json ? rateLimitedOutcome(ctx, attempt, undefined, { json }) : again('RateLimited');
	const checked = verifyTotp(stringField(body, 'code') ?? '', opened.totp, { now: ctx.now });
	if (!checked.valid) {
		if (json) return failureAnswer(ctx, new InvalidSecondFactor('The code does not match the new key: check the device clock, and type the current code.'), { json });
		return again('InvalidSecondFactor');
	}
	await attempt.succeeded();
	const { codes } = await storeTwoFactor(ctx, pending.userId, opened.totp, checked.step);
	clearPendingSignIn(ctx);
	await finishSignIn(ctx, pending);
	const user = await storedUser(ctx, pending);
	await emitEvent(ctx, 'twoFactor', { user, change: 'enrolled', remainingRecoveryCodes: codes.length });
	await endEmailChangeLinks(ctx, user.id);
	await sendSecurityNotice(ctx, user.email, 'two-factor-enabled');
	if (json) return { type: 'json', body: { url: pending.callbackUrl, recoveryCodes: codes } };
	return pageOutcome(ctx, 'second-factor', { ...pageBasics(ctx, pending), recoveryCodes: codes, continueUrl: pending.callbackUrl });
}

/** A pending sign-in that could not be read (its user banned, a failing store): the answer keeps the pending cookie's removal. */
function pendingReadFailure(ctx: RequestContext, error: unknown, json: boolean): Outcome {
	const pending = pendingCookie(ctx).name;
	return failureAnswer(ctx, error, { json, keep: (c) => c.value === '' && (c.name === pending || c.name.startsWith(`${pending}.`)) });
}

/** A ticked box of a form (`yes`, `on`, `true`) or JSON's `true`. */
function isTicked(value: unknown): boolean {
	return value === true || (typeof value === 'string' && ['yes', 'on', 'true'].includes(value.toLowerCase()));
}

/**
 * Starts the session of the pending sign-in and fires `signIn`, as the primary flow would have
 * (also after a passkey as the second factor: second-factor-passkey.ts).
 *
 * @example
 * await finishSignIn(ctx, pending);
 */
export async function finishSignIn(ctx: RequestContext, pending: PendingSignIn): Promise<void> {
	const { user, account, profile, isNewUser } = pending;
	// the stored user is the pending one (a credentials JWT session's `sub` is authorize()'s id)
	const started = await establishSession(ctx, { user, account, profile, isNewUser, storedUserId: pending.userId });
	if (!started) throw new AccessDenied('The jwt callback returned null: no session was started.');
	const provider = account ? ctx.config.providerById.get(account.provider) : undefined;
	if (provider && account && (account.type === 'oauth' || account.type === 'oidc')) await rememberUpstreamAccount(ctx, provider, account);
	await emitEvent(ctx, 'signIn', { user, account, profile, isNewUser });
}

async function storedUser(ctx: RequestContext, pending: PendingSignIn): Promise<AdapterUser> {
	const found = await Promise.resolve(ctx.config.adapter!.getUser(pending.userId)).catch(() => null);
	return found ?? ({ ...pending.user, id: pending.userId, email: pending.user.email ?? '', emailVerified: null } as AdapterUser);
}

/**
 * The page after a recovery-code sign-in: the count is told where the user cannot miss it (a
 * query parameter on the app's callback URL could be ignored by the app).
 */
function recoveryCodeUsedPage(ctx: RequestContext, pending: PendingSignIn, remaining: number): Outcome {
	const accountUrl = ctx.config.account.enabled ? pageUrl(ctx, 'account') : '';
	return pageOutcome(ctx, 'recovery-code-used', { remaining, continueUrl: pending.callbackUrl, accountUrl });
}

/** A refused code from a form goes back to the second step's page with `?error=`, where it can be typed again. */
function retryPage(ctx: RequestContext, outcome: Outcome, error: 'InvalidSecondFactor' | 'RateLimited'): Outcome {
	if (outcome.type !== 'redirect') return outcome;
	return { ...outcome, url: `${ctx.authUrl}/second-factor?error=${error}` };
}

/**
 * The CSRF check of the second step: the body's `csrfToken` must match its cookie; a framework
 * origin check or `skipCSRFCheck` stands in only for a same-origin post.
 *
 * @example
 * assertCsrf(ctx, body); // MissingCSRF unless the token matches
 */
export function assertCsrf(ctx: RequestContext, body: RequestBody): void {
	if (isCsrfValid(requestCsrf(ctx), body.csrfToken)) return;
	if ((ctx.config.skipCSRFCheck || ctx.csrfChecked) && isSameOriginPost(ctx.request.headers, ctx.origin)) return;
	throw new MissingCSRF('The CSRF token is missing or does not match its cookie.');
}

/** A caller that reads the answer itself: it asked for JSON answers, or sent JSON (no HTML form can). */
function isScriptCaller(request: Request): boolean {
	if (request.headers.get('x-auth-return-redirect') === '1') return true;
	return (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() === 'application/json';
}

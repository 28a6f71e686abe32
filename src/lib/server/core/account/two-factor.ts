// The second factor from the account routes: start an enrolment (a new TOTP secret as otpauth URI,
// QR code and a pending sealed value bound to the user and this browser), confirm it with a first
// code (recovery codes shown once), make new recovery codes, remove the second factor (a current
// code and a recent sign-in). Every change ends the user's other sessions and fires `twoFactor`.
// A browser's form post is answered with the account page in that step (the secret never goes into
// a URL); scripts get JSON.

import { pageOutcome } from '../response/built-in-pages.js';
import { stringField, type RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { InvalidRequest, InvalidSecondFactor, RateLimited, TwoFactorAlreadyEnabled, TwoFactorNotEnabled } from '../errors.js';
import { emitEvent } from '../config/events.js';
import type { Outcome } from '../response/outcome.js';
import { takeAttempt } from '../limits/rate-limit.js';
import { enrolmentView, newEnrolment, openEnrolment, storeTwoFactor, type TwoFactorEnrolment } from '../two-factor/enrolment.js';
import { generateRecoveryCodes } from '../two-factor/recovery-codes.js';
import { twoFactorOf, useSecondFactor } from '../two-factor/second-factor.js';
import { verifyTotp } from '../two-factor/totp.js';
import { requireFreshSignIn, type AccountSession } from './account-session.js';
import { afterCredentialChange, keepsOtherSessions } from './credential-change.js';
import { accountOverview } from './overview.js';

const ENROLMENT_SALT = 'kitgate.two-factor-enrolment';

export { ENROLMENT_SECONDS, type TwoFactorEnrolment } from '../two-factor/enrolment.js';

/**
 * `POST {basePath}/account/two-factor-start`: a new TOTP secret for the signed-in user. Needs a
 * recent sign-in; refused with `TwoFactorAlreadyEnabled` when the user has a second factor.
 *
 * @example
 * const enrolment = await startTwoFactor(ctx, session); // { result, secret, uri, qrCodeSvg, pending }
 */
export async function startTwoFactor(ctx: RequestContext, session: AccountSession): Promise<TwoFactorEnrolment> {
	requireFreshSignIn(ctx, session, 'Setting up two-factor authentication');
	const { user } = session;
	if (await twoFactorOf(ctx, user.id)) throw new TwoFactorAlreadyEnabled('The user already has a second factor: remove it first.');
	return newEnrolment(ctx, user, ENROLMENT_SALT);
}

/** The payload of a posted `pending` when it is this user's and this browser's, else null. */
function openAccountEnrolment(ctx: RequestContext, session: AccountSession, body: RequestBody): Promise<{ totp: string } | null> {
	return openEnrolment(ctx, session.user.id, stringField(body, 'pending'), ENROLMENT_SALT);
}

/**
 * The enrolment a refused confirmation posted (its `pending` still valid for this user and
 * browser), so the page can ask for the code again without a new QR code; null otherwise.
 *
 * @example
 * const again = await reopenEnrolment(ctx, session, body); // { secret, qrCodeSvg, pending, … } | null
 */
export async function reopenEnrolment(ctx: RequestContext, session: AccountSession, body: RequestBody): Promise<TwoFactorEnrolment | null> {
	const opened = await openAccountEnrolment(ctx, session, body);
	return opened ? enrolmentView(ctx, session.user, opened.totp, stringField(body, 'pending')!) : null;
}

/**
 * `POST {basePath}/account/two-factor-confirm` with `pending` (from start) and `code` (the app's
 * current code): stores the sealed secret and ten recovery codes' hashes, ends the user's other
 * sessions, fires `twoFactor` (`enrolled`) and answers the recovery codes, shown this once.
 *
 * @example
 * const { recoveryCodes } = await confirmTwoFactor(ctx, session, { pending, code: '492039' });
 */
export async function confirmTwoFactor(ctx: RequestContext, session: AccountSession, body: RequestBody): Promise<{ result: 'two-factor-enabled'; recoveryCodes: string[] }> {
	const { user } = session;
	const payload = await openAccountEnrolment(ctx, session, body);
	if (!payload) throw new InvalidRequest('`pending` is missing, expired, or was made for another user or browser: start the enrolment again.');
	const attempt = await countCodeAttempt(ctx, user.id);
	if (await twoFactorOf(ctx, user.id)) throw new TwoFactorAlreadyEnabled('The user already has a second factor.');
	const checked = verifyTotp(stringField(body, 'code') ?? '', payload.totp, { now: ctx.now });
	if (!checked.valid) throw new InvalidSecondFactor('The code does not match the new key: check the device clock, and type the current code.');
	await attempt.succeeded();
	const { codes } = await storeTwoFactor(ctx, user.id, payload.totp, checked.step);
	await afterCredentialChange(ctx, session, 'two-factor-enabled', { keepOtherSessions: keepsOtherSessions(body) });
	await emitEvent(ctx, 'twoFactor', { user, change: 'enrolled', remainingRecoveryCodes: codes.length });
	return { result: 'two-factor-enabled', recoveryCodes: codes };
}

/**
 * `POST {basePath}/account/two-factor-recovery-codes` with `code` (a current TOTP code or a
 * recovery code): ten new recovery codes in place of the old ones (which stop working). Needs a
 * recent sign-in and the code: new codes are a way past the second factor, so a session alone
 * (a stolen one) does not get them. Ends the other sessions, fires `twoFactor`.
 *
 * @example
 * const { recoveryCodes } = await regenerateRecoveryCodes(ctx, session, { code: '492039' });
 */
export async function regenerateRecoveryCodes(ctx: RequestContext, session: AccountSession, body: RequestBody): Promise<{ result: 'recovery-codes-regenerated'; recoveryCodes: string[] }> {
	requireFreshSignIn(ctx, session, 'Making new recovery codes');
	const { user } = session;
	const record = await twoFactorOf(ctx, user.id);
	if (!record) throw new TwoFactorNotEnabled('The user has no second factor.');
	const attempt = await countCodeAttempt(ctx, user.id);
	const used = await useSecondFactor(ctx, user.id, record, stringField(body, 'code'));
	if (!used) throw new InvalidSecondFactor('New recovery codes need a current code from the app, or a recovery code.');
	await attempt.succeeded();
	const { codes, hashes } = generateRecoveryCodes({ secret: ctx.config.secrets });
	// the adapter keeps the later of the stored and this (possibly stale) last-used step
	await ctx.config.adapter!.setTwoFactor({ ...record, recoveryCodes: hashes });
	await afterCredentialChange(ctx, session, 'recovery-codes-regenerated', { keepOtherSessions: keepsOtherSessions(body) });
	await emitEvent(ctx, 'twoFactor', { user, change: 'recovery-codes-regenerated', remainingRecoveryCodes: codes.length });
	return { result: 'recovery-codes-regenerated', recoveryCodes: codes };
}

/**
 * `POST {basePath}/account/two-factor-remove` with `code` (a current TOTP code or a recovery
 * code): removes the second factor. Needs a recent sign-in and the code (a fresh check); ends the
 * other sessions, fires `twoFactor` (`removed`).
 *
 * @example
 * await removeTwoFactor(ctx, session, { code: '492039' });
 */
export async function removeTwoFactor(ctx: RequestContext, session: AccountSession, body: RequestBody): Promise<void> {
	requireFreshSignIn(ctx, session, 'Turning off two-factor authentication');
	const { user } = session;
	const record = await twoFactorOf(ctx, user.id);
	if (!record) throw new TwoFactorNotEnabled('The user has no second factor.');
	const attempt = await countCodeAttempt(ctx, user.id);
	const used = await useSecondFactor(ctx, user.id, record, stringField(body, 'code'));
	if (!used) throw new InvalidSecondFactor('Turning off two-factor authentication needs a current code from the app, or a recovery code.');
	await attempt.succeeded();
	await ctx.config.adapter!.deleteTwoFactor(user.id);
	await afterCredentialChange(ctx, session, 'two-factor-removed', { keepOtherSessions: keepsOtherSessions(body) });
	await emitEvent(ctx, 'twoFactor', { user, change: 'removed' });
}

/** Counts a code typed in the account routes under `rateLimit.secondFactor` (per user and address). */
async function countCodeAttempt(ctx: RequestContext, userId: string): Promise<{ succeeded(): Promise<void> }> {
	const attempt = await takeAttempt(ctx, 'secondFactor', userId);
	if (attempt.limited) throw new RateLimited(attempt.reason);
	return attempt;
}

/** What a two-factor step shows on the account page: an enrolment, or recovery codes, and the notice. */
export type TwoFactorStep =
	| { enrolment: TwoFactorEnrolment; error?: string }
	| { recoveryCodes: string[]; result: 'two-factor-enabled' | 'recovery-codes-regenerated' };

/**
 * The account page in a two-factor step, for a browser's form post: the page itself (200, HTML,
 * `cache-control: no-store` as every answer), since what it shows once (the key, the recovery
 * codes) must never travel in a URL. Its forms and links come back to `returnTo`.
 *
 * @example
 * return twoFactorStepPage(ctx, session, returnTo, { enrolment: await startTwoFactor(ctx, session) });
 */
export async function twoFactorStepPage(ctx: RequestContext, session: AccountSession, returnTo: string, step: TwoFactorStep): Promise<Outcome> {
	const overview = await accountOverview(ctx, session);
	const shown =
		'enrolment' in step
			? { twoFactorEnrolment: { secret: step.enrolment.secret, qrCodeSvg: step.enrolment.qrCodeSvg, pending: step.enrolment.pending }, error: step.error }
			: { recoveryCodes: step.recoveryCodes, result: step.result };
	const outcome = pageOutcome(ctx, 'account', { overview, callbackUrl: returnTo, homeUrl: ctx.baseUrl, signOutUrl: `${ctx.authUrl}/signout`, ...shown });
	return outcome.type === 'html' ? { ...outcome, headers: { ...outcome.headers, vary: 'Accept, Cookie' } } : outcome;
}

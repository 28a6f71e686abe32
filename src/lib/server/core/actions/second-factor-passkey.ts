// GET|POST {basePath}/second-factor/passkey: the second sign-in step with a passkey instead of a
// code (two-factor/passkey-second-factor.ts). GET answers `{ options }` for the pending user's
// passkeys; POST takes the browser's response as JSON and finishes the pending sign-in as a code
// does: the same CSRF check, rate limit (`rateLimit.secondFactor`, per user), session start and
// `signIn` event, and the pending cookie cleared. Both answer JSON (the page's script calls them).

import type { RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { SecondFactorExpired, UnknownAction } from '../errors.js';
import { failureAnswer } from '../response/failure-answer.js';
import type { Outcome } from '../response/outcome.js';
import { rateLimitedOutcome, takeAttempt } from '../limits/rate-limit.js';
import { passkeyStepOptions, verifyPasskeyStep } from '../two-factor/passkey-second-factor.js';
import { clearPendingSignIn, pendingCookie, readPendingSignIn, twoFactorOf } from '../two-factor/second-factor.js';
import { trustThisBrowser } from '../two-factor/trusted-browser.js';
import { assertCsrf, finishSignIn } from './second-factor.js';

/** The one operation under `{basePath}/second-factor/`. */
const PASSKEY_STEP = 'passkey';

/**
 * `GET {basePath}/second-factor/passkey`: request options allowing only the pending user's
 * passkeys (`{ options }`, the challenge added to the challenge cookie). Without a pending sign-in
 * `SecondFactorExpired` (401): nothing about any user is answered; `InvalidRequest` (400) when
 * the user has no passkey or no passkey provider is configured.
 *
 * @example
 * // GET /auth/second-factor/passkey → 200 { "options": { "challenge": "…", "allowCredentials": [{ "id": "…" }], … } }
 */
export async function showPasskeyStepOptions(ctx: RequestContext, step: string): Promise<Outcome> {
	if (step !== PASSKEY_STEP) throw new UnknownAction(`No second-step operation "${step}".`);
	try {
		const pending = await readPendingSignIn(ctx);
		if (!pending) throw new SecondFactorExpired('No sign-in is waiting for its second step.');
		return { type: 'json', body: { options: await passkeyStepOptions(ctx, pending) } };
	} catch (error) {
		return passkeyStepFailure(ctx, error);
	}
}

/**
 * `POST {basePath}/second-factor/passkey` with JSON `{ data, csrfToken, trustBrowser? }`: checked
 * in this order: a pending sign-in, the CSRF token, the rate limit, the user's second factor, the
 * passkey response (a challenge of this pending sign-in, one of the user's passkeys). Then the
 * session starts, `signIn` fires, and the answer is `{ url }` (the sign-in's callback URL);
 * `{ error }` with a 4xx status otherwise, the pending sign-in kept for another try.
 *
 * @example
 * // POST /auth/second-factor/passkey  { "data": {…}, "csrfToken": "…" } → 200 { "url": "/dashboard" } (session cookie set)
 */
export async function verifyPasskeyStepAction(ctx: RequestContext, step: string, body: RequestBody): Promise<Outcome> {
	if (step !== PASSKEY_STEP) throw new UnknownAction(`No second-step operation "${step}".`);
	try {
		const pending = await readPendingSignIn(ctx);
		if (!pending) throw new SecondFactorExpired('No sign-in is waiting for its second step (missing, expired or tampered cookie).');
		assertCsrf(ctx, body);
		const attempt = await takeAttempt(ctx, 'secondFactor', pending.userId);
		if (attempt.limited) return rateLimitedOutcome(ctx, attempt, undefined, { json: true });
		if (!(await twoFactorOf(ctx, pending.userId))) {
			clearPendingSignIn(ctx);
			throw new SecondFactorExpired('The user no longer has a second factor: sign in again.');
		}
		await verifyPasskeyStep(ctx, pending, body.data);
		await attempt.succeeded();
		clearPendingSignIn(ctx);
		await finishSignIn(ctx, pending);
		if (body.trustBrowser === true) {
			const record = await twoFactorOf(ctx, pending.userId);
			if (record) await trustThisBrowser(ctx, pending.userId, record);
		}
		return { type: 'json', body: { url: pending.callbackUrl } };
	} catch (error) {
		return passkeyStepFailure(ctx, error);
	}
}

/** A JSON 4xx with no session: only a fresh CSRF token and the removals of the challenge and (when cleared) pending cookies are kept. */
function passkeyStepFailure(ctx: RequestContext, error: unknown): Outcome {
	const challenge = ctx.cookieNames.webauthnChallenge.name;
	const pending = pendingCookie(ctx).name;
	return failureAnswer(ctx, error, { json: true, keep: (c) => c.value === '' && (c.name === challenge || c.name === pending || c.name.startsWith(`${pending}.`)) });
}

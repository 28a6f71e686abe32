// The second factor in the sign-in: after a primary sign-in (credentials, email link, OAuth/OIDC)
// of a user who has a second factor, no session is started; a sealed, short-lived, httpOnly
// "pending second factor" cookie carries the primary sign-in to the second step
// ({basePath}/second-factor), which starts the session once a TOTP or recovery code checks out.
// With `twoFactor.required`, a user without one goes the same way to set one up there first; a
// browser the user trusted (trusted-browser.ts) skips the step.
// A passkey sign-in is both factors (something you have, unlocked by something you know or are)
// and is never asked for a second one. Internal.

import { randomToken } from '../crypto/random.js';
import { assertAdapterMethods, hasAdapterMethod } from '../store/adapter-guard.js';
import type { RequestContext } from '../request/context.js';
import { clearChunkedCookie, readChunkedCookie, writeChunkedCookie } from '../request/cookies.js';
import { AdapterError, UserBanned } from '../errors.js';
import { isUserBanned } from '../session/ban.js';
import type { Outcome } from '../response/outcome.js';
import { signOutJwtSession } from '../session/jwt-session-list.js';
import { isMadeBeforeRevocation, timeAfterRevocations } from '../session/revocation.js';
import { clearSessionCookie, decodeSessionCookie, sessionCookieValue } from '../session/session.js';
import type { Account, AdapterTwoFactor, AdapterUser, CookieOption, Profile, User } from '../types.js';
import { openFor, sealFor } from './purpose-seal.js';
import { isTrustedBrowser } from './trusted-browser.js';
import { verifyRecoveryCode } from './recovery-codes.js';
import { openTotpSecret } from './totp-secret-seal.js';

export { openFor, purposeKey, sealFor } from './purpose-seal.js';

/** Seconds a pending sign-in waits for its second step. */
export const PENDING_SECOND_FACTOR_SECONDS = 5 * 60;

/** The primary sign-in a pending cookie carries to the second step. */
export interface PendingSignIn {
	/** The stored user whose second factor is asked for. */
	userId: string;
	/** The user the session is started for (a credentials JWT session's is authorize()'s). */
	user: User | AdapterUser;
	account: Account | null;
	profile?: Profile;
	isNewUser?: boolean;
	callbackUrl: string;
	/** A random id of this primary sign-in. */
	signInId: string;
	/** When the primary sign-in happened (ms). */
	signedInAt: number;
	/** When it counts as made for revocations (ms): `signedInAt`, or a revocation of the user still ahead. */
	datedAt: number;
}

const PENDING_SALT = 'kitgate.second-factor';

/** The pending cookie: `kitgate.second-factor` (`__Secure-` over HTTPS), httpOnly, SameSite=Lax, 5 minutes. */
export function pendingCookie(ctx: RequestContext): CookieOption {
	const secure = ctx.cookieNames.sessionToken.options.secure === true;
	return {
		name: `${secure ? '__Secure-' : ''}kitgate.second-factor`,
		options: { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: PENDING_SECOND_FACTOR_SECONDS }
	};
}

/**
 * The second factor of `userId` when the adapter stores second factors and the user has one.
 *
 * @example
 * const record = await twoFactorOf(ctx, user.id); // null: no second step
 */
export async function twoFactorOf(ctx: RequestContext, userId: string): Promise<AdapterTwoFactor | null> {
	const adapter = ctx.config.adapter;
	if (!adapter || !hasAdapterMethod(adapter, 'getTwoFactor')) return null;
	return (await adapter.getTwoFactor(userId)) ?? null;
}

/**
 * The gate after a primary sign-in: for a user with a second factor (unless this browser is
 * trusted for that user), or without one when `twoFactor.required` is on, ends any session the
 * request had, writes the pending cookie and answers a redirect to the second step (which asks for
 * the code, or sets up the second factor); null (go on and start the session) otherwise.
 *
 * @example
 * const gated = await secondFactorGate(ctx, { userId: user.id, user, account, profile, callbackUrl });
 * if (gated) return gated;
 */
export async function secondFactorGate(
	ctx: RequestContext,
	signIn: Omit<PendingSignIn, 'signInId' | 'signedInAt' | 'datedAt'>
): Promise<Outcome | null> {
	const record = await twoFactorOf(ctx, signIn.userId);
	// a sign-in over a session (signing in again for a sensitive change) takes both steps: trust would
	// make it as stale as the one it replaces
	const reSignIn = sessionCookieValue(ctx) !== undefined;
	if (record && !reSignIn && (await isTrustedBrowser(ctx, signIn.userId, record))) {
		// a sign-in without its second step is not a recent one for sensitive changes (step-up)
		ctx.secondFactorSkipped = true;
		return null;
	}
	if (!record && !ctx.config.twoFactor.required) return null;
	const previous = sessionCookieValue(ctx);
	if (previous) {
		// the sign-in replaces any session the request had, as establishSession does (no fixation)
		if (ctx.config.session.strategy === 'database') await Promise.resolve(ctx.config.adapter!.deleteSession(previous)).catch(() => undefined);
		else {
			const replaced = await decodeSessionCookie(ctx);
			if (replaced) await signOutJwtSession(ctx, replaced);
		}
		clearSessionCookie(ctx);
	}
	const pending: PendingSignIn = {
		...signIn,
		signInId: randomToken(16, 'base64url'),
		signedInAt: ctx.now,
		datedAt: await timeAfterRevocations(ctx, signIn.userId)
	};
	const value = await sealFor(ctx, PENDING_SALT, { sub: signIn.userId, pending }, PENDING_SECOND_FACTOR_SECONDS);
	const option = pendingCookie(ctx);
	ctx.setCookies.push(...writeChunkedCookie(ctx.cookies, { name: option.name, options: { ...option.options, expires: new Date(ctx.now + PENDING_SECOND_FACTOR_SECONDS * 1000) } }, value));
	return { type: 'redirect', url: `${ctx.authUrl}/second-factor` };
}

/**
 * The pending sign-in of the request's cookie, or null (none, expired, tampered, or made before
 * a revocation of the user's sessions: its cookie is then removed). Throws `UserBanned` (the
 * cookie removed) when its user is banned now. Store failures are thrown.
 *
 * @example
 * const pending = await readPendingSignIn(ctx);
 */
export async function readPendingSignIn(ctx: RequestContext): Promise<PendingSignIn | null> {
	const payload = await openFor(ctx, PENDING_SALT, readChunkedCookie(ctx.cookies, pendingCookie(ctx).name));
	const pending = payload?.pending as PendingSignIn | undefined;
	if (!pending || typeof pending !== 'object' || typeof pending.userId !== 'string' || pending.userId !== payload?.sub) return null;
	// a ban (which also revokes) says so, rather than "expired": the pending step never completes
	if (await isUserBanned(ctx, pending.userId)) {
		clearPendingSignIn(ctx);
		throw new UserBanned(`User ${pending.userId} was banned during the sign-in; the second step was refused.`);
	}
	// a primary sign-in made before "sign out everywhere" or a password change does not become a session after it
	if (typeof pending.datedAt !== 'number' || isMadeBeforeRevocation(pending.datedAt, await ctx.config.revocation.store.revokedAt(pending.userId, ctx.now))) {
		clearPendingSignIn(ctx);
		return null;
	}
	const user = pending.user as AdapterUser;
	// dates went through JSON
	if (typeof user.emailVerified === 'string') user.emailVerified = new Date(user.emailVerified);
	return pending;
}

/** Queues the removal of the pending cookie. */
export function clearPendingSignIn(ctx: RequestContext): void {
	ctx.setCookies.push(...clearChunkedCookie(ctx.cookies, pendingCookie(ctx)));
}

/** A code that checked out: a TOTP code, or a recovery code (`remaining` left after it). */
export type UsedSecondFactor = { kind: 'totp' } | { kind: 'recovery'; remaining: number };

/**
 * Checks `input` against the user's second factor and spends it: six digits are a TOTP code
 * (±1 step, refused when its step is not later than the last one used, recorded atomically),
 * anything else a recovery code (removed atomically). Null when it does not check out.
 *
 * @example
 * const used = await useSecondFactor(ctx, user.id, record, body.code);
 */
export async function useSecondFactor(ctx: RequestContext, userId: string, record: AdapterTwoFactor, input: unknown): Promise<UsedSecondFactor | null> {
	const adapter = ctx.config.adapter!;
	const typed = typeof input === 'string' ? input.trim() : '';
	if (typed === '' || typed.length > 64) return null;
	if (/^\d{6}$/.test(typed.replace(/\s+/g, ''))) {
		assertAdapterMethods(adapter, ['useTotpStep']);
		const secret = await openTotpSecret(record.totpSecret, { secret: ctx.config.secrets, userId });
		if (!secret) {
			ctx.config.logger.error(new AdapterError(`The TOTP secret of user ${userId} does not open with the configured secrets (another user's, or a secret no longer configured).`));
			return null;
		}
		// loaded when a code is checked: apps without a second factor never load otpauth
		const { verifyTotp } = await import('./totp.js');
		const result = verifyTotp(typed, secret, { usedSteps: [record.lastUsedStep], now: ctx.now });
		if (!result.valid) return null;
		return (await adapter.useTotpStep(userId, result.step)) ? { kind: 'totp' } : null;
	}
	assertAdapterMethods(adapter, ['useRecoveryCode']);
	const result = verifyRecoveryCode(typed, record.recoveryCodes, { secret: ctx.config.secrets });
	if (!result.valid) return null;
	const used = await adapter.useRecoveryCode(userId, record.recoveryCodes[result.index]);
	return used ? { kind: 'recovery', remaining: result.remaining } : null;
}

// "Trust this browser for N days": after a second step with the box ticked, a sealed httpOnly
// cookie lets later primary sign-ins of that user in that browser skip the second step. It is bound
// to the user id and to the second factor as stored (a fingerprint that moves when the factor is
// removed, set up again, or its recovery codes change), and it is older than any "signed out
// everywhere" time the revocation store records for the user: either change revokes it.
// docs/decisions.md, "Trusted browsers".

import { base64url } from '../crypto/bytes.js';
import { digest } from '../crypto/hash.js';
import type { RequestContext } from '../request/context.js';
import { timeAfterRevocations } from '../session/revocation.js';
import type { AdapterTwoFactor, CookieOption } from '../types.js';
import { openFor, sealFor } from './purpose-seal.js';
import { trustMilliseconds } from '../config/two-factor-options.js';

const TRUST_SALT = 'kitgate.trusted-browser';

/** The revocation-store key of the time before which none of a user's browsers is trusted (never a user id). */
function trustEndKey(userId: string): string {
	return `kitgate.trust:${userId}`;
}

/**
 * Ends the trust of every browser of `userId` trusted until now, whatever its sessions do: after
 * the user ends one of their sessions from the account page (perhaps a thief's, whose browser was
 * trusted), that browser's next sign-in asks for the second step again. Nothing when trust is off.
 * Store failures are thrown.
 *
 * @example
 * await endBrowserTrust(ctx, user.id);
 */
export async function endBrowserTrust(ctx: RequestContext, userId: string): Promise<void> {
	const lifetime = trustMilliseconds(ctx.config.twoFactor);
	if (lifetime <= 0) return;
	await ctx.config.revocation.store.revoke(trustEndKey(userId), ctx.now, Math.ceil(lifetime / 1000), { owner: userId });
}

/**
 * The trust cookie: `kitgate.trusted-browser` (`__Host-` over HTTPS: this host only, path /),
 * httpOnly, SameSite=Lax, for `twoFactor.trustBrowserDays`.
 *
 * @example
 * const { name } = trustedBrowserCookie(ctx); // '__Host-kitgate.trusted-browser'
 */
export function trustedBrowserCookie(ctx: RequestContext): CookieOption {
	const secure = ctx.cookieNames.sessionToken.options.secure === true;
	return {
		name: `${secure ? '__Host-' : ''}kitgate.trusted-browser`,
		options: { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: Math.floor(trustMilliseconds(ctx.config.twoFactor) / 1000) }
	};
}

/**
 * A digest of the second factor as stored, without its last-used step (which moves at every
 * sign-in): another key, another enrolment date or other recovery codes give another digest. Pure.
 *
 * @example
 * factorFingerprint(record) // 'q3v…' (base64url SHA-256)
 */
export function factorFingerprint(record: AdapterTwoFactor): string {
	const createdAt = record.createdAt instanceof Date ? record.createdAt.getTime() : String(record.createdAt);
	const parts = [record.userId, String(createdAt), record.totpSecret, ...record.recoveryCodes];
	return base64url(digest('sha256', parts.join('\u0000')));
}


/**
 * Queues the trust cookie for `userId` whose second factor is now `record`; nothing when
 * `twoFactor.trustBrowserDays` is 0.
 *
 * @example
 * await trustThisBrowser(ctx, userId, await twoFactorOf(ctx, userId));
 */
export async function trustThisBrowser(ctx: RequestContext, userId: string, record: AdapterTwoFactor): Promise<void> {
	const lifetime = trustMilliseconds(ctx.config.twoFactor);
	if (lifetime <= 0) return;
	const value = await sealFor(ctx, TRUST_SALT, { sub: userId, factor: factorFingerprint(record), iat: await timeAfterRevocations(ctx, userId) }, Math.floor(lifetime / 1000));
	const option = trustedBrowserCookie(ctx);
	ctx.setCookies.push({ name: option.name, value, options: { ...option.options, expires: new Date(ctx.now + lifetime) } });
}

/**
 * Whether this browser is trusted to skip `userId`'s second step: trust is configured, the cookie
 * opens under this purpose's key and has not expired, names this user and this second factor, and
 * was set after any revocation of the user's sessions and any `endBrowserTrust`. A revocation store that fails answers false
 * (the second step is asked for, never skipped).
 *
 * @example
 * if (await isTrustedBrowser(ctx, userId, record)) return null; // no second step
 */
export async function isTrustedBrowser(ctx: RequestContext, userId: string, record: AdapterTwoFactor): Promise<boolean> {
	if (trustMilliseconds(ctx.config.twoFactor) <= 0) return false;
	const payload = await openFor(ctx, TRUST_SALT, ctx.cookies[trustedBrowserCookie(ctx).name]);
	if (!payload || payload.sub !== userId || payload.factor !== factorFingerprint(record)) return false;
	const issuedAt = payload.iat;
	// a cookie sealed longer ago than trust lasts now (the option was lowered) is not honoured either
	if (typeof issuedAt !== 'number' || issuedAt + trustMilliseconds(ctx.config.twoFactor) <= ctx.now) return false;
	try {
		const { store } = ctx.config.revocation;
		const [revokedAt, trustEndedAt] = await Promise.all([store.revokedAt(userId, ctx.now), store.revokedAt(trustEndKey(userId), ctx.now)]);
		return (revokedAt === null || issuedAt >= revokedAt) && (trustEndedAt === null || issuedAt > trustEndedAt);
	} catch (error) {
		ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)));
		return false;
	}
}

// Setting up a second factor, shared by the account routes and the forced enrolment of the sign-in
// (`twoFactor.required`): a new TOTP key shown as text, otpauth URI and QR code, sealed for one
// purpose and bound to the user and this browser; then, with the app's first code, the key stored
// sealed with ten recovery codes' hashes. Internal.

import { base64url } from '../crypto/bytes.js';
import { digest } from '../crypto/hash.js';
import { requestCsrf, type RequestContext } from '../request/context.js';
import { TwoFactorAlreadyEnabled } from '../errors.js';
import type { AdapterTwoFactor } from '../types.js';
import { openFor, sealFor } from './purpose-seal.js';
import { qrCodeSvg } from './qr-code.js';
import { generateRecoveryCodes } from './recovery-codes.js';
import { sealTotpSecret } from './totp-secret-seal.js';
import { generateTotpSecret, totpKeyUri } from './totp.js';
import { oneAtATime } from '../util/one-at-a-time.js';

/** Seconds an enrolment may take between start and confirm. */
export const ENROLMENT_SECONDS = 10 * 60;

/** What an enrolment shows: the key to show (QR code and text) and the sealed value to post back. */
export interface TwoFactorEnrolment {
	result: 'two-factor-started';
	/** The TOTP secret in base32, to type into an app that cannot scan. */
	secret: string;
	/** The otpauth:// URI the QR code holds. */
	uri: string;
	/** The QR code as an SVG element (numbers only: safe to inline). */
	qrCodeSvg: string;
	/** The sealed secret, bound to the user and this browser: post it back with the first code. */
	pending: string;
}

/** Who an enrolment is for, as the key's label in the authenticator app. */
export interface EnrollingUser {
	id: string;
	email?: string | null;
	name?: string | null;
}

/** The browser an enrolment belongs to: a hash of its CSRF token (cookie-bound). */
function browserBinding(ctx: RequestContext): string {
	return base64url(digest('sha256', `kitgate enrolment\u0000${requestCsrf(ctx).token}`));
}

/**
 * A new key for `user`, sealed for `purpose` with `bind` (e.g. the pending sign-in's id), this
 * browser and the user id.
 *
 * @example
 * const enrolment = await newEnrolment(ctx, user, 'kitgate.two-factor-enrolment');
 */
export async function newEnrolment(ctx: RequestContext, user: EnrollingUser, purpose: string, bind = ''): Promise<TwoFactorEnrolment> {
	const secret = generateTotpSecret();
	const pending = await sealFor(ctx, purpose, { sub: user.id, totp: secret, browser: browserBinding(ctx), bind }, ENROLMENT_SECONDS);
	return enrolmentView(ctx, user, secret, pending);
}

/**
 * What an enrolment shows: the key as text, as its otpauth:// URI and as a QR code, with its sealed value.
 *
 * @example
 * enrolmentView(ctx, user, 'JBSWY3DPEHPK3PXP', pending).uri // 'otpauth://totp/example.com:ada%40example.com?…'
 */
export function enrolmentView(ctx: RequestContext, user: EnrollingUser, secret: string, pending: string): TwoFactorEnrolment {
	const issuer = new URL(ctx.baseUrl).hostname.replace(/:/g, '') || 'kitgate';
	const accountName = (user.email || user.name || user.id).replace(/:/g, '') || user.id;
	const uri = totpKeyUri({ secret, issuer, accountName });
	return { result: 'two-factor-started', secret, uri, qrCodeSvg: qrCodeSvg(uri), pending };
}

/**
 * The key of a posted `pending` when it was sealed for `purpose`, this user, this browser and
 * `bind`; null otherwise (expired, tampered, another user's or browser's).
 *
 * @example
 * const opened = await openEnrolment(ctx, user.id, body.pending, 'kitgate.two-factor-enrolment');
 */
export async function openEnrolment(ctx: RequestContext, userId: string, sealed: unknown, purpose: string, bind = ''): Promise<{ totp: string } | null> {
	const payload = await openFor(ctx, purpose, sealed);
	if (!payload || payload.sub !== userId || payload.browser !== browserBinding(ctx) || payload.bind !== bind || typeof payload.totp !== 'string') return null;
	return { totp: payload.totp };
}

/**
 * Stores the confirmed key of `userId` (sealed) with ten new recovery codes' hashes; answers the
 * codes, to show once.
 *
 * @example
 * const codes = await storeTwoFactor(ctx, user.id, opened.totp, checked.step);
 */
export async function storeTwoFactor(ctx: RequestContext, userId: string, totp: string, lastUsedStep: number): Promise<{ codes: string[]; record: AdapterTwoFactor }> {
	// checked and written one at a time per user in this process: of two confirmations racing (two
	// tabs, or a thief's forced set-up beside the owner's), the second is refused, so every key and
	// list of codes shown is the one stored
	return oneAtATime(`two-factor\u0000${userId}`, async () => {
		if (await ctx.config.adapter!.getTwoFactor(userId)) throw new TwoFactorAlreadyEnabled('The user already has a second factor.');
		const { codes, hashes } = generateRecoveryCodes({ secret: ctx.config.secrets });
		const record = await ctx.config.adapter!.setTwoFactor({
			userId,
			totpSecret: await sealTotpSecret(totp, { secret: ctx.config.secrets, userId }),
			lastUsedStep,
			recoveryCodes: hashes,
			createdAt: new Date(ctx.now)
		});
		return { codes, record };
	});
}

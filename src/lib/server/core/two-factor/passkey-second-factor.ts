// A passkey as the second factor: after a password, email-link or OAuth sign-in of a user who has a
// second factor and a passkey, the second step may be that passkey instead of a code. The request
// options allow only the pending user's passkeys, and their challenge is issued for this pending
// sign-in alone (the passkey callback refuses it); the assertion goes through the passkey flow's
// own verification (owner, user handle, signature, origin, RP ID, counter). User presence
// suffices: the first factor was something else (docs/two-factor.md). Internal.

import { hasAdapterMethod } from '../store/adapter-guard.js';
import type { RequestContext } from '../request/context.js';
import { stringsEqual } from '../crypto/bytes.js';
import { InvalidRequest, WebAuthnVerificationError } from '../errors.js';
import { authenticationOptions, verifyAssertion, type VerifiedAssertion } from '../flows/passkey/webauthn-authenticate.js';
import { clientDataChallenge, storeChallenge, takeChallenge } from '../flows/passkey/webauthn-challenge.js';
import { relyingPartyOf } from '../flows/passkey/webauthn-relying-party.js';
import type { WebAuthnConfig } from '../types.js';
import { twoFactorOf, type PendingSignIn } from './second-factor.js';

/**
 * The passkey provider whose passkeys may be the second factor: the first `webauthn` provider
 * configured; undefined without one.
 *
 * @example
 * const provider = secondFactorPasskeyProvider(ctx);
 */
export function secondFactorPasskeyProvider(ctx: RequestContext): WebAuthnConfig | undefined {
	return ctx.config.providers.find((provider): provider is WebAuthnConfig => provider.type === 'webauthn');
}

/**
 * Whether the pending sign-in may finish with a passkey: a passkey provider is configured, the
 * adapter stores passkeys, the user has a second factor (a user still to set one up under
 * `twoFactor.required` must do so) and at least one passkey, and the first factor was not a passkey
 * (a passkey without user verification is one factor: the same passkey cannot be the second).
 * False, logged, when the adapter fails.
 *
 * @example
 * const offered = await passkeyStepOffered(ctx, pending); // the page shows "Use a passkey"
 */
export async function passkeyStepOffered(ctx: RequestContext, pending: PendingSignIn): Promise<boolean> {
	const adapter = ctx.config.adapter;
	if (!adapter || !secondFactorPasskeyProvider(ctx) || pending.account?.type === 'webauthn') return false;
	if (!(['listAuthenticatorsByUserId', 'getAuthenticator', 'updateAuthenticatorCounter', 'getUser'] as const).every((name) => hasAdapterMethod(adapter, name))) return false;
	try {
		if (!(await twoFactorOf(ctx, pending.userId))) return false;
		return (await adapter.listAuthenticatorsByUserId!(pending.userId)).length > 0;
	} catch (error) {
		// the page still offers the code
		ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)));
		return false;
	}
}

/**
 * Request options for the pending user's passkeys only (`allowCredentials`), user verification
 * `discouraged` (presence suffices for a second factor); the challenge joins the challenge cookie,
 * bound to this pending sign-in. `InvalidRequest` when the step is not offered.
 *
 * @example
 * const options = await passkeyStepOptions(ctx, pending); // { challenge, allowCredentials: [ada's], … }
 */
export async function passkeyStepOptions(ctx: RequestContext, pending: PendingSignIn) {
	const provider = secondFactorPasskeyProvider(ctx);
	if (!provider || !(await passkeyStepOffered(ctx, pending))) throw new InvalidRequest('This sign-in cannot finish with a passkey: the user has none, or no passkey provider is configured.');
	const { options, state } = await authenticationOptions(ctx, provider, relyingPartyOf(ctx, provider), pending.userId, 'discouraged');
	await storeChallenge(ctx, { ...state, secondFactor: pending.signInId });
	return options;
}

/**
 * Verifies the browser's passkey response (`data`) as the second factor of `pending`: it must
 * sign a challenge issued for this pending sign-in (taken once, the cookie cleared whatever the
 * outcome), come from one of the pending user's passkeys, and pass the passkey flow's checks
 * (user presence suffices). Stores the new counter; signs nobody in.
 * `WebAuthnVerificationError` or `InvalidRequest` otherwise.
 *
 * @example
 * const { authenticator } = await verifyPasskeyStep(ctx, pending, body.data);
 */
export async function verifyPasskeyStep(ctx: RequestContext, pending: PendingSignIn, data: unknown): Promise<VerifiedAssertion> {
	const state = await takeChallenge(ctx, clientDataChallenge(data));
	if (!state) throw new WebAuthnVerificationError('No passkey challenge: it expired, was used already, or was never issued.');
	// constant time: the sign-in id is a secret of the sealed pending cookie
	if (state.secondFactor === undefined || !stringsEqual(state.secondFactor, pending.signInId) || state.userId !== pending.userId || state.action !== 'authenticate') {
		throw new WebAuthnVerificationError('The challenge was not issued for this sign-in’s second step.');
	}
	const provider = secondFactorPasskeyProvider(ctx);
	if (!provider || state.provider !== provider.id) throw new WebAuthnVerificationError('The challenge was issued for another provider.');
	if (!data || typeof data !== 'object' || Array.isArray(data)) throw new InvalidRequest('`data` must be the passkey response JSON.');
	if (pending.account?.type === 'webauthn') throw new WebAuthnVerificationError('A passkey sign-in cannot take a passkey as its second factor.');
	return verifyAssertion(ctx, relyingPartyOf(ctx, provider), state, data as Record<string, unknown>, { requireUserVerification: false });
}

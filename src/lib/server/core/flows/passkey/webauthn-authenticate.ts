// Passkey authentication: request options (any discoverable passkey, or the passkeys of one
// user), the verification that checks owner, signature, origin, RP ID and counter (also used by a
// passkey as the second factor), and the sign-in after it.

import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { hasAdapterMethod, type GuardedAdapter } from '../../store/adapter-guard.js';
import type { RequestContext } from '../../request/context.js';
import { CallbackRouteError, InvalidRequest, WebAuthnVerificationError } from '../../errors.js';
import type { Outcome } from '../../response/outcome.js';
import { checkSignInAllowed } from '../sign-in-callback.js';
import type { Account, AdapterAuthenticator, AdapterUser, UserVerificationRequirement, WebAuthnConfig } from '../../types.js';
import { finishPasskeySignIn } from './webauthn-answer.js';
import { secondFactorGate } from '../../two-factor/second-factor.js';
import type { ChallengeState } from './webauthn-challenge.js';
import { loadWebAuthnServer } from './webauthn-library.js';
import type { RelyingParty } from './webauthn-relying-party.js';
import { base64url, fromAnyBase64 } from '../../crypto/bytes.js';
import { splitTransports } from './webauthn-register.js';
import { userHandleOf } from './webauthn-user.js';
import { refuseBannedUser } from '../../session/ban.js';

/**
 * Request options: with `userId`, only that user's passkeys are allowed; without, the browser
 * offers every discoverable passkey of the RP ID. `userVerification` defaults to the provider's.
 *
 * @example
 * const { options, state } = await authenticationOptions(ctx, provider, rp, undefined);
 */
export async function authenticationOptions(
	ctx: RequestContext,
	provider: WebAuthnConfig,
	rp: RelyingParty,
	userId: string | undefined,
	userVerification: UserVerificationRequirement = provider.userVerification ?? 'preferred'
) {
	const { generateAuthenticationOptions } = await loadWebAuthnServer(ctx.config.providers);
	const allowed = userId ? await ctx.config.adapter!.listAuthenticatorsByUserId(userId) : [];
	const options = await generateAuthenticationOptions({
		rpID: rp.id,
		allowCredentials: allowed.map((a) => ({ id: a.credentialID, transports: splitTransports(a.transports) })),
		timeout: provider.timeout ?? 60_000,
		userVerification
	});
	const state: ChallengeState = { challenge: options.challenge, action: 'authenticate', provider: provider.id, ...(userId ? { userId } : {}) };
	return { options, state };
}

/** A verified assertion: the stored passkey it came from (its counter stored), its owner, and whether the user was verified. */
export interface VerifiedAssertion {
	authenticator: AdapterAuthenticator;
	user: AdapterUser;
	userVerified: boolean;
}

/**
 * Verifies an authentication response for a stored authenticator: its owner (the state's user,
 * when it names one), user handle, signature over the state's challenge, origin, RP ID and counter
 * (one that did not grow, when the stored one is above 0, is refused as a possible clone); then
 * stores the new counter and when the passkey was used. Signs nobody in.
 *
 * @example
 * const { user, userVerified } = await verifyAssertion(ctx, rp, state, data, { requireUserVerification: false });
 */
export async function verifyAssertion(
	ctx: RequestContext,
	rp: RelyingParty,
	state: ChallengeState,
	data: Record<string, unknown>,
	options: { requireUserVerification: boolean }
): Promise<VerifiedAssertion> {
	const { verifyAuthenticationResponse } = await loadWebAuthnServer(ctx.config.providers);
	const adapter = ctx.config.adapter!;
	const credentialID = data.id;
	if (typeof credentialID !== 'string' || !credentialID) throw new InvalidRequest('The passkey response has no credential id.');
	const authenticator = await adapter.getAuthenticator(credentialID);
	if (!authenticator) throw new WebAuthnVerificationError('No passkey with this credential ID is registered.');
	if (state.userId && authenticator.userId !== state.userId) {
		throw new WebAuthnVerificationError('The passkey belongs to another user than the one asked for.');
	}
	assertUserHandle(data, authenticator);

	let newCounter: number;
	let userVerified: boolean;
	try {
		const verification = await verifyAuthenticationResponse({
			response: data as unknown as AuthenticationResponseJSON,
			expectedChallenge: state.challenge,
			expectedOrigin: rp.origins,
			expectedRPID: rp.id,
			// 0: the library's own counter check would run before the signature check; ours runs after it
			credential: {
				id: authenticator.credentialID,
				publicKey: decodeStoredKey(authenticator.credentialPublicKey),
				counter: 0,
				transports: splitTransports(authenticator.transports)
			},
			requireUserVerification: options.requireUserVerification
		});
		if (!verification.verified) throw new Error('signature not verified');
		newCounter = verification.authenticationInfo.newCounter;
		userVerified = verification.authenticationInfo.userVerified === true;
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		throw new WebAuthnVerificationError(`The authentication response did not verify: ${message}`, { cause: { err: error } });
	}
	if (authenticator.counter > 0 && newCounter <= authenticator.counter) {
		ctx.config.logger.warn(
			'webauthn-counter-regression',
			`Passkey ${authenticator.credentialID} of user ${authenticator.userId} sent counter ${newCounter}, stored ${authenticator.counter}: ` +
				'it may have been cloned. The sign-in was refused.'
		);
		throw new WebAuthnVerificationError('The authenticator counter did not increase (possible cloned authenticator).');
	}

	try {
		if (newCounter !== authenticator.counter) await adapter.updateAuthenticatorCounter(authenticator.credentialID, newCounter);
	} catch (error) {
		throw new CallbackRouteError('Storing the authenticator counter failed.', { cause: { err: error } });
	}
	const user = await adapter.getUser(authenticator.userId);
	if (!user) throw new WebAuthnVerificationError('The owner of this passkey no longer exists.');
	await recordUse(ctx, adapter, authenticator.credentialID);
	return { authenticator, user, userVerified };
}

/**
 * Verifies an authentication response (verifyAssertion) and signs the passkey's owner in; without
 * user verification, a user with a second factor goes on to the second step.
 *
 * @example
 * return verifyAuthentication(ctx, provider, rp, state, data, callbackUrl);
 */
export async function verifyAuthentication(
	ctx: RequestContext,
	provider: WebAuthnConfig,
	rp: RelyingParty,
	state: ChallengeState,
	data: Record<string, unknown>,
	callbackUrl: string
): Promise<Outcome> {
	const { authenticator, user, userVerified } = await verifyAssertion(ctx, rp, state, data, { requireUserVerification: provider.userVerification === 'required' });
	const account: Account = { provider: provider.id, type: 'webauthn', providerAccountId: authenticator.providerAccountId };
	await refuseBannedUser(ctx, user.id);
	const denied = await checkSignInAllowed(ctx, { user, account });
	if (denied) return { type: 'json', body: { url: denied.redirect } };
	// a passkey is both factors only with user verification; presence alone (a security key without
	// its PIN) is one factor: a user with a second factor goes on to the second step
	if (!userVerified) {
		const gated = await secondFactorGate(ctx, { userId: user.id, user, account, callbackUrl });
		if (gated?.type === 'redirect') return { type: 'json', body: { url: gated.url } };
	}
	return finishPasskeySignIn(ctx, { user, account, isNewUser: false, callbackUrl });
}

/** A discoverable credential names its user: it must be the authenticator's owner. */
function assertUserHandle(data: Record<string, unknown>, authenticator: AdapterAuthenticator): void {
	const response = data.response as { userHandle?: unknown } | undefined;
	const handle = response?.userHandle;
	if (handle === undefined || handle === null || handle === '') return;
	const expected = base64url(userHandleOf(authenticator.userId));
	if (handle !== expected) throw new WebAuthnVerificationError('The passkey response names another user than its owner.');
}

/** Records when the passkey last signed in, for adapters that keep it; a failure is only logged. */
async function recordUse(ctx: RequestContext, adapter: GuardedAdapter, credentialID: string): Promise<void> {
	if (!hasAdapterMethod(adapter, 'updateAuthenticator')) return;
	try {
		await adapter.updateAuthenticator(credentialID, { lastUsedAt: new Date(ctx.now) });
	} catch (error) {
		ctx.config.logger.error(new CallbackRouteError('Could not record when the passkey was used.', { cause: { err: error } }));
	}
}

/** A stored public key: base64url as kitgate writes it, or base64 as Auth.js does; an unreadable one matches nothing. */
function decodeStoredKey(stored: string): Uint8Array<ArrayBuffer> {
	return fromAnyBase64(stored) ?? new Uint8Array(0);
}

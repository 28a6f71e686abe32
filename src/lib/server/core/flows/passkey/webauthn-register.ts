// Passkey registration: creation options for a user (existing and signed in, or new), and the
// verification that stores the credential, links a `webauthn` account and signs the user in.

import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { isUniqueViolation } from '../../store/unique-violation.js';
import { hasAdapterMethod, type GuardedAdapter } from '../../store/adapter-guard.js';
import { signedInUser } from '../complete-sign-in.js';
import type { RequestContext } from '../../request/context.js';
import { AccessDenied, AuthError, CallbackRouteError, WebAuthnVerificationError } from '../../errors.js';
import { emitEvent } from '../../config/events.js';
import type { Outcome } from '../../response/outcome.js';
import { checkSignInAllowed } from '../sign-in-callback.js';
import type { Account, AdapterAuthenticator, AdapterUser, PasskeyUserInfo, WebAuthnConfig } from '../../types.js';
import { finishPasskeySignIn } from './webauthn-answer.js';
import type { ChallengeState } from './webauthn-challenge.js';
import { loadWebAuthnServer } from './webauthn-library.js';
import type { RelyingParty } from './webauthn-relying-party.js';
import { userHandleOf } from './webauthn-user.js';
import { base64url } from '../../crypto/bytes.js';
import { sendSecurityNotice } from '../../account/security-notice.js';
import { endEmailChangeLinks } from '../../account/email-change-links.js';
import { secondFactorGate } from '../../two-factor/second-factor.js';
import { refuseBannedUser } from '../../session/ban.js';
import { recordUserCreated } from '../sign-in-bookkeeping.js';

/**
 * Transports as the adapter stores them back to a list.
 *
 * @example splitTransports('internal,hybrid') // ['internal', 'hybrid']
 */
export function splitTransports(transports: string | null | undefined): string[] | undefined {
	return transports ? transports.split(',').filter(Boolean) : undefined;
}

/**
 * Creation options for `info.user`, and the challenge state the callback needs. A new user gets
 * an id now: it becomes the credential's user handle and, on success, the stored user's id.
 *
 * @example
 * const { options, state } = await registrationOptions(ctx, provider, rp, info);
 */
export async function registrationOptions(
	ctx: RequestContext,
	provider: WebAuthnConfig,
	rp: RelyingParty,
	info: PasskeyUserInfo
) {
	const { generateRegistrationOptions } = await loadWebAuthnServer(ctx.config.providers);
	const adapter = ctx.config.adapter!;
	const userId = info.exists ? (info.user.id as string) : (info.user.id ?? crypto.randomUUID());
	// the user's own passkeys are excluded so one authenticator is not registered twice
	const existing = info.exists ? await adapter.listAuthenticatorsByUserId(userId) : [];
	const userVerification = provider.userVerification ?? 'preferred';
	const options = await generateRegistrationOptions({
		rpName: rp.name,
		rpID: rp.id,
		userName: info.user.email || info.user.name || userId,
		userID: userHandleOf(userId),
		userDisplayName: info.user.name ?? info.user.email ?? '',
		timeout: provider.timeout ?? 60_000,
		attestationType: 'none',
		excludeCredentials: existing.map((a) => ({ id: a.credentialID, transports: splitTransports(a.transports) })),
		authenticatorSelection: { residentKey: 'required', userVerification, ...provider.authenticatorSelection }
	});
	const state: ChallengeState = {
		challenge: options.challenge,
		action: 'register',
		provider: provider.id,
		userId,
		...(info.exists ? {} : { newUser: { email: info.user.email, name: info.user.name ?? null } })
	};
	return { options, state };
}

/**
 * Verifies a registration response against the challenge, origin and RP ID, then stores the
 * user (when new), the `webauthn` account and the authenticator, and signs the user in.
 *
 * @example
 * return verifyRegistration(ctx, provider, rp, state, data, callbackUrl);
 */
export async function verifyRegistration(
	ctx: RequestContext,
	provider: WebAuthnConfig,
	rp: RelyingParty,
	state: ChallengeState,
	data: Record<string, unknown>,
	callbackUrl: string
): Promise<Outcome> {
	const { verifyRegistrationResponse } = await loadWebAuthnServer(ctx.config.providers);
	const adapter = ctx.config.adapter!;
	let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
	try {
		verification = await verifyRegistrationResponse({
			response: data as unknown as RegistrationResponseJSON,
			expectedChallenge: state.challenge,
			expectedOrigin: rp.origins,
			expectedRPID: rp.id,
			requireUserVerification: provider.userVerification === 'required'
		});
	} catch (error) {
		throw new WebAuthnVerificationError(`The registration response did not verify: ${messageOf(error)}`, { cause: { err: error } });
	}
	if (!verification.verified) throw new WebAuthnVerificationError('The registration response did not verify.');
	const { credential, credentialDeviceType, credentialBackedUp, aaguid, userVerified } = verification.registrationInfo;

	const owner = await registrationOwner(ctx, adapter, state);
	if (await adapter.getAuthenticator(credential.id)) {
		throw new WebAuthnVerificationError('This credential is already registered.');
	}
	const account: Account = { provider: provider.id, type: 'webauthn', providerAccountId: credential.id };
	if (!owner.isNew) await refuseBannedUser(ctx, owner.user.id);
	const denied = await checkSignInAllowed(ctx, { user: owner.user, account });
	if (denied) return { type: 'json', body: { url: denied.redirect } };

	const authenticator: AdapterAuthenticator = {
		credentialID: credential.id,
		credentialPublicKey: base64url(credential.publicKey),
		counter: credential.counter,
		credentialDeviceType,
		credentialBackedUp,
		transports: credential.transports?.length ? credential.transports.join(',') : null,
		providerAccountId: credential.id,
		userId: owner.user.id,
		// what account management shows, for adapters that keep it (they have updateAuthenticator)
		...(hasAdapterMethod(adapter, 'updateAuthenticator') ? { aaguid: aaguid || null, createdAt: new Date(ctx.now) } : {})
	};
	const user = await storePasskey(ctx, adapter, owner, account, authenticator);
	if (owner.isNew) {
		await recordUserCreated(ctx, user.id);
		await emitEvent(ctx, 'createUser', { user });
	}
	await emitEvent(ctx, 'linkAccount', { user, account, profile: user });
	// a new way in to an existing account (perhaps a thief's, to stay): its owner hears of it
	if (!owner.isNew) {
		await endEmailChangeLinks(ctx, user.id);
		await sendSecurityNotice(ctx, user.email, 'passkey-added');
	}
	// without user verification the passkey is one factor: a user with (or required to have) a second goes to that step
	if (!userVerified) {
		const gated = await secondFactorGate(ctx, { userId: user.id, user, account, isNewUser: owner.isNew, callbackUrl });
		if (gated?.type === 'redirect') return { type: 'json', body: { url: gated.url } };
	}
	return finishPasskeySignIn(ctx, { user, account, isNewUser: owner.isNew, callbackUrl });
}

/**
 * The user the credential goes to, re-checked now: the same signed-in user as when the options
 * were issued, or a new user (nobody signed in). A new user is not keyed on the email it was
 * registered with: a passkey proves no address, so the address only labels the user (`name`).
 */
async function registrationOwner(
	ctx: RequestContext,
	adapter: GuardedAdapter,
	state: ChallengeState
): Promise<{ user: AdapterUser; isNew: boolean }> {
	const signedIn = await signedInUser(ctx, adapter);
	if (state.newUser) {
		if (signedIn) throw new AccessDenied('Someone signed in after the passkey options were issued; start again.');
		const { email, name } = state.newUser;
		const user: AdapterUser = { id: state.userId as string, email: '', name: name ?? (email || null), image: null, emailVerified: null };
		return { user, isNew: true };
	}
	if (!signedIn || signedIn.id !== state.userId) {
		throw new AccessDenied('A passkey is added only for the user who asked for it while signed in.');
	}
	return { user: signedIn, isNew: false };
}

/** Writes user (when new), account and authenticator; undoes what it wrote when a step fails. */
async function storePasskey(
	ctx: RequestContext,
	adapter: GuardedAdapter,
	owner: { user: AdapterUser; isNew: boolean },
	account: Account,
	authenticator: AdapterAuthenticator
): Promise<AdapterUser> {
	let user = owner.user;
	let created = false;
	let linked = false;
	try {
		if (owner.isNew) {
			user = await adapter.createUser(owner.user);
			created = true;
		}
		await adapter.linkAccount({ ...account, type: 'webauthn', userId: user.id });
		linked = true;
		await adapter.createAuthenticator(authenticator);
		return user;
	} catch (error) {
		await undoPasskeyWrites(ctx, adapter, { created, linked, userId: user.id, account });
		// checked first: adapters report a lost race as UniqueViolationError, itself an AuthError
		if (isUniqueViolation(error)) {
			throw new AccessDenied('The email or credential was registered by another request meanwhile.', { cause: { err: error } });
		}
		if (error instanceof AuthError) throw error;
		throw new CallbackRouteError('Storing the passkey failed.', { cause: { err: error } });
	}
}

async function undoPasskeyWrites(
	ctx: RequestContext,
	adapter: GuardedAdapter,
	written: { created: boolean; linked: boolean; userId: string; account: Account }
): Promise<void> {
	try {
		// deleting a new user cascades to its account; an existing user only loses the new link
		if (written.created) await adapter.deleteUser(written.userId);
		else if (written.linked) await adapter.unlinkAccount({ provider: written.account.provider, providerAccountId: written.account.providerAccountId });
	} catch (error) {
		ctx.config.logger.error(new CallbackRouteError('Could not undo a partly stored passkey.', { cause: { err: error } }));
	}
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

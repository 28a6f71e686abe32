// Error classes of kitgate, one per code of the failure table (`src/lib/failures.ts`), and the
// helpers that narrow them. Re-exported from the root entry `kitgate`.

import { failures, type ErrorType } from '../../failures.js';

export { errorPageStatus, failures, isErrorType, type ErrorType, type FailureRule, type FailurePage, type FailureLogLevel } from '../../failures.js';

/** Base class of all kitgate errors. */
export class AuthError extends Error {
	/** Stable identifier of the error kind. */
	type: ErrorType = 'Configuration';

	constructor(message?: string | ErrorOptions, errorOptions?: ErrorOptions) {
		if (typeof message === 'string') super(message, errorOptions);
		else super(undefined, message);
		this.name = this.constructor.name;
	}
}

// a class per code, its default message from the failure table
function errorClass<Type extends ErrorType>(type: Type) {
	const defaultMessage = failures[type].defaultMessage;
	return class extends AuthError {
		static type: Type = type;
		declare type: Type;
		constructor(message?: string | ErrorOptions, errorOptions?: ErrorOptions) {
			super(message ?? defaultMessage, errorOptions);
			this.type = type;
			if (!this.message) this.message = defaultMessage;
		}
	};
}

/** The configuration is invalid; the message says what to change. */
export class InvalidConfiguration extends errorClass('Configuration') {}
/** No secret, or a secret shorter than 32 characters. */
export class MissingSecret extends errorClass('MissingSecret') {}
/** The request's host is not trusted (`trustHost` / `AUTH_TRUST_HOST`). */
export class UntrustedHost extends errorClass('UntrustedHost') {}
/** Two providers share an id. */
export class DuplicateProviderId extends errorClass('DuplicateProviderId') {}
/** A feature behind `experimental` is used without being enabled. */
export class ExperimentalFeatureNotEnabled extends errorClass('ExperimentalFeatureNotEnabled') {}
/** A flow needs an adapter and none is configured. */
export class MissingAdapter extends errorClass('MissingAdapter') {}
/** The adapter lacks a method the engine needs. */
export class MissingAdapterMethod extends errorClass('MissingAdapterMethod') {}
/** An adapter method failed. */
export class AdapterError extends errorClass('AdapterError') {}
/** The session strategy cannot be used with this configuration. */
export class UnsupportedStrategy extends errorClass('UnsupportedStrategy') {}
/** The CSRF token is missing or does not match. */
export class MissingCSRF extends errorClass('MissingCSRF') {}
/** The route does not exist. */
export class UnknownAction extends errorClass('UnknownAction') {}
/** The provider id is unknown, or the provider cannot do what was asked. */
export class InvalidProvider extends errorClass('InvalidProvider') {}
/** The request is malformed (body, parameters). */
export class InvalidRequest extends errorClass('InvalidRequest') {}
/** The callback URL is not allowed. */
export class InvalidCallbackUrl extends errorClass('InvalidCallbackUrl') {}
/** The `signIn` callback refused, or threw. */
export class AccessDenied extends errorClass('AccessDenied') {}
/** Something failed while handling a callback; the cause is logged. */
export class CallbackRouteError extends errorClass('CallbackRouteError') {}
/** The session JWT could not be decoded or encoded. */
export class JWTSessionError extends errorClass('JWTSessionError') {}
/** An event handler threw; the flow continues. */
export class EventError extends errorClass('EventError') {}
/** Starting an OAuth sign-in failed. */
export class OAuthSignin extends errorClass('OAuthSignin') {}
/** The OAuth callback failed (provider error, invalid response). */
export class OAuthCallbackError extends errorClass('OAuthCallbackError') {}
/** An OAuth callback check (state, PKCE, nonce) failed. */
export class InvalidCheck extends errorClass('InvalidCheck') {}
/** The email is already used by a user signed in with another provider. */
export class OAuthAccountNotLinked extends errorClass('OAuthAccountNotLinked') {}
/** Sending the sign-in email failed. */
export class EmailSignin extends errorClass('EmailSignin') {}
/** The email link is invalid, expired or used. */
export class Verification extends errorClass('Verification') {}
/** A passkey response did not verify: challenge, origin, RP ID, signature, counter or credential. */
export class WebAuthnVerificationError extends errorClass('WebAuthnVerificationError') {}

/** The route does not take this HTTP method. */
export class MethodNotAllowed extends errorClass('MethodNotAllowed') {}
/** The request body is larger than kitgate reads. */
export class PayloadTooLarge extends errorClass('PayloadTooLarge') {}
/** Too many sign-in attempts or email links for this identifier or client address; retry later. */
export class RateLimited extends errorClass('RateLimited') {}
/** The request needs a signed-in user and carries no session. */
export class SessionRequired extends errorClass('SessionRequired') {}
/** A sensitive account change needs a more recent sign-in (`account.freshSignIn.maxAge`). */
export class FreshSignInRequired extends errorClass('FreshSignInRequired') {}
/** Removing this account or passkey would leave the user no way to sign in. */
export class LastSignInMethod extends errorClass('LastSignInMethod') {}
/** The second-factor code (TOTP or recovery code) is wrong, malformed or already used. */
export class InvalidSecondFactor extends errorClass('InvalidSecondFactor') {}
/** The second sign-in step has no valid pending sign-in (missing, expired or tampered cookie). */
export class SecondFactorExpired extends errorClass('SecondFactorExpired') {}
/** The user already has a second factor. */
export class TwoFactorAlreadyEnabled extends errorClass('TwoFactorAlreadyEnabled') {}
/** The user has no second factor. */
export class TwoFactorNotEnabled extends errorClass('TwoFactorNotEnabled') {}
/** The caller of an admin route or of `adminApi` is not an admin (or is an impersonated session). */
export class AdminRequired extends errorClass('AdminRequired') {}
/** An admin tried to change an admin, themselves included (docs/admin.md, "Who is an admin"). */
export class AdminTargetForbidden extends errorClass('AdminTargetForbidden') {}
/** No stored user has the id an admin named. */
export class UserNotFound extends errorClass('UserNotFound') {}
/** An admin tried to create a user whose email address another user has. */
export class UserExists extends errorClass('UserExists') {}
/** The user is banned: every sign-in method refuses them. */
export class UserBanned extends errorClass('UserBanned') {}
/** An impersonated session tried a change it may not make (credentials, account, admin routes). */
export class ImpersonationForbidden extends errorClass('ImpersonationForbidden') {}
/** No organization has the id named, or the caller is not its member (one answer for both). */
export class OrganizationNotFound extends errorClass('OrganizationNotFound') {}
/** The caller's role in the organization does not allow the change. */
export class OrganizationForbidden extends errorClass('OrganizationForbidden') {}
/** Another organization has the slug. */
export class OrganizationSlugTaken extends errorClass('OrganizationSlugTaken') {}
/** The change would leave the organization without an owner. */
export class OrganizationLastOwner extends errorClass('OrganizationLastOwner') {}
/** The member or team named is not in the organization. */
export class OrganizationMemberNotFound extends errorClass('OrganizationMemberNotFound') {}
/** The address or user already belongs to the organization. */
export class OrganizationAlreadyMember extends errorClass('OrganizationAlreadyMember') {}
/** No invitation has the token (unknown, malformed or forged). */
export class InvitationInvalid extends errorClass('InvitationInvalid') {}
/** The invitation expired. */
export class InvitationExpired extends errorClass('InvitationExpired') {}
/** The invitation was revoked. */
export class InvitationRevoked extends errorClass('InvitationRevoked') {}
/** The invitation was already accepted. */
export class InvitationUsed extends errorClass('InvitationUsed') {}
/** The signed-in user's address is not the invited one. */
export class InvitationWrongAddress extends errorClass('InvitationWrongAddress') {}

/**
 * Thrown from a credentials provider's `authorize()` to refuse a sign-in.
 * `code` goes into the redirect URL (`?error=CredentialsSignin&code=…`), so keep it generic.
 *
 * @example
 * class InvalidLogin extends CredentialsSignin { code = "invalid_login" }
 */
export class CredentialsSignin extends AuthError {
	static type = 'CredentialsSignin' as const;
	declare type: 'CredentialsSignin';
	/**
	 * Also true for a framework error an integration marked as a credentials failure (the SvelteKit
	 * form action throws SvelteKit's 401 error so an uncaught one is not a 500): `catch (e) { if (e
	 * instanceof CredentialsSignin) … }` works either way.
	 */
	static [Symbol.hasInstance](value: unknown): boolean {
		if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
		return this === CredentialsSignin && typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CREDENTIALS_FAILURE] === true;
	}
	/** Safe-to-show code placed in the redirect URL. */
	code = 'credentials';
	constructor(message?: string | ErrorOptions, errorOptions?: ErrorOptions) {
		super(message ?? failures.CredentialsSignin.defaultMessage, errorOptions);
		this.type = 'CredentialsSignin';
	}
}

/** Marks an integration's own error object as a credentials failure (see `CredentialsSignin`). Registered. */
export const CREDENTIALS_FAILURE = Symbol.for('kitgate.credentialsFailure');


/**
 * The class of each error code; a code of the failure table without a class here (or a class
 * without a code) does not compile.
 */
export const errorClasses = {
	AccessDenied,
	AdapterError,
	AdminRequired,
	AdminTargetForbidden,
	CallbackRouteError,
	Configuration: InvalidConfiguration,
	CredentialsSignin,
	DuplicateProviderId,
	EmailSignin,
	EventError,
	ExperimentalFeatureNotEnabled,
	FreshSignInRequired,
	ImpersonationForbidden,
	InvalidCallbackUrl,
	InvalidCheck,
	InvalidProvider,
	InvalidRequest,
	InvalidSecondFactor,
	InvitationExpired,
	InvitationInvalid,
	InvitationRevoked,
	InvitationUsed,
	InvitationWrongAddress,
	JWTSessionError,
	LastSignInMethod,
	MethodNotAllowed,
	MissingAdapter,
	MissingAdapterMethod,
	MissingCSRF,
	MissingSecret,
	OAuthAccountNotLinked,
	OAuthCallbackError,
	OAuthSignin,
	OrganizationAlreadyMember,
	OrganizationForbidden,
	OrganizationLastOwner,
	OrganizationMemberNotFound,
	OrganizationNotFound,
	OrganizationSlugTaken,
	PayloadTooLarge,
	RateLimited,
	SecondFactorExpired,
	SessionRequired,
	TwoFactorAlreadyEnabled,
	TwoFactorNotEnabled,
	UnknownAction,
	UnsupportedStrategy,
	UntrustedHost,
	UserBanned,
	UserExists,
	UserNotFound,
	Verification,
	WebAuthnVerificationError
} as const satisfies { [Type in ErrorType]: abstract new (...args: never[]) => AuthError & { type: Type } };

/**
 * Narrows `error` to a kitgate error, optionally of one code. Works across copies of kitgate (it
 * checks the shape, not the class).
 *
 * @example
 * if (isAuthError(error, 'CredentialsSignin')) console.log(error.code);
 */
export function isAuthError<Type extends ErrorType = ErrorType>(
	error: unknown,
	type?: Type
): error is InstanceType<(typeof errorClasses)[Type]> {
	if (!(error instanceof Error)) return false;
	const actual = (error as { type?: unknown }).type;
	if (typeof actual !== 'string' || !Object.hasOwn(failures, actual)) return false;
	return type === undefined || actual === type;
}

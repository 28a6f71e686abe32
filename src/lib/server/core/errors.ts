// Error classes of kitgate. Each has a stable `type` string: the error page, the message
// table and the docs are keyed by it. Re-exported from the root entry `kitgate`.

/** Every stable error type kitgate reports. */
export type ErrorType =
	| 'AccessDenied'
	| 'AdapterError'
	| 'CallbackRouteError'
	| 'Configuration'
	| 'CredentialsSignin'
	| 'DuplicateProviderId'
	| 'EmailSignin'
	| 'EventError'
	| 'ExperimentalFeatureNotEnabled'
	| 'InvalidCallbackUrl'
	| 'InvalidCheck'
	| 'InvalidProvider'
	| 'InvalidRequest'
	| 'JWTSessionError'
	| 'MissingAdapter'
	| 'MissingAdapterMethod'
	| 'MissingCSRF'
	| 'MissingSecret'
	| 'OAuthAccountNotLinked'
	| 'OAuthCallbackError'
	| 'OAuthSignin'
	| 'RateLimited'
	| 'SessionTokenError'
	| 'SignOutError'
	| 'UnknownAction'
	| 'UnsupportedStrategy'
	| 'UntrustedHost'
	| 'Verification'
	| 'WebAuthnVerificationError';

/** Base class of all kitgate errors. */
export class AuthError extends Error {
	/** Stable identifier of the error kind. */
	type: ErrorType = 'Configuration';
	/** Marks configuration errors: these fail at start-up. */
	static kind: 'signIn' | 'error' = 'error';

	constructor(message?: string | ErrorOptions, errorOptions?: ErrorOptions) {
		if (typeof message === 'string') super(message, errorOptions);
		else super(undefined, message);
		this.name = this.constructor.name;
	}
}

function errorClass(type: ErrorType, defaultMessage: string) {
	return class extends AuthError {
		static type: ErrorType = type;
		constructor(message?: string | ErrorOptions, errorOptions?: ErrorOptions) {
			super(message ?? defaultMessage, errorOptions);
			this.type = type;
			if (!this.message) this.message = defaultMessage;
		}
	};
}

/** The configuration is invalid; the message says what to change. */
export class InvalidConfiguration extends errorClass('Configuration', 'Invalid configuration') {}
/** No secret, or a secret shorter than 32 characters. */
export class MissingSecret extends errorClass('MissingSecret', 'Missing secret') {}
/** The request's host is not trusted (`trustHost` / `AUTH_TRUST_HOST`). */
export class UntrustedHost extends errorClass('UntrustedHost', 'Untrusted host') {}
/** Two providers share an id. */
export class DuplicateProviderId extends errorClass('DuplicateProviderId', 'Duplicate provider id') {}
/** A feature behind `experimental` is used without being enabled. */
export class ExperimentalFeatureNotEnabled extends errorClass(
	'ExperimentalFeatureNotEnabled',
	'Experimental feature not enabled'
) {}
/** A flow needs an adapter and none is configured. */
export class MissingAdapter extends errorClass('MissingAdapter', 'Missing adapter') {}
/** The adapter lacks a method the engine needs. */
export class MissingAdapterMethod extends errorClass('MissingAdapterMethod', 'Missing adapter method') {}
/** An adapter method failed. */
export class AdapterError extends errorClass('AdapterError', 'Adapter error') {}
/** The session strategy cannot be used with this configuration. */
export class UnsupportedStrategy extends errorClass('UnsupportedStrategy', 'Unsupported strategy') {}
/** The CSRF token is missing or does not match. */
export class MissingCSRF extends errorClass('MissingCSRF', 'CSRF token missing or invalid') {}
/** The route does not exist. */
export class UnknownAction extends errorClass('UnknownAction', 'Unknown action') {}
/** The provider id is unknown, or the provider cannot do what was asked. */
export class InvalidProvider extends errorClass('InvalidProvider', 'Invalid provider') {}
/** The request is malformed (body, parameters). */
export class InvalidRequest extends errorClass('InvalidRequest', 'Invalid request') {}
/** The callback URL is not allowed. */
export class InvalidCallbackUrl extends errorClass('InvalidCallbackUrl', 'Invalid callback URL') {}
/** The `signIn` callback refused, or threw. */
export class AccessDenied extends errorClass('AccessDenied', 'Access denied') {}
/** Something failed while handling a callback; the cause is logged. */
export class CallbackRouteError extends errorClass('CallbackRouteError', 'Callback failed') {}
/** The session JWT could not be decoded or encoded. */
export class JWTSessionError extends errorClass('JWTSessionError', 'Invalid session token') {}
/** A database session could not be read. */
export class SessionTokenError extends errorClass('SessionTokenError', 'Session token error') {}
/** Signing out failed. */
export class SignOutError extends errorClass('SignOutError', 'Sign-out failed') {}
/** An event handler threw; the flow continues. */
export class EventError extends errorClass('EventError', 'Event handler failed') {}
/** Starting an OAuth sign-in failed. */
export class OAuthSignin extends errorClass('OAuthSignin', 'OAuth sign-in failed') {}
/** The OAuth callback failed (provider error, invalid response). */
export class OAuthCallbackError extends errorClass('OAuthCallbackError', 'OAuth callback failed') {}
/** An OAuth callback check (state, PKCE, nonce) failed. */
export class InvalidCheck extends errorClass('InvalidCheck', 'Invalid check') {}
/** The email is already used by a user signed in with another provider. */
export class OAuthAccountNotLinked extends errorClass('OAuthAccountNotLinked', 'Account not linked') {}
/** Sending the sign-in email failed. */
export class EmailSignin extends errorClass('EmailSignin', 'Email sign-in failed') {}
/** The email link is invalid, expired or used. */
export class Verification extends errorClass('Verification', 'Verification failed') {}
/** A passkey response did not verify: challenge, origin, RP ID, signature, counter or credential. */
export class WebAuthnVerificationError extends errorClass('WebAuthnVerificationError', 'Passkey verification failed') {}

/** Too many sign-in attempts or email links for this identifier or client address; retry later. */
export class RateLimited extends errorClass('RateLimited', 'Too many attempts') {}

/**
 * Thrown from a credentials provider's `authorize()` to refuse a sign-in.
 * `code` goes into the redirect URL (`?error=CredentialsSignin&code=…`), so keep it generic.
 *
 * @example
 * class InvalidLogin extends CredentialsSignin { code = "invalid_login" }
 */
export class CredentialsSignin extends AuthError {
	static type: ErrorType = 'CredentialsSignin';
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
		super(message ?? 'Invalid credentials', errorOptions);
		this.type = 'CredentialsSignin';
	}
}

/** Marks an integration's own error object as a credentials failure (see `CredentialsSignin`). Registered. */
export const CREDENTIALS_FAILURE = Symbol.for('kitgate.credentialsFailure');

/** Configuration error types: they fail at start-up. */
export const configurationErrorTypes: ReadonlySet<ErrorType> = new Set<ErrorType>([
	'Configuration',
	'MissingSecret',
	'UntrustedHost',
	'DuplicateProviderId',
	'ExperimentalFeatureNotEnabled',
	'MissingAdapter',
	'UnsupportedStrategy'
]);

/** Error types a user can fix by trying again on the sign-in page. */
export const signInErrorTypes: ReadonlySet<ErrorType> = new Set<ErrorType>([
	'CredentialsSignin',
	'OAuthSignin',
	'OAuthCallbackError',
	'OAuthAccountNotLinked',
	'InvalidCheck',
	'EmailSignin',
	'CallbackRouteError',
	'MissingCSRF',
	'SessionTokenError',
	'WebAuthnVerificationError',
	'RateLimited'
]);

/** True for a known error type string (used to validate `?error=`). */
export function isErrorType(value: unknown): value is ErrorType {
	return typeof value === 'string' && knownTypes.has(value);
}

const knownTypes = new Set<string>([
	'AccessDenied', 'AdapterError', 'CallbackRouteError', 'Configuration', 'CredentialsSignin',
	'DuplicateProviderId', 'EmailSignin', 'EventError', 'ExperimentalFeatureNotEnabled',
	'InvalidCallbackUrl', 'InvalidCheck', 'InvalidProvider', 'InvalidRequest', 'JWTSessionError',
	'MissingAdapter', 'MissingAdapterMethod', 'MissingCSRF', 'MissingSecret', 'OAuthAccountNotLinked',
	'OAuthCallbackError', 'OAuthSignin', 'RateLimited', 'SessionTokenError', 'SignOutError', 'UnknownAction',
	'UnsupportedStrategy', 'UntrustedHost', 'Verification', 'WebAuthnVerificationError'
]);

import { describe, test, expect } from 'vitest';
import {
	AccessDenied,
	AdapterError,
	AuthError,
	CallbackRouteError,
	configurationErrorTypes,
	CredentialsSignin,
	DuplicateProviderId,
	EmailSignin,
	EventError,
	ExperimentalFeatureNotEnabled,
	InvalidCallbackUrl,
	InvalidCheck,
	InvalidConfiguration,
	InvalidProvider,
	InvalidRequest,
	isErrorType,
	JWTSessionError,
	MissingAdapter,
	MissingAdapterMethod,
	MissingCSRF,
	MissingSecret,
	OAuthAccountNotLinked,
	OAuthCallbackError,
	OAuthSignin,
	SessionTokenError,
	SignOutError,
	signInErrorTypes,
	RateLimited,
	UnknownAction,
	UnsupportedStrategy,
	UntrustedHost,
	Verification,
	type ErrorType
} from './errors.js';

type ErrorClass = new (message?: string | ErrorOptions, errorOptions?: ErrorOptions) => AuthError;

const classes: [ErrorClass, ErrorType][] = [
	[InvalidConfiguration, 'Configuration'],
	[MissingSecret, 'MissingSecret'],
	[UntrustedHost, 'UntrustedHost'],
	[DuplicateProviderId, 'DuplicateProviderId'],
	[ExperimentalFeatureNotEnabled, 'ExperimentalFeatureNotEnabled'],
	[MissingAdapter, 'MissingAdapter'],
	[MissingAdapterMethod, 'MissingAdapterMethod'],
	[AdapterError, 'AdapterError'],
	[UnsupportedStrategy, 'UnsupportedStrategy'],
	[MissingCSRF, 'MissingCSRF'],
	[UnknownAction, 'UnknownAction'],
	[InvalidProvider, 'InvalidProvider'],
	[InvalidRequest, 'InvalidRequest'],
	[InvalidCallbackUrl, 'InvalidCallbackUrl'],
	[AccessDenied, 'AccessDenied'],
	[CallbackRouteError, 'CallbackRouteError'],
	[JWTSessionError, 'JWTSessionError'],
	[SessionTokenError, 'SessionTokenError'],
	[SignOutError, 'SignOutError'],
	[EventError, 'EventError'],
	[OAuthSignin, 'OAuthSignin'],
	[OAuthCallbackError, 'OAuthCallbackError'],
	[InvalidCheck, 'InvalidCheck'],
	[OAuthAccountNotLinked, 'OAuthAccountNotLinked'],
	[EmailSignin, 'EmailSignin'],
	[Verification, 'Verification'],
	[RateLimited, 'RateLimited'],
	[CredentialsSignin, 'CredentialsSignin']
];

describe('error classes', () => {
	test.each(classes)('%o has type %s on the instance and the class', (ErrorClass, type) => {
		const error = new ErrorClass();
		expect(error.type).toBe(type);
		expect((ErrorClass as unknown as { type: ErrorType }).type).toBe(type);
		expect(error).toBeInstanceOf(AuthError);
		expect(error).toBeInstanceOf(Error);
		expect(error.name).toBe(ErrorClass.name);
		expect(error.message.length).toBeGreaterThan(0);
		expect(isErrorType(error.type)).toBe(true);
	});

	test('every type is distinct', () => {
		expect(new Set(classes.map(([, type]) => type)).size).toBe(classes.length);
	});

	test('keeps an explicit message and a cause', () => {
		const cause = new Error('db down');
		const error = new AdapterError('getUser failed', { cause });
		expect(error.message).toBe('getUser failed');
		expect(error.cause).toBe(cause);
		expect(error.type).toBe('AdapterError');
	});

	test('options alone keep the cause and use the default message', () => {
		const cause = new Error('bad json');
		const error = new InvalidRequest({ cause });
		expect(error.message).toBe('Invalid request');
		expect(error.cause).toBe(cause);
	});

	test('an empty message falls back to the default message', () => {
		expect(new MissingCSRF('').message).toBe('CSRF token missing or invalid');
	});

	test('the base class has type Configuration', () => {
		const error = new AuthError('x');
		expect(error.type).toBe('Configuration');
		expect(error.name).toBe('AuthError');
	});

	test('classes are not instances of each other', () => {
		expect(new AccessDenied()).not.toBeInstanceOf(InvalidRequest);
		expect(new InvalidRequest()).not.toBeInstanceOf(AccessDenied);
	});
});

describe('CredentialsSignin', () => {
	test('has the default code "credentials"', () => {
		const error = new CredentialsSignin();
		expect(error.code).toBe('credentials');
		expect(error.type).toBe('CredentialsSignin');
		expect(error.message).toBe('Invalid credentials');
	});

	test('a subclass can set its own code and keeps the type', () => {
		class InvalidLogin extends CredentialsSignin {
			code = 'invalid_login';
		}
		const error = new InvalidLogin('nope');
		expect(error.code).toBe('invalid_login');
		expect(error.type).toBe('CredentialsSignin');
		expect(error.message).toBe('nope');
		expect(error.name).toBe('InvalidLogin');
		expect(error).toBeInstanceOf(CredentialsSignin);
		expect(error).toBeInstanceOf(AuthError);
	});
});

describe('isErrorType', () => {
	test('accepts known types', () => {
		expect(isErrorType('AccessDenied')).toBe(true);
		expect(isErrorType('Configuration')).toBe(true);
		expect(isErrorType('Verification')).toBe(true);
	});

	test('rejects unknown strings and non-strings', () => {
		for (const value of ['', 'Nope', 'accessdenied', 'AccessDenied ', 'toString', '__proto__', 42, null, undefined, {}, ['AccessDenied']]) {
			expect(isErrorType(value)).toBe(false);
		}
	});

	test('the configuration and sign-in type sets hold only known types', () => {
		for (const type of [...configurationErrorTypes, ...signInErrorTypes]) expect(isErrorType(type)).toBe(true);
		expect(configurationErrorTypes.has('MissingSecret')).toBe(true);
		expect(signInErrorTypes.has('CredentialsSignin')).toBe(true);
		expect(signInErrorTypes.has('Configuration')).toBe(false);
	});
});

import { describe, test, expect } from 'vitest';
import {
	AccessDenied,
	AdapterError,
	AuthError,
	CREDENTIALS_FAILURE,
	CredentialsSignin,
	errorClasses,
	failures,
	InvalidRequest,
	isAuthError,
	isErrorType,
	MissingCSRF,
	RateLimited,
	type ErrorType
} from './errors.js';

type ErrorClass = new (message?: string | ErrorOptions, errorOptions?: ErrorOptions) => AuthError;

const classes = Object.entries(errorClasses).map(([type, ErrorClass]) => [ErrorClass as ErrorClass, type as ErrorType] as const);

test('every code of the failure table has its class, and no class is left without a code', () => {
	expect(classes.map(([, type]) => type).sort()).toEqual(Object.keys(failures).sort());
});

describe('error classes', () => {
	test.each(classes)('%o has type %s on the instance and the class', (ErrorClass, type) => {
		const error = new ErrorClass();
		expect(error.type).toBe(type);
		expect((ErrorClass as unknown as { type: ErrorType }).type).toBe(type);
		expect(error).toBeInstanceOf(AuthError);
		expect(error).toBeInstanceOf(Error);
		expect(error.name).toBe(ErrorClass.name);
		expect(error.message).toBe(failures[type].defaultMessage);
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
});

describe('isAuthError', () => {
	test('narrows to kitgate errors, and to one code when asked', () => {
		const error: unknown = new RateLimited('slow down');
		expect(isAuthError(error)).toBe(true);
		expect(isAuthError(error, 'RateLimited')).toBe(true);
		expect(isAuthError(error, 'AccessDenied')).toBe(false);
		const refused: unknown = new CredentialsSignin();
		if (isAuthError(refused, 'CredentialsSignin')) expect(refused.code).toBe('credentials');
		else expect.unreachable('a CredentialsSignin is one');
	});

	test('recognises an error of another copy of kitgate by its shape', () => {
		const foreign = Object.assign(new Error('x'), { type: 'Verification' });
		expect(isAuthError(foreign, 'Verification')).toBe(true);
	});

	test('rejects other errors and values', () => {
		for (const value of [new Error('x'), Object.assign(new Error('x'), { type: 'Nope' }), { type: 'AccessDenied' }, 'AccessDenied', null, undefined]) {
			expect(isAuthError(value)).toBe(false);
		}
		expect(isAuthError(new MissingCSRF(), 'InvalidRequest')).toBe(false);
		expect(isAuthError(new AccessDenied(), 'AccessDenied')).toBe(true);
		expect(isAuthError(new InvalidRequest())).toBe(true);
		expect(isAuthError(new AdapterError())).toBe(true);
	});

	test('a framework error marked as a credentials failure is a CredentialsSignin', () => {
		const marked = { status: 401, [CREDENTIALS_FAILURE]: true };
		expect(marked instanceof CredentialsSignin).toBe(true);
	});
});

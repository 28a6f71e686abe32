import { expect } from 'vitest';
import { AuthError } from '../errors.js';

/** Calls `fn` and returns the `AuthError` it threw (the test fails when it throws nothing, or something else). */
export function thrown(fn: () => unknown): AuthError {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(AuthError);
		return error as AuthError;
	}
	throw new Error('expected an AuthError to be thrown');
}

// "This row already exists", as the engine understands it from any adapter: a
// `UniqueViolationError` (or an error with its code) somewhere in the cause chain. Adapters
// translate their database's own errors into it; the engine knows no database's codes.
// Re-exported from `kitgate` and `kitgate/adapters/errors`.

import { AdapterError } from '../errors.js';

/**
 * Stable `code` of {@link UniqueViolationError}.
 *
 * @example
 * if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) retry();
 */
export const UNIQUE_VIOLATION = 'UNIQUE_VIOLATION';

/**
 * What an adapter throws when a write would break a unique constraint (a lost race: two
 * sign-ins creating the same user). The engine then reads the row the other request wrote.
 *
 * @example
 * throw new UniqueViolationError('users_email_key', 'A user with this email already exists', { cause: driverError });
 */
export class UniqueViolationError extends AdapterError {
	/** Always {@link UNIQUE_VIOLATION}. */
	readonly code = UNIQUE_VIOLATION;
	/** Name of the broken constraint, e.g. `users_email_key`. */
	readonly constraint: string;

	constructor(constraint: string, message?: string, options?: ErrorOptions) {
		super(message ?? `Unique constraint ${constraint} violated`, options);
		this.constraint = constraint;
	}
}

/**
 * True when `error` (or one of its `cause`s) is a {@link UniqueViolationError}, or carries its code.
 *
 * @example
 * try {
 * 	await adapter.createUser(user);
 * } catch (error) {
 * 	if (!isUniqueViolation(error)) throw error;
 * 	user = await adapter.getUserByEmail(user.email); // another request created it first
 * }
 */
export function isUniqueViolation(error: unknown): boolean {
	let current: unknown = error;
	// a bounded walk: cause chains can be cyclic
	for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
		if (current instanceof UniqueViolationError || (current as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
		const cause = (current as { cause?: unknown }).cause;
		// kitgate's own errors keep their cause as `{ err }`
		current = typeof cause === 'object' && cause !== null && 'err' in cause ? (cause as { err: unknown }).err : cause;
	}
	return false;
}

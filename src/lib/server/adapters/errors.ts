// Recognising "this row already exists" across kitgate's adapters, so the engine can treat a lost
// race (two sign-ins creating the same user) as an expected outcome. Export path: `kitgate/adapters/errors`.
import { AdapterError } from '../core/errors.js';

/**
 * Stable `code` of {@link UniqueViolationError}.
 *
 * @example
 * if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) retry();
 */
export const UNIQUE_VIOLATION = 'UNIQUE_VIOLATION';

// Codes the drivers put on their own errors: PostgreSQL's SQLSTATE and better-sqlite3's extended result codes.
const uniqueViolationCodes: ReadonlySet<unknown> = new Set([
	UNIQUE_VIOLATION,
	'23505',
	'SQLITE_CONSTRAINT_UNIQUE',
	'SQLITE_CONSTRAINT_PRIMARYKEY'
]);

/**
 * Thrown by adapters without a database driver of their own (such as the memory adapter) when a
 * write would break a unique constraint. SQL adapters let the driver's error through instead.
 *
 * @example
 * throw new UniqueViolationError('users_email_key', 'A user with this email already exists');
 */
export class UniqueViolationError extends AdapterError {
	/** Always {@link UNIQUE_VIOLATION}. */
	readonly code = UNIQUE_VIOLATION;
	/** Name of the broken constraint, e.g. `users_email_key`. */
	readonly constraint: string;

	constructor(constraint: string, message?: string) {
		super(message ?? `Unique constraint ${constraint} violated`);
		this.constraint = constraint;
	}
}

/**
 * True when `error` (or one of its `cause`s) is a unique-constraint violation raised by the
 * SQLite, PostgreSQL or memory adapter.
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
	// A bounded walk: cause chains can be cyclic.
	for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
		if (current instanceof UniqueViolationError) return true;
		if (uniqueViolationCodes.has((current as { code?: unknown }).code)) return true;
		current = (current as { cause?: unknown }).cause;
	}
	return false;
}

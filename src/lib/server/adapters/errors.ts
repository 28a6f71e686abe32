// Unique violations for adapter authors: the error the engine understands, and the translation of
// the drivers' own errors into it (PostgreSQL's SQLSTATE 23505, the SQLite constraint codes of
// better-sqlite3 and libSQL, Cloudflare D1's error messages). Export path: `kitgate/adapters/errors`.

import { isUniqueViolation as isEngineUniqueViolation, UniqueViolationError } from '../core/store/unique-violation.js';

export { UNIQUE_VIOLATION, UniqueViolationError } from '../core/store/unique-violation.js';

// codes the drivers put on their own errors: PostgreSQL's SQLSTATE, and SQLite's extended result codes
// (better-sqlite3's `code`, libSQL's `extendedCode`)
const driverUniqueCodes: ReadonlySet<unknown> = new Set(['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

// D1 gives no code: its message ends with SQLite's extended code, e.g.
// "D1_ERROR: UNIQUE constraint failed: users.email: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_UNIQUE)"
const D1_UNIQUE_MESSAGE = /^D1_ERROR: .*\(extended: SQLITE_CONSTRAINT_(?:UNIQUE|PRIMARYKEY)\)$/s;

/**
 * True when `error` (or one of its `cause`s) is a unique violation: a {@link UniqueViolationError},
 * or a PostgreSQL (`23505`), SQLite (`SQLITE_CONSTRAINT_UNIQUE`/`_PRIMARYKEY`, from better-sqlite3
 * or libSQL) or Cloudflare D1 driver error.
 *
 * @example
 * if (isUniqueViolation(error)) throw new UniqueViolationError('users_email_key', undefined, { cause: error });
 */
export function isUniqueViolation(error: unknown): boolean {
	if (isEngineUniqueViolation(error)) return true;
	let current: unknown = error;
	for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
		const { code, extendedCode, message } = current as { code?: unknown; extendedCode?: unknown; message?: unknown };
		if (driverUniqueCodes.has(code) || driverUniqueCodes.has(extendedCode)) return true;
		if (current instanceof Error && typeof message === 'string' && D1_UNIQUE_MESSAGE.test(message)) return true;
		current = (current as { cause?: unknown }).cause;
	}
	return false;
}

/**
 * The error an adapter method should throw for `error`: a driver's unique violation becomes a
 * {@link UniqueViolationError} (the driver's error as its cause); anything else is unchanged.
 *
 * @example
 * try { await db.insert(row); } catch (error) { throw asUniqueViolation(error); }
 */
export function asUniqueViolation(error: unknown): unknown {
	if (!isUniqueViolation(error) || isEngineUniqueViolation(error)) return error;
	const constraint = (error as { constraint?: unknown }).constraint;
	const message = error instanceof Error ? error.message : undefined;
	return new UniqueViolationError(typeof constraint === 'string' ? constraint : 'unknown', message, { cause: error });
}

/**
 * `adapter` with every method's unique violations translated by {@link asUniqueViolation}: wrap a
 * driver-backed adapter once, and the engine resolves its races.
 *
 * @example
 * export const MyAdapter = (db) => withUniqueViolations(createMyAdapter(db));
 */
export function withUniqueViolations<Methods extends object>(adapter: Methods): Methods {
	const wrapped = { ...adapter } as Record<string, unknown>;
	for (const [name, method] of Object.entries(adapter)) {
		if (typeof method !== 'function') continue;
		wrapped[name] = async (...args: unknown[]) => {
			try {
				return await (method as (...a: unknown[]) => unknown).apply(adapter, args);
			} catch (error) {
				throw asUniqueViolation(error);
			}
		};
	}
	return wrapped as Methods;
}

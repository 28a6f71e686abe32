// Stores may answer at once (memory) or later (SQL, Redis): hot paths wait only for what is pending.

/**
 * True when `value` is a promise (or any thenable) to wait for, false for an answer already there.
 *
 * @example
 * const count = isThenable(counting) ? await counting : counting;
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
	return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * `next(value)`, at once when `value` is already there, else once it is: a chain that adds no
 * promise to the paths that have none (node:crypto, the memory store).
 *
 * @example
 * return andThen(decodeJwtAtOnce(params), (token) => token?.sub ?? null);
 */
export function andThen<T, U>(value: T | PromiseLike<T>, next: (value: T) => U | PromiseLike<U>): U | Promise<U> {
	return isThenable(value) ? Promise.resolve(value).then(next) : (next(value) as U | Promise<U>);
}

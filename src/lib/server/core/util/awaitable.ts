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

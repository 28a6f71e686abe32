// Dropping `undefined` fields from a record, so spreading it never erases a value and encoding it
// writes no empty keys. Internal: the engine and the built-in providers.

/**
 * A copy of `value` without its `undefined` fields (null and other falsy values stay).
 *
 * @example
 * withoutUndefined({ a: 1, b: undefined, c: null }) // { a: 1, c: null }
 */
export function withoutUndefined<T extends object>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

// A cache of results that are pure functions of their key (keyed hashes, normalised addresses),
// for keys that come from requests: bounded, it starts over when full rather than grow.

/**
 * A string-keyed cache of at most `max` entries; when full, a new entry clears it first (a full
 * cache under a flood of distinct keys costs one recomputation each, never memory).
 *
 * @example
 * const keys = new BoundedCache<string>(1024);
 * const key = keys.get(value) ?? keys.set(value, hash(value));
 */
export class BoundedCache<V> {
	readonly #entries = new Map<string, V>();

	constructor(private readonly max: number) {}

	get(key: string): V | undefined {
		return this.#entries.get(key);
	}

	/** Stores `value` and returns it. */
	set(key: string, value: V): V {
		if (this.#entries.size >= this.max) this.#entries.clear();
		this.#entries.set(key, value);
		return value;
	}

	delete(key: string): void {
		this.#entries.delete(key);
	}
}

// When copies of database sessions (`session.cache`) stopped being true, as this process knows it:
// a session ended, a user changed. Bounded, and safe when full: the records dropped for room raise
// a floor below which every copy counts as stale (more database reads, never a stale session).

/** A record: copies made at or before `at` are stale, until `until` (when every such copy has expired). */
interface CopyEnd {
	at: number;
	until: number;
}

/**
 * Ends of copies by key, at most `max` of them. When full, expired records go first, then the
 * oldest, whose time becomes the floor: any copy made at or before it is stale, whatever its key.
 *
 * @example
 * const ends = new CopyEnds(50_000);
 * ends.record('kitgate.session-copy:k', now + 1000, now + 61_000, now);
 * ends.endedAt('kitgate.session-copy:k', now); // now + 1000
 */
export class CopyEnds {
	readonly #records = new Map<string, CopyEnd>();
	#floor: CopyEnd = { at: 0, until: 0 };

	constructor(private readonly max: number) {}

	/** Records that copies under `key` made at or before `at` are stale, until `until`. */
	record(key: string, at: number, until: number, now: number): void {
		const known = this.#records.get(key);
		this.#records.delete(key);
		if (this.#records.size >= this.max) this.#makeRoom(now);
		this.#records.set(key, { at: Math.max(at, known?.at ?? 0), until: Math.max(until, known?.until ?? 0) });
	}

	/** The latest time at or before which copies under `key` are stale (the floor included), or null. */
	endedAt(key: string, now: number): number | null {
		const record = this.#records.get(key);
		const own = record && record.until > now ? record.at : null;
		const floor = this.#floor.until > now ? this.#floor.at : null;
		if (own === null) return floor;
		return floor === null ? own : Math.max(own, floor);
	}

	#makeRoom(now: number): void {
		for (const [key, record] of this.#records) {
			if (this.#records.size < this.max) return;
			this.#records.delete(key);
			// a live record dropped: its copies, and every older one, count as stale until it would have ended
			if (record.until > now) this.#floor = { at: Math.max(this.#floor.at, record.at), until: Math.max(this.#floor.until, record.until) };
		}
	}
}

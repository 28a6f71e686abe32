// Copies of database sessions in this process's memory (`session.cache.store`), bounded in size:
// for one server. Re-exported from the root entry `kitgate` as `MemorySessionCacheStore`.

import type { SessionCacheStore } from '../types.js';

/**
 * Options of {@link MemorySessionCacheStore}.
 *
 * @example
 * const options: MemorySessionCacheStoreOptions = { maxEntries: 5_000 };
 */
export interface MemorySessionCacheStoreOptions {
	/**
	 * Most copies kept at once (default 10,000); past that the oldest goes. The same bound holds
	 * the records of forgotten sessions and users; when those are full of live ones, the oldest is
	 * dropped and every copy older than it counts as forgotten (more database reads, never a copy
	 * of a forgotten session).
	 */
	maxEntries?: number;
}

interface Copy {
	userId: string;
	value: string;
	/** The miss it was read after: a forget at or after it makes it wrong. */
	from: number;
	until: number;
}

/** When a key or user was forgotten, and until when that is remembered. */
interface Forgotten {
	at: number;
	until: number;
}

const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * A session-cache store in this process's memory: right for one server (several servers need a
 * shared one, `RedisSessionCacheStore`). Its clock is this process's.
 *
 * @example
 * import { MemorySessionCacheStore } from 'kitgate';
 * const config = { adapter, session: { cache: { maxAge: 60, store: MemorySessionCacheStore() } } };
 */
export function MemorySessionCacheStore(options: MemorySessionCacheStoreOptions = {}): SessionCacheStore {
	const max = Math.max(1, options.maxEntries ?? DEFAULT_MAX_ENTRIES);
	const copies = new Map<string, Copy>();
	const forgottenKeys = new Map<string, Forgotten>();
	const forgottenUsers = new Map<string, Forgotten>();
	// records dropped for room: every copy from a miss at or before this time counts as forgotten
	let floor: Forgotten = { at: 0, until: 0 };
	const floorAt = (now: number) => (floor.until > now ? floor.at : undefined);
	const latest = (...times: (number | undefined)[]) => {
		const known = times.filter((time): time is number => time !== undefined);
		return known.length ? Math.max(...known) : undefined;
	};

	const forgottenAt = (records: Map<string, Forgotten>, name: string, now: number) => {
		const record = records.get(name);
		if (!record) return undefined;
		if (record.until > now) return record.at;
		records.delete(name);
		return undefined;
	};

	/**
	 * Records a forget. When the records are full of live ones, the oldest is dropped and its time
	 * becomes the floor: every copy from a miss before it is refused and not served, never one brought back.
	 */
	const remember = (records: Map<string, Forgotten>, name: string, now: number, ttlSeconds: number) => {
		records.delete(name);
		if (records.size >= max) {
			for (const [other, record] of records) if (record.until <= now) records.delete(other);
			for (const [other, record] of records) {
				if (records.size < max) break;
				records.delete(other);
				floor = { at: Math.max(floor.at, record.at), until: Math.max(floor.until, record.until) };
			}
		}
		records.set(name, { at: now, until: now + ttlSeconds * 1000 });
	};

	return {
		get(key) {
			const now = Date.now();
			const copy = copies.get(key);
			if (copy) {
				const forgotten = latest(forgottenAt(forgottenUsers, copy.userId, now), floorAt(now));
				if (copy.until > now && (forgotten === undefined || forgotten < copy.from)) return { value: copy.value };
				copies.delete(key);
			}
			return { value: null, missedAt: now };
		},
		set(key, { userId, value, missedAt, ttlSeconds }) {
			const now = Date.now();
			const forgotten = latest(forgottenAt(forgottenKeys, key, now), forgottenAt(forgottenUsers, userId, now), floorAt(now));
			// read before a change that came after the miss: it would bring the change back
			if (forgotten !== undefined && forgotten >= missedAt) return;
			copies.delete(key);
			if (copies.size >= max) copies.delete(copies.keys().next().value as string);
			copies.set(key, { userId, value, from: missedAt, until: now + ttlSeconds * 1000 });
		},
		forget(key, ttlSeconds) {
			copies.delete(key);
			remember(forgottenKeys, key, Date.now(), ttlSeconds);
		},
		forgetUser(userId, ttlSeconds) {
			// copies of the user are wrong from now on: get() sees the record
			remember(forgottenUsers, userId, Date.now(), ttlSeconds);
		}
	};
}

// The default store of rate-limit counters and JWT session revocations: this process's memory,
// bounded in size. Re-exported from the root entry `kitgate` as `MemoryRateLimitStore`.

import { RevocationPool } from './revocation-pool.js';
import type { RateLimitCount, RateLimitStore, RevocationStore, RevokeOptions } from '../types.js';

/**
 * Options of {@link MemoryRateLimitStore}.
 *
 * @example
 * const options: MemoryRateLimitStoreOptions = { maxKeys: 10_000 };
 */
export interface MemoryRateLimitStoreOptions {
	/**
	 * Most counters kept at once (default 50,000). Counters whose window has ended make room; when
	 * every counter is live, a new key is refused (that attempt is `RateLimited`) and no live counter,
	 * such as an active lockout, is forgotten.
	 */
	maxKeys?: number;
	/**
	 * Most revocations kept at once (default 50,000), and as many best-effort ones (sign-outs of
	 * JWT sessions). Expired ones make room, then the oldest record of the user holding the most;
	 * when every user holds one live revocation a new one is refused (the change asking for it
	 * fails) rather than one forgotten. Best-effort ones make room for each other the same way.
	 */
	maxRevocations?: number;
}

/**
 * A store that is both a {@link RateLimitStore} and a {@link RevocationStore}, answering synchronously.
 *
 * @example
 * const store: MemoryRateLimitStore = MemoryRateLimitStore();
 */
export interface MemoryRateLimitStore extends RateLimitStore, RevocationStore {
	increment(key: string, windowSeconds: number, now: number): RateLimitCount;
	decrement(key: string, now: number): void;
	reset(key: string): void;
	revokedAt(userId: string, now: number): number | null;
	revoke(userId: string, at: number, keepSeconds: number, options?: RevokeOptions): void;
}

const DEFAULT_MAX_KEYS = 50_000;

/** Marks a store that lives in this process (shared with no other server). */
const IN_PROCESS = Symbol.for('kitgate.in-process-store');

/**
 * True for a store kept in this process's memory: what it holds, no other server sees.
 *
 * @example
 * if (!isInProcessStore(config.revocation.store)) await store.revoke(key, at, keep);
 */
export function isInProcessStore(store: object): boolean {
	return (store as { [IN_PROCESS]?: boolean })[IN_PROCESS] === true;
}

/**
 * Counters and revocations in this process's memory: right for one server. Several servers need a
 * shared store (`SqlRateLimitStore` from `kitgate/adapters/rate-limit-store`). Memory stays bounded:
 * windows expire and make room; past `maxKeys` live counters new keys are refused, so a flood of
 * new keys can never push out a live counter (and unlock a locked account).
 *
 * @example
 * import { MemoryRateLimitStore } from 'kitgate';
 * const config = { providers, rateLimit: { store: MemoryRateLimitStore({ maxKeys: 10_000 }) } };
 */
export function MemoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): MemoryRateLimitStore {
	const maxKeys = Math.max(1, options.maxKeys ?? DEFAULT_MAX_KEYS);
	const maxRevocations = Math.max(1, options.maxRevocations ?? DEFAULT_MAX_KEYS);
	const counters = new Map<string, RateLimitCount>();
	// kept until they expire; when full, the owner with the most records loses its oldest first
	const revocations = new RevocationPool(maxRevocations, { evictLastOnes: false });
	// sign-outs: best effort, apart, so whoever signs in and out over and over never pushes out a deliberate revocation
	const bestEffort = new RevocationPool(maxRevocations, { evictLastOnes: true });
	let nextFullSweep = 0;
	// the latest "now" a caller passed: what expiry is judged by when a revocation makes room
	let latestNow = 0;

	const store: MemoryRateLimitStore = {
		increment(key, windowSeconds, now) {
			latestNow = Math.max(latestNow, now);
			const open = counters.get(key);
			if (open && open.resetAt > now) {
				open.count += 1;
				return { ...open };
			}
			counters.delete(key);
			const ended = (entry: RateLimitCount) => entry.resetAt <= now;
			dropOldestExpired(counters, ended);
			if (counters.size >= maxKeys && now >= nextFullSweep) {
				// windows of other lengths may have ended behind a live counter: look at all, at most once a second
				nextFullSweep = now + 1000;
				for (const [name, entry] of counters) if (ended(entry)) counters.delete(name);
			}
			if (counters.size >= maxKeys) {
				// full of live counters: refuse the new key rather than forget a live one (a lockout)
				const oldest = counters.values().next().value as RateLimitCount;
				return { count: 0, resetAt: Math.min(oldest.resetAt, now + windowSeconds * 1000), refused: true };
			}
			const fresh = { count: 1, resetAt: now + windowSeconds * 1000 };
			counters.set(key, fresh);
			return { ...fresh };
		},
		decrement(key, now) {
			const open = counters.get(key);
			if (open && open.resetAt > now && open.count > 0) open.count -= 1;
		},
		reset(key) {
			counters.delete(key);
		},
		revokedAt(userId, now) {
			latestNow = Math.max(latestNow, now);
			const kept = revocations.get(userId, now);
			const signedOut = bestEffort.get(userId, now);
			if (!kept) return signedOut?.at ?? null;
			return Math.max(kept.at, signedOut?.at ?? 0);
		},
		revoke(userId, at, keepSeconds, options) {
			const pool = options?.evictable ? bestEffort : revocations;
			// a later revocation never moves the time back (clocks of several callers); room is made as
			// of now (the latest time a caller gave, or this machine's clock), never as of `at`, which may
			// lie ahead (a sign-out's is a minute ahead) and would drop revocations still needed
			pool.set(userId, { at, until: at + keepSeconds * 1000, owner: options?.owner ?? userId }, Math.min(at, Math.max(latestNow, Date.now())));
		}
	};
	return Object.defineProperty(store, IN_PROCESS, { value: true });
}

/**
 * Drops expired entries from the oldest on, up to the first live one. Maps iterate in insertion
 * order and windows have similar lengths, so the oldest entries expire first and this stays cheap
 * even when someone floods new keys.
 */
function dropOldestExpired<T>(map: Map<string, T>, expired: (entry: T) => boolean): void {
	for (const [key, entry] of map) {
		if (!expired(entry)) return;
		map.delete(key);
	}
}




let processStore: MemoryRateLimitStore | undefined;

/**
 * The store of this process used when the config names none: shared by every config, so a
 * per-request config keeps its counters.
 *
 * @example
 * const store = config.rateLimit?.store ?? processRateLimitStore();
 */
export function processRateLimitStore(): MemoryRateLimitStore {
	return (processStore ??= MemoryRateLimitStore());
}

/**
 * Lets the next config start from an empty process store (the unit tests' set-up: their files
 * share one process). Not exported from the package.
 *
 * @example
 * forgetProcessRateLimitStore();
 */
export function forgetProcessRateLimitStore(): void {
	processStore = undefined;
}

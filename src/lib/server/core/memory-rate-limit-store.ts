// The default store of rate-limit counters and JWT session revocations: this process's memory,
// bounded in size. Re-exported from the root entry `kitgate` as `MemoryRateLimitStore`.

import { AdapterError } from './errors.js';
import type { RateLimitCount, RateLimitStore, RevocationStore, RevokeOptions } from './types.js';

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
	 * JWT sessions). Expired ones make room; when every revocation is live a new one is refused
	 * (the change asking for it fails) and none is forgotten; the oldest best-effort ones make room
	 * for new ones.
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
	const revocations = new Map<string, { at: number; until: number }>();
	// sign-outs: best effort, so whoever signs in and out over and over never pushes out a deliberate revocation
	const bestEffort = new Map<string, { at: number; until: number }>();
	let nextFullSweep = 0;

	return {
		increment(key, windowSeconds, now) {
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
			const kept = liveEntry(revocations, userId, now);
			const signedOut = liveEntry(bestEffort, userId, now);
			if (!kept) return signedOut?.at ?? null;
			return Math.max(kept.at, signedOut?.at ?? 0);
		},
		revoke(userId, at, keepSeconds, options) {
			const pool = options?.evictable ? bestEffort : revocations;
			const previous = pool.get(userId);
			pool.delete(userId);
			if (options?.evictable) makeRoom(pool, maxRevocations, (entry) => entry.until <= at);
			else if (!previous && !dropExpiredToFit(pool, maxRevocations, at)) {
				throw new AdapterError(`The memory revocation store holds ${maxRevocations} live revocations: a new one was refused rather than forgetting one. Raise maxRevocations, or use a shared store (docs/security.md).`);
			}
			// a later revocation never moves the time back (clocks of several callers)
			pool.set(userId, {
				at: Math.max(at, previous?.at ?? 0),
				until: Math.max(at + keepSeconds * 1000, previous?.until ?? 0)
			});
		}
	};
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

/**
 * Makes room for one more revocation: drops expired entries from the oldest on, then the oldest
 * live ones (revocations are written by the app, not by whoever sends requests).
 */
function makeRoom<T>(map: Map<string, T>, max: number, expired: (entry: T) => boolean): void {
	for (const [key, entry] of map) {
		if (map.size < max && !expired(entry)) return;
		map.delete(key);
	}
}

/** The live entry of `key`, dropping it when expired. */
function liveEntry(map: Map<string, { at: number; until: number }>, key: string, now: number): { at: number; until: number } | undefined {
	const entry = map.get(key);
	if (entry && entry.until <= now) {
		map.delete(key);
		return undefined;
	}
	return entry;
}

/** Drops expired revocations until one more fits; false when every one left is live. */
function dropExpiredToFit(map: Map<string, { at: number; until: number }>, max: number, now: number): boolean {
	if (map.size < max) return true;
	for (const [key, entry] of map) if (entry.until <= now) map.delete(key);
	return map.size < max;
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

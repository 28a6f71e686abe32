// When copies of database sessions (`session.cache`) stopped being true, as this process knows it:
// a session ended, a user changed. Bounded, and safe when full: the records dropped for room raise
// a floor below which every copy counts as stale (more database reads, never a stale session).
// Also the adapter hook that records those ends (`sessionCacheInvalidation`) and the keys copies
// are recorded under, shared with the cache's read path (session-cache.ts).

import type { AfterWrite } from '../store/adapter-guard.js';
import type { ResolvedSessionCache } from '../config/session-cache-option.js';
import { base64url } from '../crypto/bytes.js';
import { hmac } from '../crypto/hash.js';
import { AdapterError } from '../errors.js';
import { isInProcessStore } from '../limits/memory-rate-limit-store.js';
import type { RevocationStore, SessionCacheStore } from '../types.js';

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

/**
 * The key of a session's copy: a keyed hash of its token, so neither the store nor the cookie
 * holds the token itself. Pure.
 *
 * @example
 * sessionCacheKey(secret, sessionToken); // 'kq3…' (32 characters)
 */
export function sessionCacheKey(secret: string, sessionToken: string): string {
	return base64url(hmac('sha256', secret, `kitgate session cache\u0000${sessionToken}`)).slice(0, 32);
}

/** Keys of the records that make cookie copies stale: one session's, all of a user's (prefixes). */
export const COPY_OF_SESSION = 'kitgate.session-copy:';
export const COPIES_OF_USER = 'kitgate.session-copies:';

/**
 * The ends of copies this process recorded: checked first, exact for this process, and when full
 * it makes copies stale rather than forget an end. A shared revocation store (Redis, SQL) carries
 * the same records to the other servers; the in-process memory store does not get them (it could
 * only drop them when full).
 */
export const copyEnds = new CopyEnds(50_000);

/** Adapter methods whose success makes copies wrong: the session they name, or all of a user's. */
const FORGET_SESSION = new Set(['deleteSession', 'updateSession', 'deleteSessionOfUser']);
const FORGET_USER = new Set(['deleteSessionsByUserId', 'updateUser', 'deleteUser']);

/**
 * A change recorded now counts for copies made up to a second later: a copy is stamped by the
 * clock of the server that made it, which may run a little ahead of this one.
 */
const CLOCK_MARGIN_MS = 1000;

/**
 * What the guarded adapter calls after each successful write of a session or user when sessions
 * are copied: the copies that write made wrong stop being used at once, on every server sharing
 * the store. Copies in a store are dropped from it; copies in cookies are marked stale in the
 * revocation store, which every cookie copy is checked against (`session.revocationCheck:
 * "always"`). A store that fails is logged; the copies then end within `maxAge`.
 *
 * @example
 * const adapter = guardAdapter(config.adapter, sessionCacheInvalidation(cache, { secrets, revocation, now: Date.now, logError }));
 */
export function sessionCacheInvalidation(
	cache: ResolvedSessionCache | undefined,
	{ secrets, revocation, now, logError }: { secrets: string[]; revocation: RevocationStore; now: () => number; logError: (error: Error) => void }
): AfterWrite | undefined {
	if (!cache) return undefined;
	const { maxAge } = cache;
	const sessionOf = (method: string, args: unknown[]) =>
		method === 'deleteSession' ? args[0] : method === 'deleteSessionOfUser' ? args[1] : (args[0] as { sessionToken?: unknown } | undefined)?.sessionToken;
	const userOf = (method: string, args: unknown[]) => (method === 'updateUser' ? (args[0] as { id?: unknown } | undefined)?.id : args[0]);
	const shared = !isInProcessStore(revocation);
	/** Records an end of copies here, and in a shared revocation store for the other servers. */
	const recordEnd = async (key: string, owner: string | undefined) => {
		const at = now() + CLOCK_MARGIN_MS;
		copyEnds.record(key, at, at + (maxAge + 1) * 1000, now());
		if (shared) await revocation.revoke(key, at, maxAge + 1, { evictable: true, ...(owner ? { owner } : {}) });
	};
	const forget =
		cache.store === 'cookie'
			? {
					session: (key: string, owner: string | undefined) => recordEnd(COPY_OF_SESSION + key, owner),
					changedUser: (userId: string) => recordEnd(COPIES_OF_USER + userId, userId),
					// every session of the user ended: also the user's own revocation, never dropped (as revokeSessions writes it)
					endedUser: async (userId: string) => {
						await recordEnd(COPIES_OF_USER + userId, userId);
						await revocation.revoke(userId, now() + CLOCK_MARGIN_MS, maxAge + 1);
					}
				}
			: {
					session: (key: string) => (cache.store as SessionCacheStore).forget(key, maxAge),
					changedUser: (userId: string) => (cache.store as SessionCacheStore).forgetUser(userId, maxAge),
					endedUser: (userId: string) => (cache.store as SessionCacheStore).forgetUser(userId, maxAge)
				};
	return {
		methods: new Set([...FORGET_SESSION, ...FORGET_USER]),
		run: async (method, args, result) => {
			try {
				if (FORGET_SESSION.has(method)) {
					const token = sessionOf(method, args);
					// nothing deleted or updated (a made-up token): there is no copy to end, and nothing is recorded
					// (an adapter that answers nothing is recorded all the same: the tables are safe when full)
					if (typeof token !== 'string' || result === null) return;
					const owner = method === 'deleteSessionOfUser' ? args[0] : (result as { userId?: unknown } | undefined)?.userId;
					// under every secret of the rotation: a server not rotated yet keys its copies under an older one
					for (const secret of secrets) await forget.session(sessionCacheKey(secret, token), typeof owner === 'string' ? owner : undefined);
				} else if (FORGET_USER.has(method)) {
					const userId = userOf(method, args);
					if (typeof userId !== 'string') return;
					await (method === 'updateUser' ? forget.changedUser(userId) : forget.endedUser(userId));
				}
			} catch (error) {
				logError(new AdapterError(`The session cache failed to drop copies after ${method}; they end within session.cache.maxAge.`, { cause: { err: error } }));
			}
		}
	};
}

// `session.cache` resolved at start-up: off, or how long copies of database sessions are used and
// where they are kept; a wrong value fails at start-up saying what to change.

import { InvalidConfiguration } from '../errors.js';
import type { SessionCacheOptions, SessionCacheStore } from '../types.js';

/** `session.cache` resolved. */
export interface ResolvedSessionCache {
	maxAge: number;
	store: 'cookie' | SessionCacheStore;
}

/**
 * `session.cache` resolved, or undefined when it is off; throws `InvalidConfiguration` saying
 * what to change.
 *
 * @example
 * const cache = resolveSessionCache({ maxAge: 60 }, 'database');
 */
export function resolveSessionCache(option: SessionCacheOptions | undefined, strategy: 'jwt' | 'database'): ResolvedSessionCache | undefined {
	if (option === undefined) return undefined;
	if (strategy !== 'database') {
		throw new InvalidConfiguration(
			'session.cache keeps copies of database sessions, but sessions here are JWTs (read from their own cookie already): remove session.cache, or use session.strategy "database".'
		);
	}
	const { maxAge, store = 'cookie' } = option ?? {};
	if (typeof maxAge !== 'number' || !Number.isInteger(maxAge) || maxAge < 1) {
		throw new InvalidConfiguration(
			`session.cache.maxAge must be a whole number of seconds, at least 1 (how long a copy is used, and so how long a session ended elsewhere may still be read); got ${JSON.stringify(maxAge)}.`
		);
	}
	if (store !== 'cookie' && !isSessionCacheStore(store)) {
		throw new InvalidConfiguration(
			'session.cache.store must be "cookie" or a store with get, set, forget and forgetUser (RedisSessionCacheStore from kitgate/adapters/redis, or MemorySessionCacheStore from kitgate).'
		);
	}
	return { maxAge, store };
}

function isSessionCacheStore(store: unknown): store is SessionCacheStore {
	const candidate = store as Partial<SessionCacheStore> | null;
	return typeof candidate === 'object' && candidate !== null && ['get', 'set', 'forget', 'forgetUser'].every((name) => typeof candidate[name as keyof SessionCacheStore] === 'function');
}

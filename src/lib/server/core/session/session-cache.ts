// Copies of database sessions (`session.cache`): kept in an encrypted cookie beside the session
// cookie, or in a store the servers share. A session read finds the session's user, expiry and
// sign-in time there instead of asking the database; a miss asks it and keeps a new copy.

import { andThen, isThenable } from '../util/awaitable.js';
import type { RequestContext } from '../request/context.js';
import { expiredCookie, CHUNK_SIZE } from '../request/cookies.js';
import { AdapterError } from '../errors.js';
import { COPIES_OF_USER, COPY_OF_SESSION, copyEnds, sessionCacheKey } from './session-cache-invalidation.js';
import type { ResolvedSessionCache } from '../config/session-cache-option.js';
import { isInProcessStore } from '../limits/memory-rate-limit-store.js';
import { decodeJwtAtOnce, encodeJwt } from '../crypto/jwt.js';
import type { AdapterUser, Awaitable, JWT, SessionCacheStore } from '../types.js';

/**
 * What a copy holds: the session's user, when it expires, when its user signed in (ms), and the id
 * of its active organization (never the membership: that is asked on every read).
 */
export interface CachedSession {
	user: AdapterUser;
	expires: number;
	createdAt?: number;
	activeOrganizationId?: string;
}

/** A read of the cache: the copy, or a miss (with the store's time of it, when a copy may be kept after it). */
export type SessionCacheRead = { hit: CachedSession } | { hit: null; missedAt?: number };


/**
 * The copy of the request's database session `sessionToken`, or a miss. A copy that cannot be read
 * (tampered, expired, another session's, a store that fails) is a miss; a failing store is logged.
 *
 * @example
 * const read = await readCachedSession(ctx, cache, token);
 */
export function readCachedSession(ctx: RequestContext, cache: ResolvedSessionCache, sessionToken: string): Awaitable<SessionCacheRead> {
	const key = sessionCacheKey(ctx.config.secrets[0], sessionToken);
	if (cache.store === 'cookie') return cookieCopy(ctx, key);
	const { store } = cache;
	const fromLookup = (lookup: Awaited<ReturnType<SessionCacheStore['get']>>): Awaitable<SessionCacheRead> =>
		lookup.value === null ? { hit: null, missedAt: lookup.missedAt } : andThen(unsealStored(ctx, key, lookup.value), (hit) => ({ hit }));
	try {
		const lookup = store.get(key);
		if (!isThenable(lookup)) return fromLookup(lookup);
		return Promise.resolve(lookup).then(fromLookup, (error: unknown) => storeFailed(ctx, 'read', error));
	} catch (error) {
		return storeFailed(ctx, 'read', error);
	}
}

/** Salt of the keys that seal copies kept in a store (apart from the cookie's). */
const STORE_SEAL = 'kitgate.session-cache-store';

/**
 * The copy a store kept, when it is sealed by this app for this key and still fresh: whoever can
 * write to the store (another app on the same Redis) cannot put a user of its choosing under a key.
 */
function unsealStored(ctx: RequestContext, key: string, value: string): Awaitable<CachedSession | null> {
	return andThen(decodeJwtAtOnce({ token: value, secret: ctx.config.secrets, salt: STORE_SEAL, now: ctx.now }), (payload) => {
			if (!payload || payload.k !== key || typeof payload.until !== 'number' || payload.until <= ctx.now || typeof payload.copy !== 'string') return null;
		return parseCopy(payload.copy);
	});
}

function storeFailed(ctx: RequestContext, doing: 'read' | 'write', error: unknown): SessionCacheRead {
	ctx.config.logger.error(new AdapterError(`The session cache store failed to ${doing} a copy; the database was asked instead.`, { cause: { err: error } }));
	return { hit: null };
}

/**
 * Keeps a copy of the session just read from the database: in the cookie (set on this response),
 * or in the store unless the key or the user was forgotten since `missedAt`. A copy too large for
 * one cookie is not kept.
 *
 * @example
 * await writeCachedSession(ctx, cache, token, { user, expires, createdAt }, read.missedAt);
 */
export async function writeCachedSession(
	ctx: RequestContext,
	cache: ResolvedSessionCache,
	sessionToken: string,
	session: CachedSession,
	missedAt: number | undefined,
	/** When the database was asked (this server's clock), for a copy in a cookie. */
	readAt: number
): Promise<void> {
	const key = sessionCacheKey(ctx.config.secrets[0], sessionToken);
	const copy = serializeCopy(session);
	if (cache.store === 'cookie') return writeCookieCopy(ctx, cache, key, copy, session.expires, readAt);
	// a miss the store did not time (it failed): a copy kept now could outlive a change made meanwhile
	if (missedAt === undefined) return;
	try {
		// sealed and bound to its key: the store holds it, it cannot choose it
		const sealed = await encodeJwt({ token: { k: key, until: ctx.now + cache.maxAge * 1000, copy }, secret: ctx.config.secrets, salt: STORE_SEAL, maxAge: cache.maxAge, now: ctx.now });
		await cache.store.set(key, { userId: session.user.id, value: sealed, missedAt, ttlSeconds: cache.maxAge });
	} catch (error) {
		storeFailed(ctx, 'write', error);
	}
}

/**
 * Queues the removal of the session-cache cookie when the request carries one and the response
 * sets none (a route that changed something in this browser: its next read asks the database).
 *
 * @example
 * dropSessionCacheCookie(ctx);
 */
export function dropSessionCacheCookie(ctx: RequestContext): void {
	const { name, options } = ctx.cookieNames.sessionCache;
	if (ctx.cookies[name] === undefined || ctx.setCookies.some((cookie) => cookie.name === name)) return;
	ctx.setCookies.push(expiredCookie(name, options));
}

/**
 * The copy in the request's cache cookie when it is this session's, still fresh, and (with
 * `session.revocationCheck: "always"`) not made before its session or user was ended or changed
 * through kitgate, as the revocation store records (`sessionCacheInvalidation`).
 */
function cookieCopy(ctx: RequestContext, key: string): Awaitable<SessionCacheRead> {
	const { name } = ctx.cookieNames.sessionCache;
	const raw = ctx.cookies[name];
	if (!raw) return MISS;
	return andThen(decodeJwtAtOnce({ token: raw, secret: ctx.config.secrets, salt: name, now: ctx.now }), (payload) => copyOfPayload(ctx, key, payload));
}

/** The copy a decoded cache cookie holds, when it is still true (see `cookieCopy`). */
function copyOfPayload(ctx: RequestContext, key: string, payload: JWT | null): Awaitable<SessionCacheRead> {
	// bound to one session token; `until` is checked to the millisecond (exp allows clock skew)
	if (!payload || payload.k !== key || typeof payload.until !== 'number' || payload.until <= ctx.now || typeof payload.from !== 'number' || typeof payload.copy !== 'string') return MISS;
	const copy = parseCopy(payload.copy);
	if (!copy) return MISS;
	if (ctx.config.revocation.check !== 'always') return { hit: copy };
	const made = payload.from;
	// ends this process recorded (exact, and safe when its table is full)
	if (isBefore(made, copyEnds.endedAt(COPY_OF_SESSION + key, ctx.now)) || isBefore(made, copyEnds.endedAt(COPIES_OF_USER + copy.user.id, ctx.now))) return MISS;
	const { store } = ctx.config.revocation;
	try {
		// the user signed out everywhere (revokeSessions, deletion); with a shared store, also the ends other servers recorded
		const asked = isInProcessStore(store)
			? [store.revokedAt(copy.user.id, ctx.now)]
			: [store.revokedAt(copy.user.id, ctx.now), store.revokedAt(COPY_OF_SESSION + key, ctx.now), store.revokedAt(COPIES_OF_USER + copy.user.id, ctx.now)];
		const decide = (times: (number | null)[]): SessionCacheRead => (times.some((time) => isBefore(made, time)) ? MISS : { hit: copy });
		if (!asked.some(isThenable)) return decide(asked as (number | null)[]);
		return Promise.all(asked).then(decide, (error: unknown) => storeFailed(ctx, 'read', error));
	} catch (error) {
		return storeFailed(ctx, 'read', error);
	}
}

const MISS: SessionCacheRead = { hit: null };

/** True when a copy made at `made` predates a change recorded at `changedAt`. */
function isBefore(made: number, changedAt: number | null): boolean {
	return changedAt !== null && made <= changedAt;
}

async function writeCookieCopy(ctx: RequestContext, cache: ResolvedSessionCache, key: string, copy: string, sessionExpires: number, readAt: number): Promise<void> {
	const option = ctx.cookieNames.sessionCache;
	const until = Math.min(ctx.now + cache.maxAge * 1000, sessionExpires);
	const value = await encodeJwt({ token: { k: key, from: readAt, until, copy }, secret: ctx.config.secrets, salt: option.name, maxAge: cache.maxAge, now: ctx.now });
	// a user too large for one cookie is read from the database each time rather than chunked
	if (value.length > CHUNK_SIZE) {
		ctx.config.logger.debug('session-cache', `A session copy of ${value.length} bytes does not fit one cookie; it is not kept.`);
		dropSessionCacheCookie(ctx);
		return;
	}
	ctx.setCookies.push({ name: option.name, value, options: { ...option.options, expires: new Date(until) } });
}

/** Marks a Date in a copy's JSON, so the user's dates come back as dates (as the adapter gave them). */
const DATE_TAG = '\u0000kitgate-date';

function serializeCopy(session: CachedSession): string {
	return JSON.stringify(session, function (this: Record<string, unknown>, key, value: unknown) {
		// JSON.stringify has turned the Date into a string already; the holder still has the Date
		const original = this[key];
		return original instanceof Date ? { [DATE_TAG]: original.getTime() } : value;
	});
}

/** A copy's session, or null when it is not one (a store holding something else). */
function parseCopy(copy: string): CachedSession | null {
	try {
		const parsed = JSON.parse(copy, (_key, value: unknown) => {
			if (typeof value === 'object' && value !== null && DATE_TAG in value) return new Date((value as Record<string, number>)[DATE_TAG]);
			return value;
		}) as Partial<CachedSession> | null;
		if (!parsed || typeof parsed !== 'object' || typeof parsed.expires !== 'number' || typeof parsed.user?.id !== 'string') return null;
		return {
			user: parsed.user,
			expires: parsed.expires,
			...(typeof parsed.createdAt === 'number' ? { createdAt: parsed.createdAt } : {}),
			...(typeof parsed.activeOrganizationId === 'string' ? { activeOrganizationId: parsed.activeOrganizationId } : {})
		};
	} catch {
		return null;
	}
}

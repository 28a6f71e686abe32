// Rate-limit counters, JWT session revocations and copies of database sessions in Redis, so a
// fleet of servers shares them. Export path: `kitgate/adapters/redis`. The app creates and
// connects the client (node-redis).
import { hex } from '../core/crypto/bytes.js';
import { digest } from '../core/crypto/hash.js';
import { InvalidConfiguration } from '../core/errors.js';
import type { RateLimitCount, RateLimitStore, RevocationStore, SessionCacheLookup, SessionCacheStore } from '../core/types.js';

/**
 * What the store needs of a Redis client: node-redis's `eval` and `evalSha`. A client from
 * `createClient()` or a cluster from `createCluster()` of the `redis` package (5 or 6) has both.
 *
 * @example
 * import { createClient } from 'redis';
 * const client: RedisScriptClient = await createClient({ url: process.env.REDIS_URL }).connect();
 */
export interface RedisScriptClient {
	/** Runs a Lua script (Redis `EVAL`). */
	eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
	/** Runs a Lua script the server has cached by its SHA-1 (Redis `EVALSHA`). */
	evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/**
 * Options of {@link RedisRateLimitStore}.
 *
 * @example
 * const options: RedisRateLimitStoreOptions = { prefix: 'shop:auth:' };
 */
export interface RedisRateLimitStoreOptions {
	/**
	 * Put before every key the store writes (default `"kitgate:"`): counters are
	 * `<prefix>rate:<key>`, revocations `<prefix>revoked:<userId>`.
	 */
	prefix?: string;
}

/**
 * A store in Redis: both a {@link RateLimitStore} and a {@link RevocationStore}.
 *
 * @example
 * const store: RedisRateLimitStore = RedisRateLimitStore(client);
 */
export type RedisRateLimitStore = RateLimitStore & RevocationStore;

// Each script reads and writes one key (KEYS[1]): atomic, and routable on Redis Cluster.
// Times are the caller's clock (ms), passed as strings; PEXPIRE lets Redis drop what has ended.

/** ARGV: now, resetAt of a new window, window length (ms). Returns { count, resetAt }. */
const INCREMENT = luaScript(`local resetAt = tonumber(redis.call('HGET', KEYS[1], 'resetAt'))
if resetAt and resetAt > tonumber(ARGV[1]) then
	return { redis.call('HINCRBY', KEYS[1], 'count', 1), resetAt }
end
redis.call('HSET', KEYS[1], 'count', 1, 'resetAt', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return { 1, tonumber(ARGV[2]) }`);

/** ARGV: now. Takes one hit back from an open window with hits; never opens one. */
const DECREMENT = luaScript(`local entry = redis.call('HMGET', KEYS[1], 'count', 'resetAt')
local count, resetAt = tonumber(entry[1]), tonumber(entry[2])
if count and resetAt and resetAt > tonumber(ARGV[1]) and count > 0 then
	redis.call('HINCRBY', KEYS[1], 'count', -1)
end
return 0`);

const RESET = luaScript(`return redis.call('DEL', KEYS[1])`);

/** ARGV: now. Returns the revocation time, or nil when there is none or it has expired. */
const REVOKED_AT = luaScript(`local entry = redis.call('HMGET', KEYS[1], 'at', 'keepUntil')
local keepUntil = tonumber(entry[2])
if keepUntil and keepUntil > tonumber(ARGV[1]) then return tonumber(entry[1]) end
return false`);

/** ARGV: at, keepUntil, keep (ms). Each field only grows; the key lives at least `keep` more. */
const REVOKE = luaScript(`local entry = redis.call('HMGET', KEYS[1], 'at', 'keepUntil')
local at, keepUntil = tonumber(entry[1]), tonumber(entry[2])
if not at or tonumber(ARGV[1]) > at then redis.call('HSET', KEYS[1], 'at', ARGV[1]) end
if not keepUntil or tonumber(ARGV[2]) > keepUntil then redis.call('HSET', KEYS[1], 'keepUntil', ARGV[2]) end
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 0`);

/**
 * Keeps rate-limit counters and JWT revocations in Redis, through a client your app created and
 * connected (kitgate never opens or closes it): every server using that Redis shares limits and
 * revocations. Each call is one Lua script on one key, so concurrent hits from any number of
 * processes are counted exactly; Redis expires counters when their window ends and revocations
 * when every token they revoke has expired. When Redis is out of memory (`maxmemory` with
 * `noeviction`), a hit is answered `refused` rather than left uncounted.
 *
 * @example
 * import { createClient } from 'redis';
 * import { RedisRateLimitStore } from 'kitgate/adapters/redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const store = RedisRateLimitStore(client, { prefix: 'shop:' });
 * const config = { providers, rateLimit: { store } }; // JWT revocations use it too
 */
export function RedisRateLimitStore(client: RedisScriptClient, options: RedisRateLimitStoreOptions = {}): RedisRateLimitStore {
	const { run, prefix } = connectedStore('RedisRateLimitStore', client, options.prefix ?? 'kitgate:');

	return {
		async increment(key, windowSeconds, now): Promise<RateLimitCount> {
			const windowMs = windowSeconds * 1000;
			try {
				const [count, resetAt] = (await run(INCREMENT, `${prefix}rate:${key}`, [now, now + windowMs, Math.ceil(windowMs)])) as [number, number];
				return { count: Number(count), resetAt: Number(resetAt) };
			} catch (error) {
				// a full Redis cannot count: refuse the attempt, as the contract asks, instead of letting it through
				if (isOutOfMemory(error)) return { count: 0, resetAt: now + windowMs, refused: true };
				throw error;
			}
		},

		async decrement(key, now) {
			await run(DECREMENT, `${prefix}rate:${key}`, [now]);
		},

		async reset(key) {
			await run(RESET, `${prefix}rate:${key}`, []);
		},

		async revokedAt(userId, now) {
			const at = await run(REVOKED_AT, `${prefix}revoked:${userId}`, [now]);
			return at === null || at === undefined ? null : Number(at);
		},

		async revoke(userId, at, keepSeconds) {
			const keepMs = keepSeconds * 1000;
			// Redis times the key from its own now: a revocation dated ahead (a sign-out's is a minute
			// ahead) must live that much longer, or it ends before the tokens it revokes
			const lead = Math.max(0, at - Date.now());
			await run(REVOKE, `${prefix}revoked:${userId}`, [at, at + keepMs, Math.ceil(keepMs + lead)]);
		}
	};
}

/** The script runner and key prefix of a store on `client`; throws what to change when either is wrong. */
function connectedStore(store: string, client: RedisScriptClient, prefix: unknown): { run: ScriptRunner; prefix: string } {
	if (typeof client?.eval !== 'function' || typeof client.evalSha !== 'function') {
		throw new InvalidConfiguration(`${store} needs a connected node-redis client: \`await createClient({ url }).connect()\` from 'redis'.`);
	}
	if (typeof prefix !== 'string') throw new InvalidConfiguration(`${store}: prefix must be a string such as "kitgate:".`);
	return { run: scriptRunner(client), prefix };
}

/** A Lua script and the SHA-1 Redis caches it under. */
interface LuaScript {
	source: string;
	/** Hashed on first use, not at module load: the scripts are module constants. */
	readonly sha1: string;
}

function luaScript(source: string): LuaScript {
	let sha1: string | undefined;
	return {
		source,
		get sha1() {
			return (sha1 ??= hex(digest('sha1', source)));
		}
	};
}

type ScriptRunner = (script: LuaScript, keys: string | string[], args: (number | string)[]) => Promise<unknown>;

/** Runs scripts by their SHA-1 (a few bytes per call), sending the whole script only when the server lacks it. */
function scriptRunner(client: RedisScriptClient): ScriptRunner {
	return async (script, keys, args) => {
		const call = { keys: typeof keys === 'string' ? [keys] : keys, arguments: args.map(String) };
		try {
			return await client.evalSha(script.sha1, call);
		} catch (error) {
			// first use, or a restarted or flushed server: EVAL runs the script and caches it again
			if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
			return client.eval(script.source, call);
		}
	};
}

function isOutOfMemory(error: unknown): boolean {
	return String((error as Error)?.message).startsWith('OOM');
}

/**
 * Options of {@link RedisSessionCacheStore}.
 *
 * @example
 * const options: RedisSessionCacheStoreOptions = { prefix: 'shop:auth:' };
 */
export interface RedisSessionCacheStoreOptions {
	/**
	 * Put before every key the store writes (default `"kitgate:"`). Its keys share the hash tag
	 * `{session-cache}`, so on Redis Cluster they live in one slot (a script reads a copy and its
	 * user's record together).
	 */
	prefix?: string;
}

// Times are Redis's own clock (TIME), so servers whose clocks differ agree on what came first.
// A copy is a hash: u (user id), v (value), f (the miss it was read after, ms).

/** ARGV: the user records' key prefix. Returns {1, value} or {0, now}. */
const CACHE_GET = luaScript(`local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local copy = redis.call('HMGET', KEYS[1], 'u', 'v', 'f')
if copy[2] then
	local forgotten = tonumber(redis.call('GET', ARGV[1] .. copy[1]))
	if not forgotten or forgotten < tonumber(copy[3]) then return { 1, copy[2] } end
	redis.call('DEL', KEYS[1])
end
return { 0, now }`);

/** KEYS: copy, its key's record, its user's record. ARGV: user id, value, missedAt, ttl (ms). */
const CACHE_SET = luaScript(`local missedAt = tonumber(ARGV[3])
local keyForgotten = tonumber(redis.call('GET', KEYS[2]))
if keyForgotten and keyForgotten >= missedAt then return 0 end
local userForgotten = tonumber(redis.call('GET', KEYS[3]))
if userForgotten and userForgotten >= missedAt then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'u', ARGV[1], 'v', ARGV[2], 'f', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`);

/** KEYS: the record to write (and, to forget a key, its copy). ARGV: ttl (ms). */
const CACHE_FORGET = luaScript(`local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if KEYS[2] then redis.call('DEL', KEYS[2]) end
redis.call('SET', KEYS[1], now, 'PX', ARGV[1])
return 0`);

/**
 * Keeps copies of database sessions (`session.cache.store`) in Redis, through a client your app
 * created and connected: every server using that Redis reads the same copies, and when one server
 * ends a session, deletes or changes a user through kitgate, the copies go for all of them. Copies
 * hold the session's user as JSON, under a keyed hash of the session token (never the token).
 *
 * @example
 * import { createClient } from 'redis';
 * import { RedisSessionCacheStore } from 'kitgate/adapters/redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const config = { adapter, session: { cache: { maxAge: 60, store: RedisSessionCacheStore(client) } } };
 */
export function RedisSessionCacheStore(client: RedisScriptClient, options: RedisSessionCacheStoreOptions = {}): SessionCacheStore {
	const { run, prefix } = connectedStore('RedisSessionCacheStore', client, options.prefix ?? 'kitgate:');
	const base = `${prefix}{session-cache}:`;
	const copyKey = (key: string) => `${base}copy:${key}`;
	const forgottenKey = (key: string) => `${base}forgotten:${key}`;
	const userPrefix = `${base}user:`;

	return {
		async get(key): Promise<SessionCacheLookup> {
			const [found, answer] = (await run(CACHE_GET, copyKey(key), [userPrefix])) as [number, string | number];
			return Number(found) === 1 ? { value: String(answer) } : { value: null, missedAt: Number(answer) };
		},
		async set(key, { userId, value, missedAt, ttlSeconds }) {
			await run(CACHE_SET, [copyKey(key), forgottenKey(key), userPrefix + userId], [userId, value, missedAt, Math.ceil(ttlSeconds * 1000)]);
		},
		async forget(key, ttlSeconds) {
			await run(CACHE_FORGET, [forgottenKey(key), copyKey(key)], [Math.ceil(ttlSeconds * 1000)]);
		},
		async forgetUser(userId, ttlSeconds) {
			await run(CACHE_FORGET, userPrefix + userId, [Math.ceil(ttlSeconds * 1000)]);
		}
	};
}

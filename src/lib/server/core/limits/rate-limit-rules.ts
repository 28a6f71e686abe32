// Abuse limits as rules: \`config.rateLimit\` resolved with its defaults, and the pure predicates and
// keys the counting uses. Config-time and pure; counting an attempt is \`rate-limit.ts\`.

import { BoundedCache } from './bounded-cache.js';
import { base64url } from '../crypto/bytes.js';
import { hmac } from '../crypto/hash.js';
import { InvalidConfiguration } from '../errors.js';
import { processRateLimitStore } from './memory-rate-limit-store.js';
import type { RateLimitCount, RateLimitOptions, RateLimitStore } from '../types.js';

/** The kinds of attempts kitgate limits. */
export type AttemptKind = 'credentials' | 'email' | 'emailToken' | 'passkey' | 'account' | 'secondFactor';

/** One kind's limits with defaults filled in; 0 is off. */
export interface ResolvedRule {
	perIdentifier: number;
	perAddress: number;
	windowSeconds: number;
}

/** `config.rateLimit` resolved. */
export interface ResolvedRateLimit {
	credentials?: ResolvedRule & { identifier?: string | ((credentials: Record<string, unknown>) => string | undefined) };
	email?: ResolvedRule;
	emailToken?: ResolvedRule;
	passkey?: ResolvedRule;
	/** Changes through the account routes, per user id and per client address. */
	account?: ResolvedRule;
	/** Second-factor codes, per user id and per client address. */
	secondFactor?: ResolvedRule;
	store: RateLimitStore;
	/** True when the config named the store (it may then keep revocations too). */
	storeGiven: boolean;
	trustedProxies: number;
	clientAddress?: (request: Request) => string | undefined;
}

/**
 * Defaults: failed credentials attempts, email links requested, email links (or codes) that did
 * not match when used, passkey ceremonies started (options requests, per address only), and
 * changes through the account routes (per user and per address).
 */
export const DEFAULT_LIMITS: Record<AttemptKind, ResolvedRule> = {
	credentials: { perIdentifier: 10, perAddress: 100, windowSeconds: 15 * 60 },
	email: { perIdentifier: 5, perAddress: 50, windowSeconds: 15 * 60 },
	emailToken: { perIdentifier: 10, perAddress: 100, windowSeconds: 15 * 60 },
	passkey: { perIdentifier: 0, perAddress: 100, windowSeconds: 15 * 60 },
	account: { perIdentifier: 30, perAddress: 100, windowSeconds: 15 * 60 },
	secondFactor: { perIdentifier: 5, perAddress: 50, windowSeconds: 15 * 60 }
};

/**
 * Resolves and checks `config.rateLimit`; throws `InvalidConfiguration` naming a bad field.
 *
 * @example
 * resolveRateLimit({ credentials: { perIdentifier: 5 } }).credentials?.perAddress // 100
 */
export function resolveRateLimit(option: RateLimitOptions | false | undefined): ResolvedRateLimit {
	if (option === false) return { store: processRateLimitStore(), storeGiven: false, trustedProxies: 0 };
	if (option !== undefined && (option === null || typeof option !== 'object')) {
		throw new InvalidConfiguration('rateLimit must be an object such as { credentials: { perIdentifier: 10 } }, or false.');
	}
	const given = option ?? {};
	const store = given.store;
	if (store !== undefined && !['increment', 'decrement', 'reset'].every((m) => typeof (store as unknown as Record<string, unknown>)[m] === 'function')) {
		throw new InvalidConfiguration('rateLimit.store needs increment(key, windowSeconds, now), decrement(key, now) and reset(key).');
	}
	const trustedProxies = given.trustedProxies ?? 0;
	if (!Number.isInteger(trustedProxies) || trustedProxies < 0) {
		throw new InvalidConfiguration(`rateLimit.trustedProxies must be a whole number of proxies (0 or more); got ${JSON.stringify(trustedProxies)}.`);
	}
	const credentials = given.credentials === false ? undefined : resolveRule('credentials', given.credentials);
	const identifier = given.credentials ? given.credentials.identifier : undefined;
	if (identifier !== undefined && typeof identifier !== 'function' && !(typeof identifier === 'string' && identifier !== '')) {
		throw new InvalidConfiguration(`rateLimit.credentials.identifier must name a credentials field (e.g. "login") or be a function; got ${JSON.stringify(identifier)}.`);
	}
	return {
		credentials: credentials && { ...credentials, identifier },
		email: given.email === false ? undefined : resolveRule('email', given.email),
		emailToken: given.emailToken === false ? undefined : resolveRule('emailToken', given.emailToken),
		passkey: given.passkey === false ? undefined : resolveRule('passkey', given.passkey),
		account: given.account === false ? undefined : resolveRule('account', given.account),
		secondFactor: given.secondFactor === false ? undefined : resolveRule('secondFactor', given.secondFactor),
		store: store ?? processRateLimitStore(),
		storeGiven: store !== undefined,
		trustedProxies,
		clientAddress: given.clientAddress
	};
}

function resolveRule(kind: AttemptKind, rule: Partial<ResolvedRule> | undefined): ResolvedRule {
	const resolved = { ...DEFAULT_LIMITS[kind] };
	for (const field of ['perIdentifier', 'perAddress', 'windowSeconds'] as const) {
		const value = rule?.[field];
		if (value === undefined) continue;
		if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || (field === 'windowSeconds' && value === 0)) {
			throw new InvalidConfiguration(`rateLimit.${kind}.${field} must be a whole number (${field === 'windowSeconds' ? '1' : '0'} or more); got ${JSON.stringify(value)}.`);
		}
		resolved[field] = value;
	}
	return resolved;
}

/**
 * True when the `count`th hit of a window goes over `limit` (0 = no limit). Pure.
 *
 * @example
 * isOverLimit(11, 10) // true
 */
export function isOverLimit(count: number, limit: number): boolean {
	return limit > 0 && count > limit;
}

/**
 * True when a counted hit refuses the attempt: over `limit`, or not counted because the store had
 * no room for a new key. Pure.
 *
 * @example
 * isRefused({ count: 0, resetAt, refused: true }, 10) // true
 */
export function isRefused(count: RateLimitCount, limit: number): boolean {
	return count.refused === true || isOverLimit(count.count, limit);
}

/**
 * Whole seconds from `now` until `resetAt`, at least 1. Pure.
 *
 * @example
 * retryAfterSeconds(now + 90_500, now) // 91
 */
export function retryAfterSeconds(resetAt: number, now: number): number {
	return Math.max(1, Math.ceil((resetAt - now) / 1000));
}

/**
 * The store key of an identifier or address: a keyed hash, so the store never holds email
 * addresses or IP addresses in clear and keys have a fixed length.
 *
 * @example
 * limitKey('credentials', 'id', 'ada@example.com', secret) // 'kitgate:credentials:id:…'
 */
export function limitKey(kind: AttemptKind, scope: 'id' | 'ip', value: string, secret: string): string {
	const message = `${kind}\u0000${scope}\u0000${value}`;
	const cacheKey = `${secret}\u0000${message}`;
	const known = limitKeys.get(cacheKey);
	if (known !== undefined) return known;
	const digest = base64url(hmac('sha256', secret, message));
	return limitKeys.set(cacheKey, `kitgate:${kind}:${scope}:${digest.slice(0, 32)}`);
}

/** Keys of recent identifiers and addresses: the same client and account come back attempt after attempt. */
const limitKeys = new BoundedCache<string>(1024);

/**
 * An identifier as limits compare it: NFKC-normalised, case-folded (`STRASSE` and `straße` are
 * one), trimmed and bounded. Undefined for anything but a string with a visible character. Pure.
 *
 * @example
 * normalizeIdentifier(' Ada@Example.com ') // 'ada@example.com'
 */
export function normalizeIdentifier(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	// upper then lower case approximates Unicode case folding (ß → SS → ss, ς → Σ → σ)
	const normalized = value.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC').trim().slice(0, 512);
	return normalized || undefined;
}

/**
 * The credentials field whose value failed attempts are counted against: `named` (the
 * `rateLimit.credentials.identifier` option) when given, else the declared `email` field, else
 * `username`, else the first declared field that is not a password; undefined when every declared
 * field is a password. Only declared or named fields count: a field the form does not declare
 * cannot move the count elsewhere. Pure.
 *
 * @example
 * identifierField({ login: {}, password: { type: 'password' } }) // 'login'
 * identifierField({ username: {} }, 'email') // 'email'
 */
export function identifierField(declared: Record<string, { type?: string } | undefined>, named?: string): string | undefined {
	if (named) return named;
	const names = Object.keys(declared);
	return ['email', 'username'].find((name) => names.includes(name)) ?? names.find((name) => declared[name]?.type !== 'password');
}

import { describe, expect, test } from 'vitest';
import { MemoryRateLimitStore } from './memory-rate-limit-store.js';
import { DEFAULT_LIMITS, identifierField, isOverLimit, isRefused, limitKey, normalizeIdentifier, resolveRateLimit, retryAfterSeconds } from './rate-limit-rules.js';

const T0 = Date.UTC(2030, 0, 1);

describe('isOverLimit', () => {
	test('the limit-th hit passes, the next one is over', () => {
		expect(isOverLimit(10, 10)).toBe(false);
		expect(isOverLimit(11, 10)).toBe(true);
	});

	test('a limit of 0 is no limit', () => {
		expect(isOverLimit(1_000_000, 0)).toBe(false);
	});
});

describe('isRefused', () => {
	test('over the limit, or not counted for want of room', () => {
		expect(isRefused({ count: 10, resetAt: T0 }, 10)).toBe(false);
		expect(isRefused({ count: 11, resetAt: T0 }, 10)).toBe(true);
		expect(isRefused({ count: 0, resetAt: T0, refused: true }, 10)).toBe(true);
	});
});

describe('retryAfterSeconds', () => {
	test('whole seconds, rounded up, at least 1', () => {
		expect(retryAfterSeconds(T0 + 90_500, T0)).toBe(91);
		expect(retryAfterSeconds(T0 + 1, T0)).toBe(1);
		expect(retryAfterSeconds(T0 - 5000, T0)).toBe(1);
	});
});

describe('limitKey', () => {
	test('a keyed hash: fixed length, no identifier in clear, different per kind, scope and secret', () => {
		const key = limitKey('credentials', 'id', 'ada@example.com', 's1');
		expect(key).toMatch(/^kitgate:credentials:id:[A-Za-z0-9_-]{32}$/);
		expect(key).not.toContain('ada');
		expect(limitKey('credentials', 'id', 'ada@example.com', 's1')).toBe(key);
		expect(limitKey('email', 'id', 'ada@example.com', 's1')).not.toBe(key);
		expect(limitKey('credentials', 'ip', 'ada@example.com', 's1')).not.toBe(key);
		expect(limitKey('credentials', 'id', 'ada@example.com', 's2')).not.toBe(key);
	});
});

describe('normalizeIdentifier', () => {
	test('trimmed, lower case, compatibility-normalised, bounded', () => {
		expect(normalizeIdentifier('  Ada@Example.COM ')).toBe('ada@example.com');
		expect(normalizeIdentifier('ａｄａ')).toBe('ada');
		expect(normalizeIdentifier('x'.repeat(5000))).toHaveLength(512);
	});

	test('case-folded, not just lower-cased: spellings one mailbox or login treats alike count together', () => {
		expect(normalizeIdentifier('STRASSE')).toBe(normalizeIdentifier('straße'));
		expect(normalizeIdentifier('ΟΔΥΣΣΕΥΣ')).toBe(normalizeIdentifier('οδυσσευς'));
		expect(normalizeIdentifier('ὈΔΥΣΣΕΎΣ')).toBe(normalizeIdentifier('ὀδυσσεύς'));
		// NFKC: the Kelvin sign and full-width letters are plain letters
		expect(normalizeIdentifier('\u212Aate')).toBe('kate');
		expect(normalizeIdentifier('\u00a0ada\u3000')).toBe('ada');
	});

	test('no identifier for non-strings and blanks', () => {
		expect(normalizeIdentifier(undefined)).toBeUndefined();
		expect(normalizeIdentifier(['ada'])).toBeUndefined();
		expect(normalizeIdentifier('   ')).toBeUndefined();
	});
});

describe('identifierField', () => {
	const password = { type: 'password' };

	test('the declared email, else username, else the first declared field that is not a password', () => {
		expect(identifierField({ username: {}, email: {}, password })).toBe('email');
		expect(identifierField({ password, username: {} })).toBe('username');
		expect(identifierField({ password, login: {}, code: {} })).toBe('login');
	});

	test('only declared fields: a field the form does not declare never becomes the identifier', () => {
		expect(identifierField({ login: {}, password })).toBe('login');
		expect(identifierField({})).toBeUndefined();
		expect(identifierField({ pin: password })).toBeUndefined();
	});

	test('a named field wins, declared or not', () => {
		expect(identifierField({ email: {}, password }, 'login')).toBe('login');
		expect(identifierField({}, 'login')).toBe('login');
	});
});

describe('resolveRateLimit', () => {
	test('defaults are on for credentials and email, with the process store', () => {
		const resolved = resolveRateLimit(undefined);
		expect(resolved.credentials).toMatchObject(DEFAULT_LIMITS.credentials);
		expect(resolved.email).toEqual(DEFAULT_LIMITS.email);
		expect(resolved.storeGiven).toBe(false);
		expect(resolved.trustedProxies).toBe(0);
		expect(resolveRateLimit({}).store).toBe(resolved.store);
	});

	test('false turns everything off; a kind set to false is off alone', () => {
		const off = resolveRateLimit(false);
		expect(off.credentials).toBeUndefined();
		expect(off.email).toBeUndefined();
		const emailOff = resolveRateLimit({ email: false });
		expect(emailOff.email).toBeUndefined();
		expect(emailOff.credentials).toBeDefined();
	});

	test('given fields replace defaults; the others stay', () => {
		const store = MemoryRateLimitStore();
		const resolved = resolveRateLimit({ credentials: { perIdentifier: 3 }, store, trustedProxies: 1 });
		expect(resolved.credentials).toMatchObject({ ...DEFAULT_LIMITS.credentials, perIdentifier: 3 });
		expect(resolved.store).toBe(store);
		expect(resolved.storeGiven).toBe(true);
		expect(resolved.trustedProxies).toBe(1);
	});

	test.each([
		[{ credentials: { perIdentifier: -1 } }, /rateLimit\.credentials\.perIdentifier/],
		[{ email: { windowSeconds: 0 } }, /rateLimit\.email\.windowSeconds/],
		[{ email: { perAddress: 1.5 } }, /rateLimit\.email\.perAddress/],
		[{ trustedProxies: -2 }, /trustedProxies/],
		[{ store: { increment() {} } }, /rateLimit\.store needs/],
		[{ credentials: { identifier: '' } }, /rateLimit\.credentials\.identifier must name a credentials field/],
		[{ credentials: { identifier: ['login'] } }, /rateLimit\.credentials\.identifier must name a credentials field/],
		['yes', /rateLimit must be an object/]
	])('%j fails at start-up with a message naming the field', (option, message) => {
		expect(() => resolveRateLimit(option as never)).toThrow(message);
	});
});

describe('MemoryRateLimitStore', () => {
	test('counts hits in a fixed window, then starts a new one', () => {
		const store = MemoryRateLimitStore();
		expect(store.increment('k', 60, T0)).toEqual({ count: 1, resetAt: T0 + 60_000 });
		expect(store.increment('k', 60, T0 + 59_999)).toEqual({ count: 2, resetAt: T0 + 60_000 });
		expect(store.increment('k', 60, T0 + 60_000)).toEqual({ count: 1, resetAt: T0 + 120_000 });
	});

	test('decrement takes back a hit of the open window only; reset forgets the key', () => {
		const store = MemoryRateLimitStore();
		store.increment('k', 60, T0);
		store.increment('k', 60, T0);
		store.decrement('k', T0);
		expect(store.increment('k', 60, T0).count).toBe(2);
		store.reset('k');
		expect(store.increment('k', 60, T0).count).toBe(1);
		store.decrement('k', T0 + 60_000);
		store.decrement('other', T0);
		expect(store.increment('k', 60, T0).count).toBe(2);
	});

	test('memory stays bounded: past maxKeys expired counters make room; live ones are never dropped', () => {
		const store = MemoryRateLimitStore({ maxKeys: 3 });
		store.increment('short', 1, T0);
		store.increment('a', 60, T0);
		store.increment('b', 60, T0);
		store.increment('c', 60, T0 + 2000);
		// "short" expired and made room; "a" and "b" kept their counts
		expect(store.increment('a', 60, T0 + 2000).count).toBe(2);
		// full of live counters: a new key is refused, not counted, and says when room frees up
		expect(store.increment('d', 60, T0 + 2000)).toEqual({ count: 0, resetAt: T0 + 60_000, refused: true });
		expect(store.increment('b', 60, T0 + 2000).count).toBe(2);
		expect(store.increment('a', 60, T0 + 2000).count).toBe(3);
		// once windows end, new keys are taken again
		expect(store.increment('d', 60, T0 + 60_000)).toEqual({ count: 1, resetAt: T0 + 120_000 });
	});

	test('an expired counter behind a live one (windows of other lengths) makes room too', () => {
		const store = MemoryRateLimitStore({ maxKeys: 2 });
		store.increment('long', 900, T0);
		store.increment('short', 1, T0);
		expect(store.increment('new', 60, T0 + 5000)).toEqual({ count: 1, resetAt: T0 + 65_000 });
		expect(store.increment('long', 900, T0 + 5000).count).toBe(2);
	});

	test('a flood of new keys keeps the size at maxKeys and never pushes out a live counter', () => {
		const store = MemoryRateLimitStore({ maxKeys: 100 });
		for (let i = 0; i < 5; i++) store.increment('locked', 60, T0);
		for (let i = 0; i < 10_000; i++) store.increment(`k${i}`, 60, T0 + 1);
		// the first keys are there, the rest were refused
		expect(store.increment('k0', 60, T0 + 1).count).toBe(2);
		expect(store.increment('k9999', 60, T0 + 1).refused).toBe(true);
		expect(store.increment('locked', 60, T0 + 1).count).toBe(6);
	});

	test('revocations: the latest time wins, and they are dropped after keepSeconds', () => {
		const store = MemoryRateLimitStore();
		expect(store.revokedAt('u1', T0)).toBeNull();
		store.revoke('u1', T0 + 1000, 60);
		store.revoke('u1', T0, 60);
		expect(store.revokedAt('u1', T0 + 2000)).toBe(T0 + 1000);
		expect(store.revokedAt('u2', T0 + 2000)).toBeNull();
		expect(store.revokedAt('u1', T0 + 61_000)).toBeNull();
	});
});

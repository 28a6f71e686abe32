// The memory store's revocations: bounded, never forgetting a live revocation someone asked for
// (a new one is refused instead), with sign-outs kept apart as best-effort records that make room
// for each other — so a flood of sign-outs cannot push out an ended session's revocation.

import { describe, expect, test } from 'vitest';
import { MemoryRateLimitStore } from './memory-rate-limit-store.js';

const T = 1_700_000_000_000;
const DAY = 86_400;

describe('MemoryRateLimitStore revocations', () => {
	test('a revocation dated ahead of now (a sign-out\'s, a minute ahead) makes room as of now, not as of its date: live ones stay', () => {
		// this machine's clock: what "now" is when no caller said
		const now = Date.now();
		const store = MemoryRateLimitStore({ maxRevocations: 2 });
		store.revoke('ada', now, 10);
		store.revoke('grace', now, 10);
		// full of live revocations: the new one is refused, as for any other
		expect(() => store.revoke('kitgate.sid:k3', now + 60_000, DAY, { owner: 'linus' })).toThrow(/refused/);
		// both still live a few seconds on, so neither may have been dropped for the new one
		expect(store.revokedAt('ada', now + 5000)).toBe(now);
		expect(store.revokedAt('grace', now + 5000)).toBe(now);
	});

	test('a revocation is read back until it expires', () => {
		const store = MemoryRateLimitStore();
		store.revoke('u1', T, DAY);
		expect(store.revokedAt('u1', T + 1000)).toBe(T);
		expect(store.revokedAt('u1', T + DAY * 1000)).toBeNull();
		expect(store.revokedAt('u2', T)).toBeNull();
	});

	test('full of live revocations: a new one is refused and none is forgotten; an expired one makes room', () => {
		const store = MemoryRateLimitStore({ maxRevocations: 3 });
		store.revoke('a', T, DAY);
		store.revoke('b', T, DAY);
		store.revoke('c', T, 1); // kept one second
		expect(() => store.revoke('d', T + 1, DAY)).toThrow(/live revocations.*refused/);
		expect(['a', 'b', 'c', 'd'].map((user) => store.revokedAt(user, T + 2) !== null)).toEqual([true, true, true, false]);
		// a later revocation of a kept key still takes its place
		store.revoke('a', T + 500, DAY);
		expect(store.revokedAt('a', T + 600)).toBe(T + 500);
		// once one expires, there is room again
		store.revoke('d', T + 2000, DAY);
		expect(store.revokedAt('d', T + 2000)).toBe(T + 2000);
		expect(store.revokedAt('a', T + 2000)).toBe(T + 500);
	});

	test('best-effort records (sign-outs) make room for each other, never for a kept one', () => {
		const store = MemoryRateLimitStore({ maxRevocations: 2 });
		store.revoke('ended', T, DAY);
		for (let i = 0; i < 10; i++) store.revoke(`signed-out-${i}`, T + i, DAY, { evictable: true });
		expect(store.revokedAt('ended', T + 20)).toBe(T);
		expect(store.revokedAt('signed-out-9', T + 20)).toBe(T + 9);
		expect(store.revokedAt('signed-out-0', T + 20)).toBeNull();
	});

	test('a key in both pools answers the later time', () => {
		const store = MemoryRateLimitStore();
		store.revoke('s', T, DAY, { evictable: true });
		store.revoke('s', T - 5000, DAY);
		expect(store.revokedAt('s', T + 1)).toBe(T);
	});
});

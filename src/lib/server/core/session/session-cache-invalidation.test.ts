import { describe, expect, test } from 'vitest';
import { CopyEnds } from './session-cache-invalidation.js';

describe('CopyEnds', () => {
	test('a recorded end holds until its end of life; a later record never lowers it', () => {
		const ends = new CopyEnds(10);
		ends.record('a', 1000, 5000, 0);
		expect(ends.endedAt('a', 100)).toBe(1000);
		ends.record('a', 500, 3000, 200);
		expect(ends.endedAt('a', 300)).toBe(1000);
		expect(ends.endedAt('a', 5000)).toBeNull();
		expect(ends.endedAt('b', 100)).toBeNull();
	});

	test('full: the oldest live end is dropped and becomes the floor, so no copy it ended comes back (every older copy counts as ended)', () => {
		const ends = new CopyEnds(3);
		for (const [key, at] of [['a', 100], ['b', 200], ['c', 300]] as const) ends.record(key, at, 10_000, 0);
		ends.record('d', 400, 10_000, 0);
		// 'a' was dropped for room: its time is the floor for every key
		expect(ends.endedAt('a', 1)).toBe(100);
		expect(ends.endedAt('zzz', 1)).toBe(100);
		expect(ends.endedAt('d', 1)).toBe(400);
		// expired records make room without raising the floor
		const fresh = new CopyEnds(2);
		fresh.record('x', 100, 200, 0);
		fresh.record('y', 150, 10_000, 0);
		fresh.record('z', 300, 10_000, 500);
		expect(fresh.endedAt('other', 600)).toBeNull();
	});
});

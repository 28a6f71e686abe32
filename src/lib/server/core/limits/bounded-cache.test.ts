import { describe, expect, test } from 'vitest';
import { BoundedCache } from './bounded-cache.js';

describe('BoundedCache', () => {
	test('keeps values up to its bound, then starts over (never more than max entries)', () => {
		const cache = new BoundedCache<number>(3);
		expect(cache.set('a', 1)).toBe(1);
		cache.set('b', 2);
		cache.set('c', 3);
		expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, 2, 3]);
		cache.set('d', 4);
		expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([undefined, undefined, undefined, 4]);
		cache.delete('d');
		expect(cache.get('d')).toBeUndefined();
	});
});

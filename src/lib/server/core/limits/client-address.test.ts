import { describe, expect, test } from 'vitest';
import { addressLimitKey, forwardedClientAddress, normalizeAddress } from './client-address.js';

describe('normalizeAddress', () => {
	test.each([
		['203.0.113.9', '203.0.113.9'],
		[' 203.0.113.9 ', '203.0.113.9'],
		['203.0.113.9:51234', '203.0.113.9'],
		['::ffff:127.0.0.1', '127.0.0.1'],
		['[::FFFF:203.0.113.9]:443', '203.0.113.9'],
		['2001:DB8::1', '2001:db8::1'],
		['[2001:db8::1]', '2001:db8::1'],
		['::1', '::1'],
		// one address, one spelling: no fresh per-address budget from writing it differently
		['203.000.113.009', '203.0.113.9'],
		['::ffff:cb00:7109', '203.0.113.9'],
		['0:0:0:0:0:FFFF:CB00:7109', '203.0.113.9']
	])('%j is %j', (input, expected) => {
		expect(normalizeAddress(input)).toBe(expected);
	});

	test.each([
		[undefined],
		[null],
		[''],
		['unknown'],
		['300.1.1.1'],
		['1.2.3'],
		['example.com'],
		['1.2.3.4, 5.6.7.8'],
		['<script>'],
		['1:2:3:4:5:6:7:8:9'],
		['1::2::3'],
		['x'.repeat(100)]
	])('%j is not an address', (input) => {
		expect(normalizeAddress(input)).toBeUndefined();
	});
});

describe('addressLimitKey', () => {
	test('an IPv4 address counts alone', () => {
		expect(addressLimitKey('203.0.113.9')).toBe('203.0.113.9');
	});

	test('IPv6 addresses of one /64 share a key, other /64s do not', () => {
		const key = addressLimitKey('2001:db8:1:2:aaaa::1');
		expect(key).toBe('2001:db8:1:2::/64');
		expect(addressLimitKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(key);
		expect(addressLimitKey('2001:db8:1:3::1')).not.toBe(key);
		expect(addressLimitKey('::1')).toBe('0:0:0:0::/64');
	});
});

describe('forwardedClientAddress', () => {
	test('one trusted proxy: the rightmost entry, whatever the client typed to its left', () => {
		expect(forwardedClientAddress('203.0.113.9', 1)).toBe('203.0.113.9');
		expect(forwardedClientAddress('6.6.6.6, 7.7.7.7, 203.0.113.9', 1)).toBe('203.0.113.9');
	});

	test('two trusted proxies: the second entry from the right', () => {
		expect(forwardedClientAddress('6.6.6.6, 203.0.113.9, 10.0.0.2', 2)).toBe('203.0.113.9');
	});

	test('no trusted proxy, a missing header or too few entries: no address', () => {
		expect(forwardedClientAddress('203.0.113.9', 0)).toBeUndefined();
		expect(forwardedClientAddress(null, 1)).toBeUndefined();
		expect(forwardedClientAddress('', 1)).toBeUndefined();
		expect(forwardedClientAddress('203.0.113.9', 2)).toBeUndefined();
	});

	test('an entry that is not an address gives none (never a made-up key)', () => {
		expect(forwardedClientAddress('unknown', 1)).toBeUndefined();
		expect(forwardedClientAddress('203.0.113.9, garbage', 1)).toBeUndefined();
	});
});

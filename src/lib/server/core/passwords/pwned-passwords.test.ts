import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { breachCount, pwnedHashParts } from './pwned-passwords.js';

describe('pwnedHashParts', () => {
	test('the SHA-1 of the UTF-8 password, upper-case hex, split 5 + 35', () => {
		expect(pwnedHashParts('password')).toEqual({ prefix: '5BAA6', suffix: '1E4C9B93F3F0682250B6CF8331B7EE68FD8' });
		const hash = createHash('sha1').update('pässwörd', 'utf8').digest('hex').toUpperCase();
		expect(pwnedHashParts('pässwörd')).toEqual({ prefix: hash.slice(0, 5), suffix: hash.slice(5) });
	});
});

describe('breachCount', () => {
	const suffix = '1E4C9B93F3F0682250B6CF8331B7EE68FD8';
	test('the count on the suffix line; padding lines (count 0), other suffixes and junk do not count', () => {
		const body = ['0018A45C4D1DEF81644B54AB7F969B88D65:1', `${suffix}:10434004`, '00D4F6E8FA6EECAD2A3AA415EEC418D38EC:0', 'junk'].join('\r\n');
		expect(breachCount(body, suffix)).toBe(10434004);
		expect(breachCount(body.replace(suffix, suffix.toLowerCase()), suffix)).toBe(10434004);
		expect(breachCount(`${suffix}:0\r\n`, suffix)).toBe(0);
		expect(breachCount('0018A45C4D1DEF81644B54AB7F969B88D65:3', suffix)).toBe(0);
		expect(breachCount('', suffix)).toBe(0);
		expect(breachCount(`${suffix}:lots`, suffix)).toBe(0);
	});
});

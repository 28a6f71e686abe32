// The default address normalisation: one address, trimmed and lower-cased; lists, display names
// and malformed input refused with EmailSignin.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { EmailSignin } from '../../errors.js';
import { isEmailAddress, normalizeEmailIdentifier } from './email-identifier.js';

describe('normalizeEmailIdentifier', () => {
	test.each([
		['  Ada@Example.COM ', 'ada@example.com'],
		['first.last+tag@sub.example.co.uk', 'first.last+tag@sub.example.co.uk'],
		["o'brien@example.ie", "o'brien@example.ie"],
		['jörg@bücher.example', 'jörg@bücher.example'],
		['a@b-c.example', 'a@b-c.example']
	])('%j → %j', (input, expected) => {
		expect(normalizeEmailIdentifier(input)).toBe(expected);
	});

	test.each([
		['', /empty/],
		['ada@example.com,grace@example.com', /list of addresses/],
		['ada@example.com;grace@example.com', /list of addresses/],
		['ada@example.com grace@example.com', /list of addresses/],
		['ada@example.com\ngrace@example.com', /list of addresses/],
		['ada@x.com@y.com', /list of addresses/],
		['Ada <ada@example.com>', /without a name/],
		['"ada"@example.com', /without a name/],
		['ada', /name@example\.com/],
		['@example.com', /name@example\.com/],
		['ada@', /name@example\.com/],
		['.ada@example.com', /before "@"/],
		['ada..lovelace@example.com', /before "@"/],
		['ada@localhost', /not a valid domain/],
		['ada@-example.com', /not a valid domain/],
		['ada@example..com', /not a valid domain/],
		['ada@[127.0.0.1]', /not a valid domain/],
		[`${'a'.repeat(65)}@example.com`, /before "@"/],
		[`ada@${'a'.repeat(250)}.com`, /longer than 254/]
	])('%j is refused (%s)', (input, message) => {
		expect(() => normalizeEmailIdentifier(input)).toThrow(EmailSignin);
		expect(() => normalizeEmailIdentifier(input)).toThrow(message);
	});

	test('a non-string is refused, not a crash', () => {
		expect(() => normalizeEmailIdentifier(undefined as unknown as string)).toThrow(EmailSignin);
	});

	test('accepted addresses are lower-case, trimmed and stable under a second normalisation', () => {
		fc.assert(
			fc.property(fc.emailAddress(), fc.constantFrom('', ' ', '\t'), (address, pad) => {
				let normalized: string;
				try {
					normalized = normalizeEmailIdentifier(`${pad}${address.toUpperCase()}${pad}`);
				} catch (error) {
					// fast-check also makes valid-but-exotic forms we refuse on purpose (quoted, IP literal, dotless)
					return error instanceof EmailSignin;
				}
				return normalized === normalized.trim().toLowerCase() && normalizeEmailIdentifier(normalized) === normalized;
			})
		);
	});

	test('everything fast-check calls an ordinary address is accepted', () => {
		const ordinary = fc
			.tuple(fc.stringMatching(/^[a-z0-9]{1,20}(\.[a-z0-9]{1,10})?$/), fc.stringMatching(/^[a-z0-9]{1,20}$/), fc.constantFrom('com', 'org', 'fr'))
			.map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
		fc.assert(fc.property(ordinary, (address) => normalizeEmailIdentifier(address) === address));
	});
});

describe('isEmailAddress', () => {
	test.each([
		['kitgate:email-change:user-1:eve@evil.test', 'a change identifier with the address last'],
		['eve@evil.test, ada@example.com', 'a list'],
		['Eve <eve@evil.test>', 'a display name'],
		[' eve@evil.test', 'untrimmed'],
		['eve@localhost', 'a one-label domain'],
		['', 'empty'],
		[42, 'not a string']
	] as [unknown, string][])('%s is not one address (%s)', (value) => {
		expect(isEmailAddress(value)).toBe(false);
	});

	test('accepts what normalizeEmailIdentifier returns, and the same address in any case', () => {
		expect(isEmailAddress('ada@example.com')).toBe(true);
		expect(isEmailAddress('Ada.Lovelace+x@Example.COM')).toBe(true);
		fc.assert(
			fc.property(fc.emailAddress(), (address) => {
				try {
					return isEmailAddress(normalizeEmailIdentifier(address));
				} catch {
					return true;
				}
			})
		);
	});
});

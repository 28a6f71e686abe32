import { describe, expect, test } from 'vitest';
import { isIssuedBeforeRevocation, nextRevocationTime, revocationTime } from './revocation.js';

const AT = 1_900_000_000_000;

describe('isIssuedBeforeRevocation', () => {
	test('no revocation: never revoked', () => {
		expect(isIssuedBeforeRevocation(0, null)).toBe(false);
	});

	test('issued a second before the revocation: revoked; a second after: kept', () => {
		expect(isIssuedBeforeRevocation(AT / 1000 - 1, AT)).toBe(true);
		expect(isIssuedBeforeRevocation(AT / 1000 + 1, AT)).toBe(false);
	});

	test('issued in the very second of a revocation made later in that second: revoked (errs on signing out)', () => {
		expect(isIssuedBeforeRevocation(AT / 1000, AT + 500)).toBe(true);
		expect(isIssuedBeforeRevocation(AT / 1000, AT)).toBe(false);
	});

	test('a token without a numeric iat counts as issued at 0', () => {
		expect(isIssuedBeforeRevocation(undefined, AT)).toBe(true);
		expect(isIssuedBeforeRevocation('1900000001', AT)).toBe(true);
		expect(isIssuedBeforeRevocation(Number.NaN, AT)).toBe(true);
	});
});

describe('nextRevocationTime', () => {
	test('without an earlier revocation, or with one past: the whole second after now plus a second of clock margin', () => {
		expect(nextRevocationTime(AT + 400, null)).toBe(AT + 2000);
		expect(nextRevocationTime(AT + 400, AT - 5000)).toBe(AT + 2000);
		expect(nextRevocationTime(AT, null)).toBe(revocationTime(AT + 1000));
		// a server whose clock runs up to a second ahead issued nothing at or after it yet
		expect(isIssuedBeforeRevocation(Math.floor((AT + 400 + 999) / 1000), nextRevocationTime(AT + 400, null))).toBe(true);
	});

	test('with one still ahead (made earlier in this second): the second after it, which reaches a session issued at it', () => {
		const earlier = revocationTime(AT + 100);
		const next = nextRevocationTime(AT + 700, earlier);
		expect(next).toBe(earlier + 1000);
		// a session signed in between was issued at the earlier revocation's time
		expect(isIssuedBeforeRevocation(earlier / 1000, earlier)).toBe(false);
		expect(isIssuedBeforeRevocation(earlier / 1000, next)).toBe(true);
		// and one issued at the new time goes on
		expect(isIssuedBeforeRevocation(next / 1000, next)).toBe(false);
	});

	test('always a whole second, always later than now and than the earlier one', () => {
		for (const now of [AT, AT + 1, AT + 999, AT + 1000, AT + 123_456]) {
			for (const earlier of [null, AT - 1, AT, AT + 1000, AT + 2000, now + 5000]) {
				const next = nextRevocationTime(now, earlier);
				expect(next % 1000).toBe(0);
				expect(next).toBeGreaterThan(now + 1000);
				if (earlier !== null) expect(next).toBeGreaterThan(earlier);
			}
		}
	});
});

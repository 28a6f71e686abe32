import { describe, expect, test } from 'vitest';
import { isIssuedBeforeRevocation } from './revocation.js';

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

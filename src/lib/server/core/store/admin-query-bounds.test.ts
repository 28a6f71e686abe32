import { describe, expect, test } from 'vitest';
import { boundAuditLimit, boundUserListQuery } from './admin-query-bounds.js';

describe('boundUserListQuery: what an adapter runs, whatever the caller passed', () => {
	test('the search is trimmed; missing or blank, it is empty (every user)', () => {
		expect(boundUserListQuery({ search: '  Ada\t', limit: 20, offset: 0 }).search).toBe('Ada');
		expect(boundUserListQuery({ search: '   ', limit: 20, offset: 0 }).search).toBe('');
		expect(boundUserListQuery({ limit: 20, offset: 0 }).search).toBe('');
		expect(boundUserListQuery({ search: 42 as unknown as string, limit: 20, offset: 0 }).search).toBe('');
	});

	test('the limit is a whole number from 1 to 100, the offset one from 0', () => {
		expect(boundUserListQuery({ limit: 20, offset: 40 })).toMatchObject({ limit: 20, offset: 40 });
		expect(boundUserListQuery({ limit: 0, offset: -1 })).toMatchObject({ limit: 1, offset: 0 });
		expect(boundUserListQuery({ limit: 1e9, offset: 2.9 })).toMatchObject({ limit: 100, offset: 2 });
		expect(boundUserListQuery({ limit: Number.NaN, offset: Number.POSITIVE_INFINITY })).toMatchObject({ limit: 1, offset: 0 });
		expect(boundUserListQuery({ limit: '50' as unknown as number, offset: 1e300 })).toMatchObject({ limit: 1, offset: Number.MAX_SAFE_INTEGER });
	});
});

test('boundAuditLimit: a whole number from 0 to 1000', () => {
	expect(boundAuditLimit(50)).toBe(50);
	expect(boundAuditLimit(-3)).toBe(0);
	expect(boundAuditLimit(1e6)).toBe(1000);
	expect(boundAuditLimit(Number.NaN)).toBe(0);
});

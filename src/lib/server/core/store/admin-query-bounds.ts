// The limits every adapter applies to the admin lists' queries, whatever the caller passed: the
// search trimmed, a page of 1 to 100 users, at most 1000 audit rows. Internal to the adapters.
import type { UserListQuery } from '../types.js';

/** The most users one `listUsers` page holds. */
export const MAX_USERS_PER_PAGE = 100;

/** The most rows one `listAuditEntries` call returns. */
export const MAX_AUDIT_ENTRIES = 1000;

/**
 * A user list query an adapter can run as it is: `search` trimmed (`''`: every user), `limit` a
 * whole number from 1 to {@link MAX_USERS_PER_PAGE}, `offset` a whole number from 0.
 *
 * @example
 * boundUserListQuery({ search: '  Ada ', limit: 500, offset: -3 }); // { search: 'Ada', limit: 100, offset: 0 }
 */
export function boundUserListQuery(query: UserListQuery): { search: string; limit: number; offset: number } {
	const search = typeof query.search === 'string' ? query.search.trim() : '';
	return {
		search,
		limit: clampWhole(query.limit, 1, MAX_USERS_PER_PAGE, 1),
		offset: clampWhole(query.offset, 0, Number.MAX_SAFE_INTEGER, 0)
	};
}

/**
 * The number of audit rows to return for a requested `limit`: a whole number from 0 to
 * {@link MAX_AUDIT_ENTRIES}.
 *
 * @example
 * boundAuditLimit(50); // 50
 */
export function boundAuditLimit(limit: number): number {
	return clampWhole(limit, 0, MAX_AUDIT_ENTRIES, 0);
}

/** `value` truncated to a whole number within [min, max]; `fallback` when it is not a finite number. */
function clampWhole(value: unknown, min: number, max: number, fallback: number): number {
	if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
	return Math.min(max, Math.max(min, Math.trunc(value)));
}

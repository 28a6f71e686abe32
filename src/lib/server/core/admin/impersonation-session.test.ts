import { describe, expect, test } from 'vitest';
import { impersonationOfSessionToken, impersonationOfToken, impersonationSessionToken, isImpersonationToken, IMPERSONATION_CLAIM } from './impersonation-session.js';

describe('the impersonation mark', () => {
	test('a database token made for an admin reads back as that admin and end (whole seconds)', () => {
		const token = impersonationSessionToken('admin-ü-1', 1_767_225_600_900);
		expect(isImpersonationToken(token)).toBe(true);
		expect(token).toMatch(/^imp\.[A-Za-z0-9_-]+\.\d+\.[A-Za-z0-9_-]{43}$/);
		expect(impersonationOfSessionToken(token)).toEqual({ adminId: 'admin-ü-1', expires: 1_767_225_600_000 });
		// two tokens for the same admin and end differ
		expect(impersonationSessionToken('a', 1000)).not.toBe(impersonationSessionToken('a', 1000));
	});

	test('an ordinary token is no impersonation; a malformed imp. token is one that is over', () => {
		expect(impersonationOfSessionToken('3f2a9c')).toBeNull();
		for (const hostile of ['imp.', 'imp.!!!.x.y', 'imp.YQ.notanumber.r', 'imp.YQ.99999999999999.r', 'imp.__8.1.r']) {
			const mark = impersonationOfSessionToken(hostile);
			expect(mark, hostile).not.toBeNull();
			// no admin or no end: checkImpersonation ends it
			expect(mark!.adminId === '' || mark!.expires === 0, hostile).toBe(true);
		}
	});

	test('a JWT carries the mark as a claim; any value there is a mark, a malformed one over', () => {
		expect(impersonationOfToken({ sub: 'u' })).toBeNull();
		expect(impersonationOfToken({ sub: 'u', [IMPERSONATION_CLAIM]: { admin: { id: 'a' }, expires: 5 } })).toEqual({ adminId: 'a', expires: 5 });
		expect(impersonationOfToken({ sub: 'u', [IMPERSONATION_CLAIM]: { admin: { id: 7 }, expires: '5' } })).toEqual({ adminId: '', expires: 0 });
	});
});

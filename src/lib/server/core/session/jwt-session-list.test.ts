// The ids of JWT sessions listed one by one (jwt-session-list.ts): an id is read only when it looks
// like one kitgate wrote, and a row token is told from a database session token. The sessions
// themselves, through Auth(): test/jwt-sessions.test.ts.

import { describe, expect, test } from 'vitest';
import { isJwtSessionRow, rowToken, SESSION_ID_CLAIM, sessionIdOf } from './jwt-session-list.js';

describe('session ids and row tokens (pure)', () => {
	test('an id is read only when it looks like one kitgate wrote', () => {
		expect(sessionIdOf({ [SESSION_ID_CLAIM]: 'abcdefghijklmnopqrstuv' })).toBe('abcdefghijklmnopqrstuv');
		expect(sessionIdOf({ [SESSION_ID_CLAIM]: 'short' })).toBeUndefined();
		expect(sessionIdOf({ [SESSION_ID_CLAIM]: 'has spaces in it, sixteen+' })).toBeUndefined();
		expect(sessionIdOf({ [SESSION_ID_CLAIM]: 42 })).toBeUndefined();
		expect(sessionIdOf({})).toBeUndefined();
	});

	test('row tokens are told from database session tokens', () => {
		expect(isJwtSessionRow(rowToken('abcdefghijklmnopqrstuv'))).toBe(true);
		expect(isJwtSessionRow('3f8a2c1e-0000-4000-8000-000000000000')).toBe(false);
	});
});

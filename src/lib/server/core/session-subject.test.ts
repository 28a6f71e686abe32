import { describe, expect, test } from 'vitest';
import { readSubject, SUBJECT_CLAIM, subjectOfSignIn, withSubject } from './session-subject.js';

describe('the subject a JWT session records', () => {
	test('credentials sign-ins name authorize()\'s id; other sign-ins a stored user only with an adapter', () => {
		expect(subjectOfSignIn({ provider: 'password', type: 'credentials', providerAccountId: '1' }, true)).toEqual({ credentials: 'password' });
		expect(subjectOfSignIn({ provider: 'password', type: 'credentials', providerAccountId: '1' }, false)).toEqual({ credentials: 'password' });
		expect(subjectOfSignIn({ provider: 'google', type: 'oidc', providerAccountId: 'g-1' }, true)).toBe('user');
		expect(subjectOfSignIn({ provider: 'google', type: 'oidc', providerAccountId: 'g-1' }, false)).toBeUndefined();
		expect(subjectOfSignIn(null, true)).toBe('user');
	});

	test('read back only in the two shapes kitgate writes', () => {
		expect(readSubject({ [SUBJECT_CLAIM]: 'user' })).toBe('user');
		expect(readSubject({ [SUBJECT_CLAIM]: { credentials: 'password' } })).toEqual({ credentials: 'password' });
		for (const claim of [undefined, null, 'User', true, { credentials: 1 }, ['user']]) expect(readSubject({ [SUBJECT_CLAIM]: claim })).toBeUndefined();
	});

	test('set whatever the token said, removed when there is none; the same token when nothing changes', () => {
		const token = { sub: '1', [SUBJECT_CLAIM]: 'user' };
		expect(withSubject(token, 'user')).toBe(token);
		expect(withSubject(token, { credentials: 'c' })).toEqual({ sub: '1', [SUBJECT_CLAIM]: { credentials: 'c' } });
		expect(withSubject(token, undefined)).toEqual({ sub: '1' });
		expect(withSubject({ sub: '1' }, 'user')).toEqual(token);
	});
});

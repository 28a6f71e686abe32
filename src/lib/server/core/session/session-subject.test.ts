import { describe, expect, test } from 'vitest';
import { readSubject, SUBJECT_CLAIM, subjectOfSignIn, withSubject } from './session-subject.js';

describe('the subject a JWT session records', () => {
	test('credentials sign-ins name authorize()\'s id; other sign-ins a stored user only with an adapter', () => {
		expect(subjectOfSignIn({ provider: 'password', type: 'credentials', providerAccountId: '1' }, true, 'ada@example.com')).toEqual({ credentials: 'password', email: 'ada@example.com' });
		expect(subjectOfSignIn({ provider: 'password', type: 'credentials', providerAccountId: '1' }, false)).toEqual({ credentials: 'password', email: null });
		expect(subjectOfSignIn({ provider: 'google', type: 'oidc', providerAccountId: 'g-1' }, true)).toBe('user');
		expect(subjectOfSignIn({ provider: 'google', type: 'oidc', providerAccountId: 'g-1' }, false)).toBeUndefined();
		expect(subjectOfSignIn(null, true)).toBe('user');
	});

	test('read back only in the two shapes kitgate writes', () => {
		expect(readSubject({ [SUBJECT_CLAIM]: 'user' })).toBe('user');
		expect(readSubject({ [SUBJECT_CLAIM]: { credentials: 'password' } })).toEqual({ credentials: 'password' });
		expect(readSubject({ [SUBJECT_CLAIM]: { credentials: 'password', email: 'ada@example.com' } })).toEqual({ credentials: 'password', email: 'ada@example.com' });
		expect(readSubject({ [SUBJECT_CLAIM]: { credentials: 'password', email: null } })).toEqual({ credentials: 'password', email: null });
		// an address of another type is no address: the claim reads as one written before addresses were recorded
		expect(readSubject({ [SUBJECT_CLAIM]: { credentials: 'password', email: 42 } })).toEqual({ credentials: 'password' });
		for (const claim of [undefined, null, 'User', true, { credentials: 1 }, ['user']]) expect(readSubject({ [SUBJECT_CLAIM]: claim })).toBeUndefined();
	});

	test('set whatever the token said, removed when there is none; the same token when nothing changes', () => {
		const token = { sub: '1', [SUBJECT_CLAIM]: 'user' };
		expect(withSubject(token, 'user')).toBe(token);
		expect(withSubject(token, { credentials: 'c' })).toEqual({ sub: '1', [SUBJECT_CLAIM]: { credentials: 'c' } });
		expect(withSubject(token, undefined)).toEqual({ sub: '1' });
		expect(withSubject({ sub: '1' }, 'user')).toEqual(token);
		const credentials = { sub: '1', [SUBJECT_CLAIM]: { credentials: 'c', email: 'ada@example.com' } };
		expect(withSubject(credentials, { credentials: 'c', email: 'ada@example.com' })).toBe(credentials);
		// a callback that changed the recorded address gets the sign-in's back
		expect(withSubject({ sub: '1', [SUBJECT_CLAIM]: { credentials: 'c', email: 'eve@example.com' } }, { credentials: 'c', email: 'ada@example.com' })).toEqual(credentials);
	});

	test('a claim with any other key, or missing one, is written anew in the shape kitgate writes', () => {
		const subject = { credentials: 'c', email: 'ada@example.com' };
		const written = { sub: '1', [SUBJECT_CLAIM]: subject };
		for (const claim of [
			{ credentials: 'c', email: 'ada@example.com', extra: 1 },
			{ credentials: 'c' },
			{ email: 'ada@example.com', other: 'c' },
			Object.defineProperty({ email: 'ada@example.com', other: 'c' }, 'credentials', { value: 'c', enumerable: false }),
			{ credentials: 'd', email: 'ada@example.com' },
			['c', 'ada@example.com']
		]) {
			const token = { sub: '1', [SUBJECT_CLAIM]: claim };
			expect(withSubject(token, subject)).not.toBe(token);
			expect(withSubject(token, subject)).toEqual(written);
		}
		const without = { sub: '1', [SUBJECT_CLAIM]: { credentials: 'c' } };
		expect(withSubject(without, { credentials: 'c' })).toBe(without);
		const withEmail = { sub: '1', [SUBJECT_CLAIM]: { credentials: 'c', email: null } };
		expect(withSubject(withEmail, { credentials: 'c' })).toEqual(without);
	});
});

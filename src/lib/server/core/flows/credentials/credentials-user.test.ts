import { describe, expect, test } from 'vitest';
import type { AdapterUser } from '../../types.js';
import { isSameUser } from './credentials-user.js';

const user = (email: string): AdapterUser => ({ id: '1', name: null, email, emailVerified: null });

describe('whether the stored user with authorize()\'s id is that identity (isSameUser)', () => {
	test('both with an address: the same address, compared without case', () => {
		expect(isSameUser('credentials', { id: '1', email: 'Ada@Example.com' }, user('ada@example.com'), [])).toBe(true);
		expect(isSameUser('credentials', { id: '1', email: 'ada@example.com' }, user('ada@example.com'), [{ provider: 'google' }])).toBe(true);
		expect(isSameUser('credentials', { id: '1', email: 'ada@example.com' }, user('ada@example.com'), undefined)).toBe(true);
		expect(isSameUser('credentials', { id: '1', email: 'mallory@example.com' }, user('alice@example.com'), [])).toBe(false);
	});

	test('one of them without an address: never', () => {
		expect(isSameUser('credentials', { id: '1', email: null }, user('alice@example.com'), [])).toBe(false);
		expect(isSameUser('credentials', { id: '1', email: 'mallory@example.com' }, user(''), [])).toBe(false);
	});

	test('neither with an address: only a user no sign-in made (no accounts at all, and the adapter can tell)', () => {
		expect(isSameUser('credentials', { id: '1' }, user(''), [])).toBe(true);
		expect(isSameUser('credentials', { id: '1' }, user(''), [{ provider: 'passkey' }])).toBe(false);
		expect(isSameUser('credentials', { id: '1' }, user(''), [{ provider: 'twitter' }])).toBe(false);
		expect(isSameUser('credentials', { id: '1' }, user(''), undefined)).toBe(false);
	});

	test('a user with an account of this Credentials provider (under another id) is someone else', () => {
		expect(isSameUser('credentials', { id: '1', email: 'ada@example.com' }, user('ada@example.com'), [{ provider: 'credentials' }])).toBe(false);
		expect(isSameUser('credentials', { id: '1', email: 'ada@example.com' }, user('ada@example.com'), [{ provider: 'other-password' }])).toBe(true);
	});
});

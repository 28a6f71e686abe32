import { describe, expect, test } from 'vitest';
import {
	hashInvitationSecret,
	invitationSecretMatches,
	invitationToken,
	newInvitationSecret,
	parseInvitationToken
} from './invitation-token.js';

const APP_SECRET = 'app-secret-app-secret-app-secret-0001';
const OLD_SECRET = 'app-secret-app-secret-app-secret-0000';

describe('invitation tokens', () => {
	test('a new secret is 32 random bytes as base64url, never the same twice', () => {
		const a = newInvitationSecret();
		const b = newInvitationSecret();
		expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(a).not.toBe(b);
	});

	test('a token made by invitationToken parses back into its parts', () => {
		const secret = newInvitationSecret();
		const id = crypto.randomUUID();
		expect(parseInvitationToken(invitationToken(id, secret))).toEqual({ invitationId: id, secret });
	});

	test.each([
		['not a string', 42],
		['empty', ''],
		['no dot', 'abc'],
		['two dots', `a.b.${'x'.repeat(43)}`],
		['empty id', `.${'x'.repeat(43)}`],
		['short secret', `inv.${'x'.repeat(42)}`],
		['long secret', `inv.${'x'.repeat(44)}`],
		['secret with padding', `inv.${'x'.repeat(42)}=`],
		['id with a slash', `in/v.${'x'.repeat(43)}`],
		['id with a NUL', `in\u0000v.${'x'.repeat(43)}`],
		['over-long id', `${'a'.repeat(65)}.${'x'.repeat(43)}`],
		['a lone surrogate', `inv.${'x'.repeat(42)}\uD800`]
	])('a malformed token is refused: %s', (_name, token) => {
		expect(parseInvitationToken(token)).toBeNull();
	});

	test('the right secret matches its stored hash', () => {
		const secret = newInvitationSecret();
		const stored = hashInvitationSecret('inv-1', secret, APP_SECRET);
		expect(stored).toMatch(/^[0-9a-f]{64}$/);
		expect(stored).not.toContain(secret);
		expect(invitationSecretMatches('inv-1', stored, secret, [APP_SECRET])).toBe(true);
	});

	test('a wrong secret does not match', () => {
		const stored = hashInvitationSecret('inv-1', newInvitationSecret(), APP_SECRET);
		expect(invitationSecretMatches('inv-1', stored, newInvitationSecret(), [APP_SECRET])).toBe(false);
	});

	test('the valid secret of another invitation does not match this invitation', () => {
		const secretOfOther = newInvitationSecret();
		const storedOfThis = hashInvitationSecret('inv-1', newInvitationSecret(), APP_SECRET);
		// even a hash equal to the other one's would not help: the id is part of what is hashed
		expect(hashInvitationSecret('inv-1', secretOfOther, APP_SECRET)).not.toBe(hashInvitationSecret('inv-2', secretOfOther, APP_SECRET));
		expect(invitationSecretMatches('inv-1', storedOfThis, secretOfOther, [APP_SECRET])).toBe(false);
	});

	test('a secret hashed under another app secret does not match', () => {
		const secret = newInvitationSecret();
		const stored = hashInvitationSecret('inv-1', secret, 'someone-elses-secret-someone-elses-secret');
		expect(invitationSecretMatches('inv-1', stored, secret, [APP_SECRET])).toBe(false);
	});

	test('a rotated app secret keeps links working while the old secret is still configured, and ends them once removed', () => {
		const secret = newInvitationSecret();
		const stored = hashInvitationSecret('inv-1', secret, OLD_SECRET);
		expect(invitationSecretMatches('inv-1', stored, secret, [APP_SECRET, OLD_SECRET])).toBe(true);
		expect(invitationSecretMatches('inv-1', stored, secret, [APP_SECRET])).toBe(false);
	});
});

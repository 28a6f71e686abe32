// `mergeUserinfoClaims`: what userinfo may add to an ID token's claims (the nameless-users fix),
// as plain values. The flow against real providers: core/test/nameless-oidc-users.test.ts.

import { describe, expect, test } from 'vitest';
import { mergeUserinfoClaims } from './userinfo-claims-merge.js';

const idToken = { iss: 'https://idp.example', sub: 'u1', aud: 'app', exp: 2_000_000_000, iat: 1_900_000_000, nonce: 'n' };

describe('mergeUserinfoClaims', () => {
	test('fills absent and empty claims; keeps every claim the ID token has', () => {
		const merged = mergeUserinfoClaims({ ...idToken, name: '', locale: 'fr' }, { sub: 'u1', name: 'Ada', email: 'ada@example.com', email_verified: true, locale: 'en' });
		expect(merged).toEqual({ ...idToken, name: 'Ada', email: 'ada@example.com', email_verified: true, locale: 'fr' });
	});

	test('never the token’s own claims: sub, iss, aud, times, nonce, session', () => {
		const { sub: _sub, ...bare } = idToken;
		const merged = mergeUserinfoClaims(bare, { sub: 'other', iss: 'https://evil.example', aud: 'x', exp: 1, auth_time: 1, acr: 'x', amr: ['x'], sid: 'x', jti: 'x', azp: 'x', at_hash: 'x' });
		expect(merged).toEqual(bare);
	});

	test('a verification flag only with the address it is about', () => {
		// the ID token's address stays, with the ID token's word on it
		expect(mergeUserinfoClaims({ ...idToken, email: 'a@example.com', email_verified: false }, { sub: 'u1', email: 'b@example.com', email_verified: true })).toMatchObject({ email: 'a@example.com', email_verified: false });
		// an address from userinfo: userinfo's word, or none (never the ID token's flag about no address)
		expect(mergeUserinfoClaims({ ...idToken, email_verified: true }, { sub: 'u1', email: 'b@example.com' })).not.toHaveProperty('email_verified');
		expect(mergeUserinfoClaims({ ...idToken, email_verified: true }, { sub: 'u1', email: 'b@example.com', email_verified: false })).toMatchObject({ email: 'b@example.com', email_verified: false });
		// a flag without an address adds nothing
		expect(mergeUserinfoClaims(idToken, { sub: 'u1', email_verified: true, phone_number_verified: true })).toEqual(idToken);
		expect(mergeUserinfoClaims(idToken, { sub: 'u1', phone_number: '+1', phone_number_verified: true })).toMatchObject({ phone_number: '+1', phone_number_verified: true });
	});

	test('names of the prototype are not claims: nothing is inherited, nothing replaced', () => {
		const hostile = JSON.parse('{"sub":"u1","__proto__":{"email":"x@evil.example","email_verified":true},"constructor":{"name":"x"},"toString":"x","name":"Ada"}') as Record<string, unknown>;
		const merged = mergeUserinfoClaims(idToken, hostile);
		expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
		expect(merged.email).toBeUndefined();
		expect(merged.email_verified).toBeUndefined();
		expect(Object.hasOwn(merged, 'constructor')).toBe(false);
		expect(merged.name).toBe('Ada');
		// an own claim that only shares a name with Object.prototype's members is an ordinary claim
		expect(merged.toString).toBe('x');
	});
});

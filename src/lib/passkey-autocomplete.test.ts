// passkeyAutocomplete: which sign-in fields get the `webauthn` autofill token, and that the
// tokens a field already has are kept.

import { describe, expect, test } from 'vitest';
import { passkeyAutocomplete } from './passkey-autocomplete.js';

describe('passkeyAutocomplete', () => {
	test('a field naming the user keeps its tokens and gets `webauthn` last', () => {
		expect(passkeyAutocomplete({ name: 'username', autocomplete: 'username' })).toBe('username webauthn');
		expect(passkeyAutocomplete({ name: 'email', type: 'email', autocomplete: 'email' })).toBe('email webauthn');
		expect(passkeyAutocomplete({ name: 'login', autocomplete: 'section-work username' })).toBe('section-work username webauthn');
		expect(passkeyAutocomplete({ name: 'mail', autocomplete: ' work email ' })).toBe('work email webauthn');
		expect(passkeyAutocomplete({ name: 'login', autocomplete: 'Username' })).toBe('Username webauthn');
	});

	test('without an autocomplete, a field called username or email (or of type email) gets one', () => {
		expect(passkeyAutocomplete({ name: 'username' })).toBe('username webauthn');
		expect(passkeyAutocomplete({ name: 'email' })).toBe('email webauthn');
		expect(passkeyAutocomplete({ name: 'address', type: 'email' })).toBe('email webauthn');
		expect(passkeyAutocomplete({ name: 'username', autocomplete: '' })).toBe('username webauthn');
	});

	test('other fields, `off`, and a value that has `webauthn` already are left as they are', () => {
		expect(passkeyAutocomplete({ name: 'password', type: 'password', autocomplete: 'current-password' })).toBe('current-password');
		expect(passkeyAutocomplete({ name: 'username', autocomplete: 'off' })).toBe('off');
		expect(passkeyAutocomplete({ name: 'username', autocomplete: 'username webauthn' })).toBe('username webauthn');
		expect(passkeyAutocomplete({ name: 'code', autocomplete: 'one-time-code' })).toBe('one-time-code');
		expect(passkeyAutocomplete({ name: 'pin' })).toBeUndefined();
		expect(passkeyAutocomplete({ name: 'password', type: 'password' })).toBeUndefined();
	});
});

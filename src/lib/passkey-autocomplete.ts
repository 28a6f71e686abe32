// The `autocomplete` of a sign-in field that names the user, with the `webauthn` token appended so
// the browser offers saved passkeys in it (passkey autofill). Shared by the built-in sign-in page
// and the SignIn component; it imports nothing.

/** A sign-in field as the credentials provider and the email form declare it. */
export interface IdentifierField {
	name: string;
	type?: string;
	autocomplete?: string;
}

/** The autofill field names of a field that identifies the user. */
const IDENTIFIERS = new Set(['username', 'email']);

/**
 * The field's `autocomplete` with `webauthn` appended when the field names the user (its
 * autocomplete ends in `username` or `email`, or, without one, it is called `username` or
 * `email` or has type `email`). Other fields, `off`, and values with `webauthn` already are kept.
 *
 * @example
 * passkeyAutocomplete({ name: 'username', autocomplete: 'username' }) // 'username webauthn'
 * passkeyAutocomplete({ name: 'email', type: 'email' }) // 'email webauthn'
 * passkeyAutocomplete({ name: 'password', type: 'password', autocomplete: 'current-password' }) // 'current-password'
 */
export function passkeyAutocomplete(field: IdentifierField): string | undefined {
	const given = field.autocomplete?.trim();
	if (given) {
		const tokens = given.toLowerCase().split(/\s+/);
		if (tokens.includes('webauthn') || !IDENTIFIERS.has(tokens.at(-1)!)) return field.autocomplete;
		return `${given} webauthn`;
	}
	if (field.name === 'username') return 'username webauthn';
	if (field.name === 'email' || field.type === 'email') return 'email webauthn';
	return field.autocomplete;
}

// The `autocomplete` of a sign-in field that names the user, with the `webauthn` token appended so
// the browser offers saved passkeys in it (passkey autofill). Shared by the built-in sign-in page
// and the SignIn component; it imports nothing.

/** A sign-in field as the credentials provider and the email form declare it. */
export interface IdentifierField {
	name: string;
	type?: string;
	autocomplete?: string;
}

/**
 * The field's `autocomplete` with `webauthn` appended when the field names the user (its
 * autocomplete ends in `username` or `email`, or, without one, it is called `username` or
 * `email` or has type `email`). Other fields, `off`, and values with `webauthn` already are kept.
 * (Written small: the SignIn component ships it to the browser.)
 *
 * @example
 * passkeyAutocomplete({ name: 'username', autocomplete: 'username' }) // 'username webauthn'
 * passkeyAutocomplete({ name: 'email', type: 'email' }) // 'email webauthn'
 * passkeyAutocomplete({ name: 'password', type: 'password', autocomplete: 'current-password' }) // 'current-password'
 */
export function passkeyAutocomplete({ name, type, autocomplete }: IdentifierField): string | undefined {
	const given = autocomplete?.trim() || (name === 'username' || name === 'email' ? name : type === 'email' ? 'email' : '');
	return /(^|\s)(username|email)$/i.test(given) ? `${given} webauthn` : autocomplete;
}

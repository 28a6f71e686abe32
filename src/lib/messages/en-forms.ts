// The English texts the `SignIn`/`SignOut` components ship to the browser by default: their part
// of the message table (kept small; `setMessages(resolveMessages(locale))` gives them the rest).

/**
 * English texts of the sign-in and sign-out forms, keyed by message id: button
 * texts, the email field, the "or" between providers, and the alerts a form can show in place.
 * The built-in pages use the same ids.
 *
 * @example enForms['signin.with'] // 'Sign in with {provider}'
 */
export const enForms = {
	'signin.submit': 'Sign in',
	'signin.with': 'Sign in with {provider}',
	'signin.email.label': 'Email address',
	'signin.error.CredentialsSignin': 'Sign in failed. Check the details you provided are correct.',
	'signin.error.Default': 'Unable to sign in. Please try again.',
	'signin.or': 'or',
	'signout.button': 'Sign out'
} satisfies Record<string, string>;

// The English texts of the passkey components (`PasskeySignIn`, `PasskeyRegister`): their part of
// the message table, kept apart so the sign-in/sign-out components do not ship them.

/**
 * English texts of the passkey components, keyed by message id (`passkey.*`).
 *
 * @example enPasskey['passkey.add'] // 'Add a passkey'
 */
export const enPasskey = {
	'passkey.signIn': 'Sign in with a passkey',
	'passkey.emailLabel': 'Email (to create a passkey)',
	'passkey.add': 'Add a passkey',
	'passkey.remove': 'Remove',
	'passkey.noscript': 'Passkeys need JavaScript. Turn it on in your browser to use them.',
	'passkey.loading': 'Loading your passkeys…',
	'passkey.signedOut': 'Sign in to manage your passkeys.',
	'passkey.empty': 'You have no passkeys yet.',
	'passkey.added': 'Passkey added.',
	'passkey.removed': 'Passkey removed.',
	'passkey.name': 'Passkey …{id}',
	'passkey.multiDevice': 'Synced across devices',
	'passkey.singleDevice': 'This device only',
	'passkey.backedUp': 'Backed up',
	'passkey.notBackedUp': 'Not backed up',
	'passkey.error.WebAuthnUnsupported': 'This browser cannot use passkeys.',
	'passkey.error.WebAuthnCancelled': 'The passkey prompt was closed. Nothing changed.',
	'passkey.error.WebAuthnVerificationError': 'Your passkey could not be verified. Please try again.',
	'passkey.error.AccessDenied': 'This passkey cannot be used for this account.',
	'passkey.error.Default': 'Something went wrong with the passkey. Please try again.'
} satisfies Record<string, string>;

// English texts of the passkey components, keyed by purpose; pass `texts` to a component to
// translate or reword any of them. Export path: `kitgate/components`.

/** Every text the passkey components show. */
export interface PasskeyTexts {
	signIn: string;
	emailLabel: string;
	add: string;
	remove: string;
	noscript: string;
	loading: string;
	signedOut: string;
	empty: string;
	added: string;
	removed: string;
	/** `{id}` is replaced by the end of the credential ID. */
	name: string;
	multiDevice: string;
	singleDevice: string;
	backedUp: string;
	notBackedUp: string;
	WebAuthnUnsupported: string;
	WebAuthnCancelled: string;
	WebAuthnVerificationError: string;
	AccessDenied: string;
	failed: string;
}

/**
 * The default (English) texts.
 *
 * @example
 * <PasskeyRegister texts={{ ...defaultPasskeyTexts, add: 'Create a passkey' }} />
 */
export const defaultPasskeyTexts: PasskeyTexts = {
	signIn: 'Sign in with a passkey',
	emailLabel: 'Email (to create a passkey)',
	add: 'Add a passkey',
	remove: 'Remove',
	noscript: 'Passkeys need JavaScript. Turn it on in your browser to use them.',
	loading: 'Loading your passkeys…',
	signedOut: 'Sign in to manage your passkeys.',
	empty: 'You have no passkeys yet.',
	added: 'Passkey added.',
	removed: 'Passkey removed.',
	name: 'Passkey …{id}',
	multiDevice: 'Synced across devices',
	singleDevice: 'This device only',
	backedUp: 'Backed up',
	notBackedUp: 'Not backed up',
	WebAuthnUnsupported: 'This browser cannot use passkeys.',
	WebAuthnCancelled: 'The passkey prompt was closed. Nothing changed.',
	WebAuthnVerificationError: 'Your passkey could not be verified. Please try again.',
	AccessDenied: 'This passkey cannot be used for this account.',
	failed: 'Something went wrong with the passkey. Please try again.'
};

/**
 * The text for a passkey error type (browser-side or from the server).
 *
 * @example passkeyErrorText(defaultPasskeyTexts, 'WebAuthnCancelled')
 */
export function passkeyErrorText(texts: PasskeyTexts, error: string | undefined): string {
	switch (error) {
		case 'WebAuthnUnsupported':
		case 'WebAuthnCancelled':
		case 'WebAuthnVerificationError':
		case 'AccessDenied':
			return texts[error];
		default:
			return texts.failed;
	}
}

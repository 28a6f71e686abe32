// The text of a passkey error for the passkey components: one message id per error type the
// browser or the server reports. Export path: `kitgate/components`.

/**
 * The message id of a passkey error type (browser-side or from the server); unknown types get
 * `passkey.error.Default`.
 *
 * @example passkeyErrorId('WebAuthnCancelled') // 'passkey.error.WebAuthnCancelled'
 */
export function passkeyErrorId(error: string | undefined): string {
	switch (error) {
		case 'WebAuthnUnsupported':
		case 'WebAuthnCancelled':
		case 'WebAuthnVerificationError':
		case 'AccessDenied':
			return `passkey.error.${error}`;
		default:
			return 'passkey.error.Default';
	}
}

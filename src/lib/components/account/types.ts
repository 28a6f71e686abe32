// Props the account components share. Export path: `kitgate/components` (`AccountSectionProps`).

import type { TwoFactorEnrolmentView } from '../two-factor/types.js';
import type { AccountSectionProps } from './section-props.js';

export type { AccountSectionProps } from './section-props.js';


/**
 * The props of `DeleteAccount`.
 *
 * @example
 * const props: DeleteAccountProps = { overview: data.overview, callbackUrl: '/', returnTo: '/settings' };
 */
export interface DeleteAccountProps extends AccountSectionProps {
	/** This page: where a refusal or a needed new sign-in comes back to (`callbackUrl`, the page after the deletion, needs no session). */
	returnTo?: string;
}

/**
 * The props of `AccountSettings`.
 *
 * @example
 * const props: AccountSettingsProps = { overview: data.overview, callbackUrl: '/settings', deleteCallbackUrl: '/' };
 */
export interface AccountSettingsProps extends AccountSectionProps {
	/** Where to go after deleting the account (default `callbackUrl`): a page that needs no session, such as the home page. */
	deleteCallbackUrl?: string;
	/**
	 * An enrolment of a second factor in progress (`two-factor-start`'s answer): the settings then
	 * show only the two-factor step, with the QR code and the confirm form.
	 */
	twoFactorEnrolment?: TwoFactorEnrolmentView | null;
	/** Recovery codes just made (`two-factor-confirm`, `two-factor-recovery-codes`): shown once, alone. */
	recoveryCodes?: readonly string[] | null;
}

/**
 * The props of `PasskeyList`.
 *
 * @example
 * const props: PasskeyListProps = { overview: data.overview, callbackUrl: '/settings/passkeys', provider: 'passkey' };
 */
export interface PasskeyListProps extends AccountSectionProps {
	/** Passkey provider to register with (default: the overview's `passkeyProvider`). */
	provider?: string;
}

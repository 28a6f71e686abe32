// Props the account components share. Export path: `kitgate/components` (`AccountSectionProps`).

import type { AccountOverview } from '../../server/core/account/account-types.js';
import type { Messages } from '../types.js';
import type { TwoFactorEnrolmentView } from '../two-factor/types.js';

/**
 * What every account component takes: the overview (`GET {basePath}/account`, loaded on the
 * server) and the page its forms come back to.
 *
 * @example
 * const props: AccountSectionProps = { overview: data.overview, callbackUrl: '/settings', result: data.result };
 */
export interface AccountSectionProps {
	/** The signed-in user's overview, as `GET {basePath}/account` answers it. */
	overview: AccountOverview;
	/** The page the forms come back to with `?account=<result>` or `?accountError=<code>` (usually this page's path). */
	callbackUrl: string;
	/** Where kitgate's routes are (default: the overview's `basePath`). */
	basePath?: string;
	/** The `?account=` of the page: the result of the last change, shown as a notice. */
	result?: string | null;
	/** The `?accountError=` of the page: why the last change was refused, shown as an alert. */
	error?: string | null;
	/** Texts keyed by message id (`account.*`, `passkey.*`), over English or what `setMessages` set. */
	messages?: Messages;
	/** The IANA time zone dates are written in (default `UTC`, the same on the server and in the browser). */
	timeZone?: string;
	/** Classes added to the component's root element. */
	class?: string;
}

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

// Props of the two-factor components. Export path: `kitgate/components` (`TwoFactorSetupProps`,
// `TwoFactorChallengeProps`, `TwoFactorEnrolmentView`).

import type { AccountSectionProps } from '../account/section-props.js';
import type { Messages } from '../types.js';

/**
 * An enrolment in progress, as `POST {basePath}/account/two-factor-start` answers it: the key to
 * show (QR code and text) and the sealed value the confirm form posts back.
 *
 * @example
 * const enrolment: TwoFactorEnrolmentView = { secret: 'JBSWY3DPEHPK3PXP', qrCodeSvg, pending };
 */
export interface TwoFactorEnrolmentView {
	/** The TOTP key in base32. */
	secret: string;
	/** The QR code of the key as kitgate draws it (an SVG of one rectangle and one path; anything else is not shown). */
	qrCodeSvg: string;
	/** The sealed key, posted back with the first code. */
	pending: string;
}

/**
 * The props of `TwoFactorSetup`: the account overview, and the step the user is in (an enrolment
 * started, or recovery codes to show once), as the account page answers them.
 *
 * @example
 * const props: TwoFactorSetupProps = { overview: data.overview, callbackUrl: '/settings' };
 */
export interface TwoFactorSetupProps extends AccountSectionProps {
	/** An enrolment in progress: shows the QR code, the key and the confirm form. */
	enrolment?: TwoFactorEnrolmentView | null;
	/** Recovery codes just made (enrolment confirmed, or new codes): shown this once. */
	recoveryCodes?: readonly string[] | null;
}

/**
 * The props of `TwoFactorChallenge`, the form of the second sign-in step.
 *
 * @example
 * const props: TwoFactorChallengeProps = { csrfToken: data.csrfToken, error: data.error };
 */
export interface TwoFactorChallengeProps {
	/** The CSRF token (`GET {basePath}/csrf`, or the cookie's value the server read). */
	csrfToken: string;
	/** Where kitgate's routes are (default `/auth`): the form posts to `{basePath}/second-factor`. */
	basePath?: string;
	/** Where the form posts (default `{basePath}/second-factor`). */
	action?: string;
	/** The `?error=` of the page (`InvalidSecondFactor`, `RateLimited`): shown as an alert. */
	error?: string | null;
	/** A link to start again another way (the sign-in page); none when absent. */
	signInUrl?: string;
	/** Offer "Trust this browser for N days" (the server's `twoFactor.trustBrowserDays`); 0 or absent: no box. */
	trustDays?: number;
	/** Texts keyed by message id (`secondFactor.*`), over English or what `setMessages` set. */
	messages?: Messages;
	/** Classes added to the form's root element. */
	class?: string;
}

/**
 * The props of `TwoFactorEnrolment`, the second sign-in step of a user who must set up a second
 * factor first (`twoFactor.required`): the key and its confirm form, then the recovery codes.
 *
 * @example
 * const props: TwoFactorEnrolmentProps = { csrfToken, action: '/auth/second-factor', enrolment };
 */
export interface TwoFactorEnrolmentProps {
	/** The CSRF token. */
	csrfToken: string;
	/** Where the confirm form posts: `{basePath}/second-factor`. */
	action: string;
	/** The key to set up; ignored once `recoveryCodes` are given. */
	enrolment?: TwoFactorEnrolmentView | null;
	/** The enrolment is confirmed (the session started): the recovery codes to show once. */
	recoveryCodes?: readonly string[] | null;
	/** Where to go on after the recovery codes. */
	continueUrl?: string;
	/** `InvalidSecondFactor` or `RateLimited` after a refused first code. */
	error?: string | null;
	/** A link to start again another way (the sign-in page). */
	signInUrl?: string;
	/** Texts keyed by message id, over English or what `setMessages` set. */
	messages?: Messages;
	/** Classes added to the root element. */
	class?: string;
}

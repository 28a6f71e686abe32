// The English texts of the second factor on the server side: its failures and the second sign-in
// step's page.

/**
 * English texts of the second factor, keyed by message id (`secondFactor.*`, and the failure texts
 * of `InvalidSecondFactor`, `SecondFactorExpired`, `TwoFactorAlreadyEnabled`, `TwoFactorNotEnabled`).
 *
 * @example enTwoFactor['secondFactor.title'] // 'Two-step verification'
 */
export const enTwoFactor = {
	'signin.error.InvalidSecondFactor': 'That code is not right, or it was already used. Try the next code your app shows.',
	'signin.error.SecondFactorExpired': 'Your sign in took too long to finish. Please sign in again.',
	'error.TwoFactorAlreadyEnabled.title': 'Two-step verification is already on',
	'error.TwoFactorAlreadyEnabled.body': 'Turn it off first if you want to set it up with another app.',
	'error.TwoFactorNotEnabled.title': 'Two-step verification is off',
	'error.TwoFactorNotEnabled.body': 'Your account has no second step to change.',
	'secondFactor.title': 'Two-step verification',
	'secondFactor.intro': 'Enter the 6-digit code from your authenticator app.',
	'secondFactor.code.label': 'Verification code',
	'secondFactor.recovery.hint': 'Lost your device? Enter one of your recovery codes instead.',
	'secondFactor.submit': 'Verify',
	'secondFactor.cancel': 'Sign in another way'
} as const;

// The English texts of the second factor: its failures, the second sign-in step's page, the page
// after a recovery-code sign-in, and the TwoFactorSetup / TwoFactorChallenge components.

/**
 * English texts of the second factor, keyed by message id: `secondFactor.*` (the second step's
 * pages), `twoFactor.*` (the components), the account notices of its changes
 * (`account.result.two-factor-*`, `account.error.<code>`), and the failure texts of
 * `InvalidSecondFactor`, `SecondFactorExpired`, `TwoFactorAlreadyEnabled`, `TwoFactorNotEnabled`.
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
	'secondFactor.cancel': 'Sign in another way',
	'secondFactor.error.RateLimited': 'Too many codes were tried. Wait a few minutes, then try again.',
	'secondFactor.error.Default': 'That did not work. Please try again.',
	'secondFactor.recoveryUsed.title': 'You signed in with a recovery code',
	'secondFactor.recoveryUsed.none': 'You have no recovery codes left. Make new ones now, or you may be locked out when you next lose your device.',
	'secondFactor.recoveryUsed.one': 'You have 1 recovery code left. Each code works once.',
	'secondFactor.recoveryUsed.other': 'You have {count} recovery codes left. Each code works once.',
	'secondFactor.recoveryUsed.hint': 'Lost your authenticator app? Make new recovery codes, or set up two-step verification again, in your account settings.',
	'secondFactor.recoveryUsed.continue': 'Continue',
	'secondFactor.recoveryUsed.account': 'Make new recovery codes',
	'twoFactor.title': 'Two-step verification',
	'twoFactor.intro': 'After your password or sign-in link, also ask for a code from an authenticator app on your phone.',
	'twoFactor.off': 'Two-step verification is off.',
	'twoFactor.start': 'Set up two-step verification',
	'twoFactor.unavailable': 'Two-step verification is not available here.',
	'twoFactor.scan': 'Scan this QR code with your authenticator app.',
	'twoFactor.qrLabel': 'QR code of your authenticator key',
	'twoFactor.secretHint': 'Cannot scan it? Type this key into the app instead:',
	'twoFactor.confirmLabel': '6-digit code from the app',
	'twoFactor.confirmHint': 'Then enter the code the app shows to finish. This page works for 10 minutes.',
	'twoFactor.confirm': 'Turn on two-step verification',
	'twoFactor.cancel': 'Cancel',
	'twoFactor.recovery.title': 'Save your recovery codes now',
	'twoFactor.recovery.body': 'If you lose your phone, each of these codes signs you in once in place of a code from the app. Print them or keep them in a password manager: they are shown only this once.',
	'twoFactor.recovery.listLabel': 'Your recovery codes',
	'twoFactor.recovery.done': 'I have saved my recovery codes',
	'twoFactor.enabled': 'Two-step verification is on since {date}.',
	'twoFactor.enabledUndated': 'Two-step verification is on.',
	'twoFactor.codesLeft.none': 'You have no recovery codes left: make new ones.',
	'twoFactor.codesLeft.one': 'You have 1 recovery code left.',
	'twoFactor.codesLeft.other': 'You have {count} recovery codes left.',
	'twoFactor.codeLabel': 'Current code from the app, or a recovery code',
	'twoFactor.regenerate.title': 'New recovery codes',
	'twoFactor.regenerate.hint': 'Your old recovery codes stop working.',
	'twoFactor.regenerate': 'Make new recovery codes',
	'twoFactor.remove.title': 'Turn off two-step verification',
	'twoFactor.remove.hint': 'Signing in then needs only your password, sign-in link or provider.',
	'twoFactor.remove': 'Turn off',
	'twoFactor.remove.label': 'Turn off two-step verification',
	'account.result.two-factor-enabled': 'Two-step verification is on.',
	'account.result.recovery-codes-regenerated': 'New recovery codes were made. The old ones no longer work.',
	'account.result.two-factor-removed': 'Two-step verification is off.',
	'account.error.InvalidSecondFactor': 'That code is not right, or it was already used. Try the next code your app shows.',
	'account.error.TwoFactorAlreadyEnabled': 'Two-step verification is already on. Turn it off first to set it up with another app.',
	'account.error.TwoFactorNotEnabled': 'Two-step verification is off: there is nothing to change.'
} as const;

// The English texts of account management on the server side: the failures the account routes
// answer, the page that confirms an email change, the mails of an email change, and the notice
// of a credential change.

/**
 * English texts of the account routes and their mails, keyed by message id (`account.*`, and the
 * failure texts of `FreshSignInRequired` and `LastSignInMethod`).
 *
 * @example enAccount['account.confirmEmail.button'] // 'Change my email address'
 */
export const enAccount = {
	'signin.error.FreshSignInRequired': 'For your security, sign in again to continue.',
	'error.LastSignInMethod.title': 'This is your last way to sign in',
	'error.LastSignInMethod.body': 'Add another way to sign in before you remove this one, or you could not sign in again.',
	'account.confirmEmail.title': 'Confirm your new email address',
	'account.confirmEmail.body': 'Use {email} as the email address of your account on {host}?',
	'account.confirmEmail.button': 'Change my email address',
	'account.keepOtherSessions': 'Keep my other devices signed in',
	'account.confirmEmail.hint': 'If you did not ask for this change, close this page: nothing happens until you press the button.',
	'account.email.confirm.subject': 'Confirm your new email address on {host}',
	'account.email.confirm.title': 'Confirm your new email address',
	'account.email.confirm.intro': 'Press the button below to use {email} for your account on {host}. You need to be signed in.',
	'account.email.confirm.button': 'Confirm the address',
	'account.email.confirm.ignore': 'If you did not ask for this change, ignore this email: nothing changes without the link.',
	'account.email.notice.subject': 'Your email address on {host} is being changed',
	'account.email.notice.title': 'Your email address is being changed',
	'account.email.notice.intro': 'Someone signed in to your account on {host} asked to change its email address to {email}. A link was sent to that address.',
	'account.email.notice.button': 'Review your account',
	'account.email.notice.ignore': 'If this was not you, sign in and review your account: the change happens only if the link is used while signed in.',
	'account.email.inUse.subject': 'Someone tried to use your email address on {host}',
	'account.email.inUse.title': 'Your email address is already in use',
	'account.email.inUse.intro': 'Someone asked to use {email} for an account on {host}, but another account already has this address. Nothing was changed.',
	'account.email.inUse.button': 'Go to {host}',
	'account.email.inUse.ignore': 'If this was not you, you can ignore this email.',
	'account.email.security.subject': 'A security change on your {host} account',
	'account.email.security.title': 'Your account was changed',
	'account.email.security.intro.password-changed': 'The password of your account on {host} was changed.',
	'account.email.security.intro.passkey-removed': 'A passkey was removed from your account on {host}.',
	'account.email.security.intro.passkey-added': 'A new passkey was added to your account on {host}: it can now sign in as you.',
	'account.email.security.intro.account-linked': 'Another account was connected to your account on {host}: it can now sign in as you.',
	'account.email.security.intro.account-unlinked': 'A connected account was removed from your account on {host}.',
	'account.email.security.intro.two-factor-enabled': 'Two-step verification was turned on for your account on {host}.',
	'account.email.security.intro.two-factor-removed': 'Two-step verification was turned off for your account on {host}.',
	'account.email.security.intro.recovery-codes-regenerated':
		'New recovery codes were made for your account on {host}; the old ones no longer work.',
	'account.email.security.intro.email-changed': 'The email address of your account on {host} was changed to {email}.',
	'account.email.security.button': 'Review your account',
	'account.email.security.ignore':
		'If this was you, there is nothing to do. If not, sign in now, review how you sign in and sign out your other devices.'
} as const;

// The English texts of the `UserButton` component: its part of the message table, kept apart so
// pages without it do not ship them.

/**
 * English texts of the user menu, keyed by message id (`userbutton.*`).
 *
 * @example enUser['userbutton.account'] // 'Account'
 */
export const enUser = {
	'userbutton.label': 'Account menu of {user}',
	'userbutton.account': 'Account',
	'userbutton.impersonation': 'Signed in as {user} by {admin}',
	'userbutton.stopImpersonating': 'Stop impersonating'
} satisfies Record<string, string>;

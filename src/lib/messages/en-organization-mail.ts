// The English texts of the invitation mail (`organization.email.invitation.*`): its part of the
// message table, kept apart like the other mails' parts. French in fr.ts, after the account mails.

/**
 * English texts of the mail that invites an address to an organization. Placeholders: `{host}`,
 * `{organization}`, `{role}`, `{inviter}` and `{date}` (when the link stops working).
 *
 * @example enOrganizationMail['organization.email.invitation.button'] // 'Accept the invitation'
 */
export const enOrganizationMail = {
	'organization.email.invitation.subject': '{inviter} invited you to join {organization} on {host}',
	'organization.email.invitation.subjectAnonymous': 'You are invited to join {organization} on {host}',
	'organization.email.invitation.title': 'Join {organization}',
	'organization.email.invitation.intro': '{inviter} invited you to join {organization} on {host} as {role}. Press the button below, then sign in or sign up with this email address.',
	'organization.email.invitation.introAnonymous': 'You were invited to join {organization} on {host} as {role}. Press the button below, then sign in or sign up with this email address.',
	'organization.email.invitation.button': 'Accept the invitation',
	'organization.email.invitation.expires': 'This invitation expires on {date}.',
	'organization.email.invitation.ignore': 'If you did not expect this invitation, ignore this email: nobody joins without the link.'
} as const;

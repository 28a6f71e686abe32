// The English message table: every text of the built-in pages, the sign-in email and the
// components, keyed by message id. The default language; other tables fall back to it.

import type { FailureMessageId } from '../failures.js';
import { enForms } from './en-forms.js';
import { enPasskey } from './en-passkey.js';
import { enAccount } from './en-account.js';
import { enOrganizationMail } from './en-organization-mail.js';
import { enAccountUi } from './en-account-ui.js';
import { enAdmin } from './en-admin.js';
import { enOrganization } from './en-organization.js';
import { enTwoFactor } from './en-two-factor.js';
import { enUser } from './en-user.js';

/** The texts of the built-in pages and the sign-in email (the components' parts are imported). */
const enPages = {
	'signin.title': 'Sign in',
	'signin.email.placeholder': 'you@example.com',
	'signin.error.OAuthSignin': 'We could not start signing you in with this provider. Please try again.',
	'signin.error.OAuthCallbackError':
		'The provider did not complete the sign in. Please try again, or choose another way to sign in.',
	'signin.error.InvalidCheck': 'The sign in could not be verified. Please start again.',
	'signin.error.CallbackRouteError': 'Something went wrong while finishing the sign in. Please try again.',
	'signin.error.OAuthAccountNotLinked': 'To confirm your identity, sign in with the same account you used originally.',
	'signin.error.EmailSignin':
		'We could not send a sign in link. Check that you entered one valid email address and try again.',
	'signin.error.MissingCSRF': 'Your sign in form expired. Please try again.',
	'signin.error.SessionRequired': 'Please sign in to continue.',
	'signin.error.JWTSessionError': 'Your session could not be read. Please sign in again.',
	'signin.error.AccessDenied': 'You do not have permission to sign in with this account.',
	'signin.error.Verification': 'The sign in link is no longer valid. Please request a new one.',
	'signin.error.RateLimited': 'Too many attempts. Wait a few minutes, then try again.',
	'signin.error.InvalidProvider': 'This way of signing in is not available. Please choose another.',
	'signin.error.WebAuthnVerificationError':
		'Your passkey could not be verified. Please try again, or choose another way to sign in.',
	'signin.passkey.noscript': 'Passkeys need JavaScript. Turn it on in your browser, or choose another way to sign in.',
	'signin.passkey.unsupported': 'This browser cannot use passkeys here. Update it, or choose another way to sign in.',
	'signout.title': 'Sign out',
	'signout.confirm': 'Are you sure you want to sign out?',
	'verify.title': 'Check your email',
	'verify.body': 'A sign in link has been sent to your email address.',
	'verify.expires': 'The link expires in {duration} and works only once.',
	'verify.spam': 'No email? Check your spam folder, or go back and ask for a new link.',
	'confirm.title': 'Confirm sign in',
	'confirm.body': 'Sign in to {host} as {email}?',
	'confirm.button': 'Sign in',
	'confirm.hint': 'If you did not ask for this link, close this page: nothing happens until you press the button.',
	'email.subject': 'Sign in to {host}',
	'email.title': 'Sign in to {host}',
	'email.intro': 'Press the button below to sign in to {host}.',
	'email.textIntro': 'Open this link to sign in to {host}:',
	'email.button': 'Sign in',
	'email.link': 'Or open this link in your browser:',
	'email.expires': 'The link expires in {duration} and works only once.',
	'email.ignore': 'If you did not ask to sign in, you can ignore this email: nobody can sign in without the link.',
	'error.code': 'Error code: {code}',
	'error.Configuration.title': 'There is a problem with the server configuration',
	'error.Configuration.body': 'Check the server logs for more information.',
	'error.AccessDenied.title': 'Access denied',
	'error.AccessDenied.body': 'You do not have permission to sign in.',
	'error.Verification.title': 'Unable to sign in',
	'error.Verification.body':
		'This sign in link cannot be used. It may have been used already, it may have expired, or it may be for another email address. Ask for a new link to sign in.',
	'error.UntrustedHost.title': 'This site is not trusted',
	'error.UntrustedHost.body':
		'The server does not accept requests for this host name. The site owner needs to trust it in the configuration.',
	'error.MissingAdapterMethod.title': 'There is a problem with the server configuration',
	'error.MissingAdapterMethod.body':
		'The database adapter lacks a method this sign in needs. Check the server logs for more information.',
	'error.MissingCSRF.title': 'Your form expired',
	'error.MissingCSRF.body': 'The security token of the form was missing or out of date. Please try again.',
	'error.InvalidProvider.title': 'Unknown sign in method',
	'error.InvalidProvider.body': 'This way of signing in does not exist or cannot be used here.',
	'error.UnknownAction.title': 'Page not found',
	'error.UnknownAction.body': 'There is nothing at this address.',
	'error.InvalidCallbackUrl.title': 'Unable to sign in',
	'error.InvalidCallbackUrl.body': 'The address to return to after signing in is not allowed.',
	'error.InvalidRequest.title': 'Invalid request',
	'error.InvalidRequest.body': 'The request was incomplete or malformed. Please try again.',
	'signin.error.UserBanned': 'This account is suspended. Contact the site if you think this is a mistake.',
	'error.AdminRequired.title': 'Admins only',
	'error.AdminRequired.body': 'This page is for the site’s administrators. Sign in with an admin account to use it.',
	'error.AdminTargetForbidden.title': 'Not allowed on an admin',
	'error.AdminTargetForbidden.body': 'Admins cannot change another admin, or themselves, from here.',
	'error.OrganizationNotFound.title': 'Organization not found',
	'error.OrganizationNotFound.body': 'This organization does not exist, or you are not one of its members.',
	'error.OrganizationForbidden.title': 'Not allowed',
	'error.OrganizationForbidden.body': 'Your role in this organization does not allow this. Ask an owner or an admin of the organization.',
	'error.OrganizationSlugTaken.title': 'Address taken',
	'error.OrganizationSlugTaken.body': 'Another organization already uses this short name. Choose another one.',
	'error.OrganizationLastOwner.title': 'The last owner stays',
	'error.OrganizationLastOwner.body': 'An organization always keeps an owner. Make another member owner first, or delete the organization.',
	'error.OrganizationMemberNotFound.title': 'Member not found',
	'error.OrganizationMemberNotFound.body': 'This person is not a member of the organization, or was removed already.',
	'error.OrganizationAlreadyMember.title': 'Already a member',
	'error.OrganizationAlreadyMember.body': 'This person already belongs to the organization.',
	'error.InvitationInvalid.title': 'Invitation not found',
	'error.InvitationInvalid.body': 'This invitation link is not valid. Check that you opened the whole link from the mail, or ask for a new invitation.',
	'error.InvitationExpired.title': 'Invitation expired',
	'error.InvitationExpired.body': 'This invitation is too old to be used. Ask the organization for a new one.',
	'error.InvitationRevoked.title': 'Invitation withdrawn',
	'error.InvitationRevoked.body': 'The organization withdrew this invitation. Ask them if you still need to join.',
	'error.InvitationUsed.title': 'Invitation already used',
	'error.InvitationUsed.body': 'This invitation was accepted already. Sign in to reach the organization.',
	'error.InvitationWrongAddress.title': 'Invitation for another address',
	'error.InvitationWrongAddress.body': 'This invitation was sent to another email address. Sign in with the address it was sent to, then open the link again.',
	'error.UserNotFound.title': 'User not found',
	'error.UserNotFound.body': 'There is no user with this id. They may have been deleted.',
	'error.UserExists.title': 'This user already exists',
	'error.UserExists.body': 'Another user already has this email address.',
	'error.ImpersonationForbidden.title': 'Not allowed while acting as this user',
	'error.ImpersonationForbidden.body': 'An admin acting as a user cannot change their account or reach the admin pages. Stop acting as the user first.',
	'error.Default.title': 'Error',
	'error.Default.body': 'Something went wrong.',
	'link.signin': 'Sign in',
	'link.home': 'Back to home',
	'impersonation.banner': 'Signed in as {user} by {admin}',
	'impersonation.stop': 'Stop impersonating'
} satisfies Record<string, string>;

/**
 * Every English text, keyed by message id. A translation is a table with the same keys; the
 * texts the failure table shows must all be here (a missing one does not compile).
 *
 * @example en['signin.title'] // 'Sign in'
 */
// marked pure so bundlers drop the whole table from pages that only use the components' parts
export const en = /* @__PURE__ */ Object.assign({}, enForms, enUser, enPasskey, enAccount, enOrganizationMail, enTwoFactor, enAccountUi, enAdmin, enOrganization, enPages) satisfies Readonly<Record<FailureMessageId, string>>;

/** The id of every built-in text (`signin.title`, `error.Verification.body`, …). */
export type MessageId = keyof typeof en;

// Svelte components for sign-in and sign-out forms, the user menu, for passkeys, for account management, the
// second factor, admin support and organizations, with the message table they read. Export path: `kitgate/components`. Styles:
// `import 'kitgate/styles.css'` once. SignIn and SignOut post to SvelteKit form actions, the account
// and two-factor components to kitgate's routes (no JavaScript needed, safe to prerender).

export { default as SignIn } from './SignIn.svelte';
export { default as SignOut } from './SignOut.svelte';
export { default as UserButton } from './UserButton.svelte';
export { default as PasskeySignIn } from './PasskeySignIn.svelte';
export { default as PasskeyRegister } from './PasskeyRegister.svelte';
export { default as AccountSettings } from './account/AccountSettings.svelte';
export { default as ConnectedAccounts } from './account/ConnectedAccounts.svelte';
export { default as PasskeyList } from './account/PasskeyList.svelte';
export { default as ActiveSessions } from './account/ActiveSessions.svelte';
export { default as ChangeEmail } from './account/ChangeEmail.svelte';
export { default as DeleteAccount } from './account/DeleteAccount.svelte';
export { default as TwoFactorSetup } from './two-factor/TwoFactorSetup.svelte';
export { default as TwoFactorChallenge } from './two-factor/TwoFactorChallenge.svelte';
export { default as AdminUsers } from './admin/AdminUsers.svelte';
export { default as AdminUserDetail } from './admin/AdminUserDetail.svelte';
export { default as OrganizationSwitcher } from './organization/OrganizationSwitcher.svelte';
export { default as CreateOrganization } from './organization/CreateOrganization.svelte';
export { default as OrganizationMembers } from './organization/OrganizationMembers.svelte';
export { default as OrganizationSettings } from './organization/OrganizationSettings.svelte';
export { default as OrganizationInvitation } from './organization/OrganizationInvitation.svelte';
export type { AccountSectionProps, AccountSettingsProps, DeleteAccountProps, PasskeyListProps } from './account/types.js';
export type { AdminComponentProps, AdminUserDetailProps, AdminUsersProps } from './admin/types.js';
// the view of one user is `AdminUserDetailView` here: `AdminUserDetail` is the component
export type { AdminAuditEntry, AdminResult, AdminUserDetail as AdminUserDetailView, AdminUserList, AdminUserSummary } from '../server/core/admin-types.js';
export type {
	CreateOrganizationProps,
	OrganizationComponentProps,
	OrganizationInvitationProps,
	OrganizationMembersProps,
	OrganizationSettingsProps,
	OrganizationSwitcherProps
} from './organization/types.js';
export type {
	InvitationDetail,
	OrganizationDetail,
	OrganizationInvitationView,
	OrganizationList,
	OrganizationMemberView,
	OrganizationPermissions,
	OrganizationResult,
	OrganizationSummary,
	OrganizationTeamView,
	ReceivedInvitation
} from '../server/core/organization-types.js';
export type { TwoFactorChallengeProps, TwoFactorEnrolmentView, TwoFactorSetupProps } from './two-factor/types.js';
export type { AccountOverview, AccountResult, ConnectedAccount, LinkableProvider, PasskeyInfo, SessionInfo, TwoFactorStatus } from '../server/core/account-types.js';
export { setMessages } from './messages-context.js';
export { passkeyErrorId } from './passkey-errors.js';
export type { AuthorizationParams, CredentialField, FormOptions, KitgateData, Messages, ProviderButtonStyle, SessionUser, SignInProvider } from './types.js';
export { messages, resolveMessages, type Locale, type MessageTable } from '../messages/index.js';
export { getSessionContext, SessionState, setSessionContext, useSession, type SessionStateOptions, type SessionStatus } from '../client/session.svelte.js';

// kitgate: Svelte-first authentication. The framework-free entry (`kitgate`): the `Auth()`
// engine on Web Request/Response, the public types and the error classes.

export { Auth } from './server/core/auth.js';
export { checkSession, type SessionCheck } from './server/core/session-check.js';
export { resolveConfig } from './server/core/config/resolve-config.js';
export { defaultRedirect, isSameOrigin } from './server/core/response/redirect.js';
export { encodeJwt as encode, decodeJwt as decode } from './server/core/crypto/jwt.js';
export { deleteUser, revokeSessions } from './server/core/session/revocation.js';
export { credentialChanged, type CredentialChangedOptions } from './server/core/account/credential-change.js';
export { adminApi, type AdminActor, type AdminApi, type AdminUserDetailData, type AdminUserListData } from './server/core/admin/admin-api.js';
export { isAdmin } from './server/core/admin/admin-authorization.js';
export { can } from './server/core/organizations/can.js';
export { organizationApi, type OrganizationActor, type OrganizationApi } from './server/core/organizations/organization-api.js';
export type { InviteInput, SentInvitation } from './server/core/organizations/invitations.js';
export { MemoryRateLimitStore, type MemoryRateLimitStoreOptions } from './server/core/limits/memory-rate-limit-store.js';
export { MemorySessionCacheStore, type MemorySessionCacheStoreOptions } from './server/core/session/memory-session-cache-store.js';
export { hashPassword, passwordHashing, verifyPassword, type PasswordHashing, type PasswordHashingOptions } from './server/core/passwords/password-hashing.js';
export {
	checkPassword,
	type PasswordCheck,
	type PasswordCheckOptions,
	type PasswordProblem,
	type PwnedPasswordsOptions
} from './server/core/passwords/password-policy.js';
export * from './server/core/errors.js';
export { UNIQUE_VIOLATION, UniqueViolationError } from './server/core/store/unique-violation.js';
export * from './server/core/types.js';
export type {
	AccountOverview,
	AccountResult,
	ConnectedAccount,
	LinkableProvider,
	PasskeyInfo,
	SessionInfo,
	TwoFactorStatus
} from './server/core/account-types.js';
export type {
	AdminAuditEntry,
	AdminOperation,
	AdminResult,
	AdminUserDetail,
	AdminUserList,
	AdminUserSummary
} from './server/core/admin-types.js';
export type {
	InvitationDetail,
	OrganizationDetail,
	OrganizationInvitationView,
	OrganizationList,
	OrganizationMemberView,
	OrganizationOperation,
	OrganizationPermissions,
	OrganizationResult,
	OrganizationSummary,
	OrganizationTeamView,
	ReceivedInvitation
} from './server/core/organization-types.js';

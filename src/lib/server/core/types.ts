// Public types of kitgate: configuration, entities, providers, adapter, callbacks and events.
// Re-exported from the root entry `kitgate`.

import type { CryptoKey, JWK } from 'jose';
// the look of the pages is declared with the pages (they import nothing of the engine); public here
import type { CredentialInput, ProviderStyle, Theme } from './display-types.js';

export type { CredentialInput, ProviderStyle, Theme };

/** A value or a promise of it. */
export type Awaitable<T> = T | PromiseLike<T>;

/** The user as a provider's `profile()` or a credentials `authorize()` returns it. */
export interface User {
	id?: string;
	name?: string | null;
	email?: string | null;
	image?: string | null;
	[key: string]: unknown;
}

/**
 * What `GET {basePath}/session`, `locals.auth()` and `getSession()` return for a signed-in user
 * (they return `null` otherwise): `user` is always there. Add fields your `session` callback sets
 * by augmenting this interface:
 *
 * @example
 * declare module 'kitgate' {
 *   interface Session { role: 'admin' | 'member' }
 * }
 */
export interface Session extends DefaultSession {
	/**
	 * Present only on a session an admin started as this user (docs/admin.md, "Impersonation"): who
	 * the admin is and when the impersonation ends. Such a session cannot change credentials or
	 * reach the admin routes.
	 */
	impersonation?: SessionImpersonation;
	/**
	 * The active organization and the user's role in it (docs/organizations.md), present only when
	 * `organizations` is configured, one is active, and the user is still its member: membership is
	 * checked on every read, so a removed member loses it at once.
	 */
	organization?: SessionOrganization;
	[key: string]: unknown;
}

/** The active organization of a session, with the signed-in user's role in it. */
export interface SessionOrganization {
	id: string;
	name: string;
	slug: string;
	logo: string | null;
	/** The user's role in it (`owner`, `admin`, `member` or a role of `organizations.roles`). */
	role: string;
}

/** Who is behind an impersonated session, and until when. */
export interface SessionImpersonation {
	admin: { id: string; name: string | null; email: string | null };
	/** ISO time at which the impersonation ends by itself. */
	expires: string;
}

/**
 * The fields every session has, under Auth.js's name: an augmentation written for Auth.js,
 * `interface Session { user: { role: string } & DefaultSession['user'] }`, works unchanged.
 */
export interface DefaultSession {
	/** ISO date at which the session expires if it is not used again. */
	expires: string;
	user: User;
}

/** The decoded content of a JWT session cookie. */
export interface JWT {
	name?: string | null;
	email?: string | null;
	picture?: string | null;
	sub?: string;
	iat?: number;
	exp?: number;
	jti?: string;
	[key: string]: unknown;
}

/** The user record an identity provider returns (OIDC standard claims, and any other claim). */
export interface Profile {
	sub?: string | null;
	name?: string | null;
	given_name?: string | null;
	family_name?: string | null;
	middle_name?: string | null;
	nickname?: string | null;
	preferred_username?: string | null;
	profile?: string | null;
	picture?: unknown;
	website?: string | null;
	email?: string | null;
	email_verified?: boolean | null;
	gender?: string | null;
	birthdate?: string | null;
	zoneinfo?: string | null;
	locale?: string | null;
	phone_number?: string | null;
	updated_at?: Date | string | number | null;
	address?: {
		formatted?: string | null;
		street_address?: string | null;
		locality?: string | null;
		region?: string | null;
		postal_code?: string | null;
		country?: string | null;
	} | null;
	id?: string | null;
	[claim: string]: unknown;
}

/** Provider types kitgate knows. */
export type ProviderType = 'oidc' | 'oauth' | 'email' | 'credentials' | 'webauthn';

/** The token set an OAuth/OIDC token endpoint returns, as stored on an account. */
export interface TokenSet {
	access_token?: string;
	id_token?: string;
	refresh_token?: string;
	scope?: string;
	token_type?: string;
	expires_in?: number;
	expires_at?: number;
	authorization_details?: unknown[];
	session_state?: unknown;
	[key: string]: unknown;
}

/** The connection between a user and a provider. */
export interface Account extends TokenSet {
	provider: string;
	providerAccountId: string;
	type: ProviderType;
	userId?: string;
}

/** A user as an adapter stores it. */
export interface AdapterUser extends User {
	id: string;
	email: string;
	emailVerified: Date | null;
}

/**
 * An account as an adapter stores it. `credentials` accounts are kitgate's: one is linked when a
 * credentials sign-in under database sessions stores its user (`providerAccountId` = the user id).
 */
export interface AdapterAccount extends Account {
	userId: string;
	type: ProviderType;
}

/** A database session. */
export interface AdapterSession {
	sessionToken: string;
	userId: string;
	expires: Date;
	/**
	 * Optional (kitgate addition): when the session was created, which is when its user signed in.
	 * kitgate passes it to `createSession`; an adapter that stores it returns it from
	 * `getSessionAndUser` and `listSessionsByUserId`. Sensitive account changes need it
	 * (docs/account.md, "A recent sign-in"): without it a session never counts as recent.
	 */
	createdAt?: Date | null;
	/** Optional (kitgate addition): the `User-Agent` of the browser that signed in (at most 512 characters), for the list of sessions. */
	userAgent?: string | null;
	/**
	 * Optional (kitgate addition, docs/organizations.md): the session's active organization, set by
	 * `updateSession`, returned by `getSessionAndUser`; null or absent for none.
	 */
	activeOrganizationId?: string | null;
}

/** An organization (kitgate addition, docs/organizations.md). */
export interface AdapterOrganization {
	/** Random id. */
	id: string;
	/** Display name (1–100 characters). */
	name: string;
	/** Unique short name: lowercase `a-z`, `0-9` and inner `-`, 2–48 characters. */
	slug: string;
	/** URL of a logo (`https:` or a same-site path), null for none. */
	logo: string | null;
	/** JSON text of the app's own data about the organization (at most 4096 characters), null for none. */
	metadata: string | null;
	createdAt: Date;
}

/** A user's membership of an organization, with their role there. One per organization and user. */
export interface AdapterMember {
	/** Random id. */
	id: string;
	organizationId: string;
	userId: string;
	/** `owner`, `admin`, `member` or a role of `organizations.roles`. */
	role: string;
	createdAt: Date;
}

/** A member as a list shows it: the membership and the user it belongs to. */
export interface AdapterMemberWithUser extends AdapterMember {
	user: AdapterUser;
}

/** An organization and the user's membership of it. */
export interface AdapterMembership {
	organization: AdapterOrganization;
	member: AdapterMember;
}

/**
 * An invitation to join an organization, sent by email. The link's secret is never stored: only
 * its keyed hash. Expiry is not a status: a `pending` invitation past `expires` is expired.
 */
export interface AdapterInvitation {
	/** Random id (the public half of the link's token). */
	id: string;
	organizationId: string;
	/** The invited address, normalized as the email provider normalizes sign-in addresses. */
	email: string;
	/** The role the invitee gets on accepting. */
	role: string;
	/** The member who invited, null when a server script did. */
	inviterId: string | null;
	/** Keyed hash of the link's secret. */
	tokenHash: string;
	/** The team the invitee joins on accepting, null for none. */
	teamId: string | null;
	status: 'pending' | 'accepted' | 'revoked';
	expires: Date;
	createdAt: Date;
}

/** A team inside an organization (optional grouping of members). */
export interface AdapterTeam {
	id: string;
	organizationId: string;
	/** 1–100 characters, unique inside the organization. */
	name: string;
	createdAt: Date;
}

/** A user in a team. The user is a member of the team's organization; removing the member removes them from its teams. */
export interface AdapterTeamMember {
	teamId: string;
	userId: string;
	createdAt: Date;
}

/**
 * What kitgate keeps about a user for admins (kitgate addition, stored beside the user: a side
 * table on SQL, so Auth.js's `users` table is unchanged). A user without a row has no role, is
 * not banned, and has unknown creation and last sign-in times.
 */
export interface AdapterUserAdmin {
	userId: string;
	/** The user's role (`"admin"` makes an admin under the default `admin.admins: "role"`), null for none. */
	role: string | null;
	/** When the user was banned, null when not banned. */
	bannedAt: Date | null;
	/** Why, as the admin wrote it (shown to admins only), null when not given. */
	banReason: string | null;
	/** When the ban ends by itself, null for a ban without end (or no ban). */
	banExpires: Date | null;
	/** When the user was created, null when unknown (users created before kitgate kept it). */
	createdAt: Date | null;
	/** When the user last completed a sign-in, null when unknown. */
	lastSignInAt: Date | null;
}

/** One row of the admin audit trail: who did what to whom, when. Kept when the user is deleted. */
export interface AdapterAuditEntry {
	/** Random id. */
	id: string;
	at: Date;
	/** The admin who acted (under impersonation: the admin behind it); null for a server script without an actor. */
	actorId: string | null;
	/** The user acted on, null when none. */
	subjectId: string | null;
	/** What was done, e.g. `ban`, `unban`, `impersonate`, `impersonated:change-email` (docs/admin.md lists them). */
	action: string;
	/** JSON text with the action's details (a ban's reason and expiry, a passkey id); never a secret. Null when none. */
	detail: string | null;
}

/** A page of users to list: `search` matches a part of the email or name (case-insensitive, literally: `%` and `_` are not wildcards) or the exact id. */
export interface UserListQuery {
	search?: string;
	/** At most this many users (1–100). */
	limit: number;
	/** Users to skip, ordered by email then id. */
	offset: number;
}

/** One page of users and how many match in all. */
export interface UserListPage {
	users: AdapterUser[];
	total: number;
}

/** An email verification token (the `token` is stored hashed with the secret). */
export interface VerificationToken {
	identifier: string;
	token: string;
	expires: Date;
}

/** A WebAuthn credential as an adapter stores it. */
export interface AdapterAuthenticator {
	credentialID: string;
	credentialPublicKey: string;
	counter: number;
	credentialDeviceType: string;
	credentialBackedUp: boolean;
	transports?: string | null;
	providerAccountId: string;
	userId: string;
	/** Optional (kitgate addition): the name the user gave the passkey (at most 64 characters). */
	name?: string | null;
	/** Optional (kitgate addition): the AAGUID the authenticator reported at registration (names its make, e.g. "iCloud Keychain"). */
	aaguid?: string | null;
	/** Optional (kitgate addition): when the passkey was registered. */
	createdAt?: Date | null;
	/** Optional (kitgate addition): when the passkey last signed the user in. */
	lastUsedAt?: Date | null;
}

/**
 * What `updateAuthenticator` may change: the passkey's name (rename), and when it was last used.
 *
 * @example
 * const changes: AuthenticatorChanges = { name: 'Work laptop' };
 */
export interface AuthenticatorChanges {
	name?: string | null;
	lastUsedAt?: Date | null;
}

/**
 * A user's second factor (kitgate addition, docs/security.md "Second factor"): the TOTP secret
 * sealed with the app secret for this user (never in clear), the latest time step a code was
 * accepted for (each code is accepted once), and the keyed hashes of the unused recovery codes.
 *
 * @example
 * const record: AdapterTwoFactor = { userId: 'user-1', totpSecret: 'eyJ…', lastUsedStep: null, recoveryCodes: ['kY3…'], createdAt: new Date() };
 */
export interface AdapterTwoFactor {
	userId: string;
	/** The TOTP secret as `sealTotpSecret` sealed it: it opens only with the app secret, for this user. */
	totpSecret: string;
	/** The latest TOTP time step a code was accepted for; null before the first. */
	lastUsedStep: number | null;
	/** Keyed hashes of the recovery codes not used yet. */
	recoveryCodes: string[];
	/** When the second factor was enrolled. */
	createdAt?: Date | null;
}

/**
 * Persistence for users, accounts, sessions, verification tokens and authenticators.
 * Every method is optional; the engine names a missing one in a `MissingAdapterMethod` error.
 */
export interface Adapter {
	createUser?(user: AdapterUser): Awaitable<AdapterUser>;
	getUser?(id: string): Awaitable<AdapterUser | null>;
	getUserByEmail?(email: string): Awaitable<AdapterUser | null>;
	getUserByAccount?(
		providerAccountId: Pick<AdapterAccount, 'provider' | 'providerAccountId'>
	): Awaitable<AdapterUser | null>;
	updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, 'id'>): Awaitable<AdapterUser>;
	deleteUser?(userId: string): Awaitable<AdapterUser | null | undefined | void>;
	linkAccount?(account: AdapterAccount): Awaitable<AdapterAccount | null | undefined | void>;
	unlinkAccount?(
		providerAccountId: Pick<AdapterAccount, 'provider' | 'providerAccountId'>
	): Awaitable<AdapterAccount | undefined | void>;
	getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>;
	/**
	 * Optional (kitgate addition): every account linked to `userId` (`[]` for an unknown user).
	 * Used to tell a user the app created itself from one an unproven sign-in created, when a
	 * proven sign-in arrives for its address (docs/security.md, "Account linking").
	 *
	 * @example
	 * const accounts = await adapter.listAccountsByUserId("user-1"); // [{ provider: "github", … }]
	 */
	listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>;
	/**
	 * Optional (kitgate addition): writes new token fields (`access_token`, `refresh_token`,
	 * `expires_at`, …) to the account `{ provider, providerAccountId }` and returns it. Used to
	 * persist upstream token refresh (`refresh: true` on a provider) and tokens of a repeated sign-in.
	 *
	 * @example
	 * await adapter.updateAccount({ provider: "github", providerAccountId: "42", access_token: "new", expires_at: 1767225600 });
	 */
	updateAccount?(
		account: Partial<AdapterAccount> & Pick<AdapterAccount, 'provider' | 'providerAccountId'>
	): Awaitable<AdapterAccount | null | undefined | void>;
	createSession?(session: AdapterSession): Awaitable<AdapterSession>;
	getSessionAndUser?(
		sessionToken: string
	): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>;
	updateSession?(
		session: Partial<AdapterSession> & Pick<AdapterSession, 'sessionToken'>
	): Awaitable<AdapterSession | null | undefined | void>;
	deleteSession?(sessionToken: string): Awaitable<AdapterSession | null | undefined | void>;
	createVerificationToken?(
		verificationToken: VerificationToken
	): Awaitable<VerificationToken | null | undefined | void>;
	useVerificationToken?(params: {
		identifier: string;
		token: string;
	}): Awaitable<VerificationToken | null>;
	createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>;
	getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>;
	listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>;
	updateAuthenticatorCounter?(
		credentialID: string,
		newCounter: number
	): Awaitable<AdapterAuthenticator>;
	/**
	 * Optional (kitgate addition): removes the authenticator with `credentialID` and returns it
	 * (null when there was none). Used when a signed-in user removes one of their passkeys.
	 *
	 * @example
	 * await adapter.deleteAuthenticator("dGVzdC1jcmVkZW50aWFs");
	 */
	deleteAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null | undefined | void>;
	/**
	 * Optional (kitgate addition): deletes every session of `userId` (database sessions). Used by
	 * `revokeSessions(userId, config)` to sign a user out everywhere.
	 *
	 * @example
	 * await adapter.deleteSessionsByUserId("user-1");
	 */
	deleteSessionsByUserId?(userId: string): Awaitable<void>;
	/**
	 * Optional (kitgate addition): every session of `userId`, expired ones included (`[]` for an
	 * unknown user), with `createdAt` and `userAgent` where the adapter stores them. Used by the
	 * account routes to list where a user is signed in (database sessions).
	 *
	 * @example
	 * const sessions = await adapter.listSessionsByUserId("user-1"); // [{ sessionToken: "…", userId: "user-1", expires, createdAt }]
	 */
	listSessionsByUserId?(userId: string): Awaitable<AdapterSession[]>;
	/**
	 * Optional (kitgate addition): deletes the session `sessionToken` only if it belongs to
	 * `userId`, and returns it (null when there is no such session of that user). Used when a user
	 * ends one of their sessions from the account routes.
	 *
	 * @example
	 * await adapter.deleteSessionOfUser("user-1", "3f8a…"); // null: not a session of user-1
	 */
	deleteSessionOfUser?(userId: string, sessionToken: string): Awaitable<AdapterSession | null | undefined | void>;
	/**
	 * Optional (kitgate addition): changes the name or last-use time of the passkey with
	 * `credentialID` and returns it (null when there is none). Used to rename a passkey and to
	 * record its use at each passkey sign-in.
	 *
	 * @example
	 * await adapter.updateAuthenticator("dGVzdC1jcmVkZW50aWFs", { name: "Work laptop" });
	 */
	updateAuthenticator?(credentialID: string, changes: AuthenticatorChanges): Awaitable<AdapterAuthenticator | null | undefined | void>;
	/**
	 * Optional (kitgate addition): the second factor of `userId`, or null when the user has none.
	 * Needed for two-factor sign-in (docs/account.md, "Second factor"); without it nobody is asked
	 * for a second factor.
	 *
	 * @example
	 * const record = await adapter.getTwoFactor("user-1"); // { userId: "user-1", totpSecret: "eyJ…", lastUsedStep: 58908240, recoveryCodes: [ … ] }
	 */
	getTwoFactor?(userId: string): Awaitable<AdapterTwoFactor | null>;
	/**
	 * Optional (kitgate addition): stores the second factor of `record.userId`, replacing the one
	 * it had, and returns it. Used at enrolment and when recovery codes are made again. The stored
	 * `lastUsedStep` never goes back: keep the later of the stored and the given one, in one write
	 * (a record read before a code was used must not undo that use).
	 *
	 * @example
	 * await adapter.setTwoFactor({ userId: "user-1", totpSecret: sealed, lastUsedStep: 58908240, recoveryCodes: hashes, createdAt: new Date() });
	 */
	setTwoFactor?(record: AdapterTwoFactor): Awaitable<AdapterTwoFactor>;
	/**
	 * Optional (kitgate addition): removes the second factor of `userId` (nothing when it has none).
	 *
	 * @example
	 * await adapter.deleteTwoFactor("user-1");
	 */
	deleteTwoFactor?(userId: string): Awaitable<void>;
	/**
	 * Optional (kitgate addition): records that a TOTP code of time step `step` signed `userId` in,
	 * only when `step` is later than the step recorded before; true when it was recorded. Atomic:
	 * of two concurrent calls with one step, one gets true (a code is accepted once).
	 *
	 * @example
	 * if (!(await adapter.useTotpStep("user-1", 58908241))) throw new Error("replayed");
	 */
	useTotpStep?(userId: string, step: number): Awaitable<boolean>;
	/**
	 * Optional (kitgate addition): removes the recovery code hash `hash` of `userId`; true when the
	 * user had it. Atomic: of two concurrent calls with one hash, one gets true.
	 *
	 * @example
	 * if (!(await adapter.useRecoveryCode("user-1", hash))) throw new Error("used");
	 */
	useRecoveryCode?(userId: string, hash: string): Awaitable<boolean>;
	/**
	 * Optional (kitgate addition): a page of users for the admin routes (docs/admin.md), ordered by
	 * email then id, and the number of users matching the search in all.
	 *
	 * @example
	 * const { users, total } = await adapter.listUsers({ search: "ada", limit: 20, offset: 0 });
	 */
	listUsers?(query: UserListQuery): Awaitable<UserListPage>;
	/**
	 * Optional (kitgate addition): what kitgate keeps about `userId` for admins (role, ban, creation
	 * and last sign-in times), null when nothing was ever set.
	 *
	 * @example
	 * const record = await adapter.getUserAdmin("user-1"); // { userId: "user-1", role: "admin", bannedAt: null, … }
	 */
	getUserAdmin?(userId: string): Awaitable<AdapterUserAdmin | null>;
	/**
	 * Optional (kitgate addition): writes the given fields of `userId`'s admin record (creating it,
	 * the other fields null) and returns the whole record. Removed with the user by `deleteUser`.
	 *
	 * @example
	 * await adapter.setUserAdmin({ userId: "user-1", bannedAt: new Date(), banReason: "spam", banExpires: null });
	 */
	setUserAdmin?(record: Partial<AdapterUserAdmin> & Pick<AdapterUserAdmin, 'userId'>): Awaitable<AdapterUserAdmin>;
	/**
	 * Optional (kitgate addition): appends one row to the admin audit trail and returns it.
	 *
	 * @example
	 * await adapter.createAuditEntry({ id, at: new Date(), actorId: "admin-1", subjectId: "user-1", action: "ban", detail: null });
	 */
	createAuditEntry?(entry: AdapterAuditEntry): Awaitable<AdapterAuditEntry>;
	/**
	 * Optional (kitgate addition): the audit rows where `userId` is the actor or the subject, newest
	 * first, at most `limit`.
	 *
	 * @example
	 * const trail = await adapter.listAuditEntries("user-1", { limit: 50 });
	 */
	listAuditEntries?(userId: string, options: { limit: number }): Awaitable<AdapterAuditEntry[]>;
	/**
	 * Optional (kitgate addition, docs/organizations.md): stores a new organization and returns it.
	 * A slug another organization has throws a unique violation (`UniqueViolationError` on the
	 * shipped adapters).
	 *
	 * @example
	 * await adapter.createOrganization({ id, name: "Acme", slug: "acme", logo: null, metadata: null, createdAt: new Date() });
	 */
	createOrganization?(organization: AdapterOrganization): Awaitable<AdapterOrganization>;
	/**
	 * Optional (kitgate addition): the organization with this id, null for none.
	 *
	 * @example
	 * const organization = await adapter.getOrganization("org-1");
	 */
	getOrganization?(id: string): Awaitable<AdapterOrganization | null>;
	/**
	 * Optional (kitgate addition): the organization with this slug (exact match), null for none.
	 *
	 * @example
	 * const organization = await adapter.getOrganizationBySlug("acme");
	 */
	getOrganizationBySlug?(slug: string): Awaitable<AdapterOrganization | null>;
	/**
	 * Optional (kitgate addition): writes the given fields (not `id`, not `createdAt`) and returns the
	 * organization, null when none has the id. A taken slug throws a unique violation.
	 *
	 * @example
	 * await adapter.updateOrganization({ id: "org-1", name: "Acme Inc." });
	 */
	updateOrganization?(
		changes: Partial<Pick<AdapterOrganization, 'name' | 'slug' | 'logo' | 'metadata'>> & Pick<AdapterOrganization, 'id'>
	): Awaitable<AdapterOrganization | null>;
	/**
	 * Optional (kitgate addition): deletes the organization with its members, invitations, teams and
	 * team members, and clears it as the active organization of every stored session. Nothing for an
	 * unknown id.
	 *
	 * @example
	 * await adapter.deleteOrganization("org-1");
	 */
	deleteOrganization?(id: string): Awaitable<void>;
	/**
	 * Optional (kitgate addition): stores a membership. A second membership of one user in one
	 * organization throws a unique violation; an unknown organization or user throws.
	 *
	 * @example
	 * await adapter.createMember({ id, organizationId: "org-1", userId: "user-1", role: "owner", createdAt: new Date() });
	 */
	createMember?(member: AdapterMember): Awaitable<AdapterMember>;
	/**
	 * Optional (kitgate addition): the organization and the user's membership of it, in one read;
	 * null when the user is not its member (or either is unknown). Called on every session read with
	 * an active organization: keep it one indexed query.
	 *
	 * @example
	 * const membership = await adapter.getMembership("org-1", "user-1"); // { organization, member } | null
	 */
	getMembership?(organizationId: string, userId: string): Awaitable<AdapterMembership | null>;
	/**
	 * Optional (kitgate addition): the members of an organization with their users, ordered by the
	 * membership's creation time then id.
	 *
	 * @example
	 * const members = await adapter.listMembers("org-1");
	 */
	listMembers?(organizationId: string): Awaitable<AdapterMemberWithUser[]>;
	/**
	 * Optional (kitgate addition): every organization the user is a member of, with the membership,
	 * ordered by organization name then id.
	 *
	 * @example
	 * const memberships = await adapter.listMemberships("user-1");
	 */
	listMemberships?(userId: string): Awaitable<AdapterMembership[]>;
	/**
	 * Optional (kitgate addition): sets a member's role, keeping one member of `keepOne` (the owner
	 * role) in the organization: when the member has that role, the new role is another and no
	 * other member has it, nothing changes and the answer is `"last"`. Atomic: of two concurrent
	 * calls that would each remove one of the last two owners, one answers `"last"`. Null for an
	 * unknown member. With `expectedRole`, the change is made only while the member still has that
	 * role, in the same atomic step (`"stale"`: the role was another, nothing changed), so a
	 * decision taken on the role read before cannot apply to a member whose role changed meanwhile.
	 *
	 * @example
	 * const result = await adapter.updateMemberRole("member-1", "admin", { keepOne: "owner", expectedRole: "member" });
	 */
	updateMemberRole?(memberId: string, role: string, options: { keepOne: string; expectedRole?: string }): Awaitable<AdapterMember | 'last' | 'stale' | null>;
	/**
	 * Optional (kitgate addition): deletes a membership (and the user's team memberships in that
	 * organization), keeping one member of `keepOne` as `updateMemberRole` does (`"last"`: nothing
	 * deleted). Atomic in the same way. `"deleted"`, or null for an unknown member. With
	 * `expectedRole`, deleted only while the member still has that role (`"stale"`: nothing deleted).
	 *
	 * @example
	 * const result = await adapter.deleteMember("member-1", { keepOne: "owner", expectedRole: "member" });
	 */
	deleteMember?(memberId: string, options: { keepOne: string; expectedRole?: string }): Awaitable<'deleted' | 'last' | 'stale' | null>;
	/**
	 * Optional (kitgate addition): stores an invitation (the organization must exist).
	 *
	 * @example
	 * await adapter.createInvitation({ id, organizationId: "org-1", email: "bo@example.com", role: "member", inviterId: "user-1", tokenHash, teamId: null, status: "pending", expires, createdAt: new Date() });
	 */
	createInvitation?(invitation: AdapterInvitation): Awaitable<AdapterInvitation>;
	/**
	 * Optional (kitgate addition): the invitation with this id, null for none.
	 *
	 * @example
	 * const invitation = await adapter.getInvitation("inv-1");
	 */
	getInvitation?(id: string): Awaitable<AdapterInvitation | null>;
	/**
	 * Optional (kitgate addition): the invitations of an organization, every status, newest first.
	 *
	 * @example
	 * const invitations = await adapter.listInvitations("org-1");
	 */
	listInvitations?(organizationId: string): Awaitable<AdapterInvitation[]>;
	/**
	 * Optional (kitgate addition): the invitations to this (normalized) address, every status,
	 * newest first.
	 *
	 * @example
	 * const invitations = await adapter.listInvitationsByEmail("bo@example.com");
	 */
	listInvitationsByEmail?(email: string): Awaitable<AdapterInvitation[]>;
	/**
	 * Optional (kitgate addition): revokes a `pending` invitation; true when it was pending (and is
	 * now `revoked`), false otherwise. Atomic against `acceptInvitation`.
	 *
	 * @example
	 * if (!(await adapter.revokeInvitation("inv-1"))) throw new Error("not pending");
	 */
	revokeInvitation?(id: string): Awaitable<boolean>;
	/**
	 * Optional (kitgate addition): in one transaction, marks the invitation `accepted` if it is
	 * `pending` and `expires` is after `now`, stores `member`, and adds the user to the invitation's
	 * team when it has one. Null (nothing written) when the invitation was not pending, had expired,
	 * or the user is already a member. Of two concurrent calls, one succeeds.
	 *
	 * @example
	 * const member = await adapter.acceptInvitation("inv-1", { id, organizationId: "org-1", userId: "user-2", role: "member", createdAt: now }, now);
	 */
	acceptInvitation?(invitationId: string, member: AdapterMember, now: Date): Awaitable<AdapterMember | null>;
	/**
	 * Optional (kitgate addition): stores a team. A name another team of the organization has throws
	 * a unique violation.
	 *
	 * @example
	 * await adapter.createTeam({ id, organizationId: "org-1", name: "Design", createdAt: new Date() });
	 */
	createTeam?(team: AdapterTeam): Awaitable<AdapterTeam>;
	/**
	 * Optional (kitgate addition): the teams of an organization, ordered by name then id.
	 *
	 * @example
	 * const teams = await adapter.listTeams("org-1");
	 */
	listTeams?(organizationId: string): Awaitable<AdapterTeam[]>;
	/**
	 * Optional (kitgate addition): deletes a team and its memberships. Nothing for an unknown id.
	 *
	 * @example
	 * await adapter.deleteTeam("team-1");
	 */
	deleteTeam?(teamId: string): Awaitable<void>;
	/**
	 * Optional (kitgate addition): puts a user in a team; a second time throws a unique violation.
	 *
	 * @example
	 * await adapter.addTeamMember({ teamId: "team-1", userId: "user-2", createdAt: new Date() });
	 */
	addTeamMember?(teamMember: AdapterTeamMember): Awaitable<AdapterTeamMember>;
	/**
	 * Optional (kitgate addition): takes a user out of a team; true when they were in it.
	 *
	 * @example
	 * await adapter.removeTeamMember("team-1", "user-2");
	 */
	removeTeamMember?(teamId: string, userId: string): Awaitable<boolean>;
	/**
	 * Optional (kitgate addition): the users in a team, ordered by when they joined, then user id.
	 *
	 * @example
	 * const people = await adapter.listTeamMembers("team-1");
	 */
	listTeamMembers?(teamId: string): Awaitable<AdapterTeamMember[]>;
}

/** Fields every provider has. */
export interface CommonProviderOptions {
	/** Unique id: part of the URL and the argument of `signIn()`. */
	id: string;
	/** Label on the default sign-in button ("Sign in with <name>"). */
	name: string;
	type: ProviderType;
	style?: ProviderStyle;
}

/** A provider that checks submitted credentials (e.g. username and password) itself. */
export interface CredentialsConfig extends CommonProviderOptions {
	type: 'credentials';
	/**
	 * Fields shown on the built-in sign-in page. Each one that is submitted must be exactly one
	 * string (else a 400 `InvalidRequest` before `authorize` runs). The declared `email` field, else
	 * `username`, else the first one that is not a password, is the identifier failed attempts are
	 * counted against (`rateLimit.credentials`); that field must be submitted.
	 */
	credentials: Record<string, CredentialInput>;
	/**
	 * Checks the submitted fields. Return a user to sign in; return `null` or throw
	 * `CredentialsSignin` to refuse.
	 */
	authorize: (
		credentials: Partial<Record<string, unknown>>,
		request: Request
	) => Awaitable<User | null>;
	/**
	 * Shortest time, in milliseconds, a failed attempt takes to answer (default 300): a refusal for
	 * an unknown user is not faster than one for a wrong password, as long as `authorize` is faster
	 * than this. 0 turns it off. See docs/security.md.
	 */
	minFailureMs?: number;
}

/** An endpoint given as a URL, or as an object with a URL and extra query parameters. */
export type EndpointOption =
	| string
	| {
			url?: string;
			params?: Record<string, string | undefined>;
			/**
			 * Replaces the built-in request for this endpoint (advanced). `token`: gets `params`
			 * (`code`, `code_verifier`, `redirect_uri`, …) and returns the token response (a JSON
			 * object or a `Response`), which is still validated. `userinfo`: gets `tokens` and returns the profile.
			 */
			request?: (context: { provider: OAuthConfig; tokens?: TokenSet; params?: unknown }) => Awaitable<unknown>;
	  };

/** Checks that protect the OAuth callback. */
export type OAuthCheck = 'pkce' | 'state' | 'nonce' | 'none';

/** A private key for `private_key_jwt`: a private JWK (RFC 7517), a PEM string or a WebCrypto key. */
export type OAuthClientPrivateKey = JWK | string | CryptoKey;

/** The `client` option of an OAuth provider (oauth4webapi client metadata plus the private key). */
export interface OAuthClientOptions {
	/**
	 * How the client authenticates at the token endpoint (code exchange and refresh):
	 * - `client_secret_basic`: `clientSecret` in an HTTP Basic header (default with a `clientSecret`);
	 * - `client_secret_post`: `clientSecret` in the form body;
	 * - `client_secret_jwt`: an HS256 assertion signed with `clientSecret`;
	 * - `private_key_jwt`: an assertion signed with `private_key` (default when it is set);
	 * - `none`: a public client, only `client_id` (default without a secret or key).
	 *
	 * Any other value fails at start-up (`InvalidConfiguration`).
	 */
	// `string & {}`: a method held in a `string` variable still type-checks (and is checked at start-up)
	token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'client_secret_jwt' | 'private_key_jwt' | 'none' | (string & {});
	/**
	 * `private_key_jwt`: the private key that signs the client assertion, as a JWK (with `d`), a
	 * PEM string (`-----BEGIN PRIVATE KEY-----`) or a `CryptoKey` with the `sign` usage. RSA (at
	 * least 2048 bits; `RS256`, or the JWK's `alg`), EC P-256/384/521 or Ed25519. Checked at start-up.
	 */
	private_key?: OAuthClientPrivateKey;
	/** `private_key_jwt`: the `kid` of the assertion's header (default: the JWK's own `kid`). */
	private_key_kid?: string;
	/** Other client metadata, e.g. `id_token_signed_response_alg`, `default_max_age`. */
	[metadata: string]: unknown;
}

/** An OAuth 2 or OpenID Connect provider. */
export interface OAuthConfig<P extends Profile = Profile> extends CommonProviderOptions {
	type: 'oauth' | 'oidc';
	clientId?: string;
	clientSecret?: string;
	issuer?: string;
	wellKnown?: string;
	authorization?: EndpointOption;
	token?: EndpointOption;
	userinfo?: EndpointOption;
	jwks_endpoint?: unknown;
	checks?: OAuthCheck[];
	/**
	 * How the app authenticates at the token endpoint, and other OAuth client metadata, e.g.
	 * `{ token_endpoint_auth_method: "client_secret_post" }`. See docs/providers.md.
	 */
	client?: OAuthClientOptions;
	profile?(profile: P, tokens: TokenSet): Awaitable<User>;
	account?: (tokens: TokenSet) => TokenSet | undefined | void;
	/** OIDC only: `false` fetches the userinfo endpoint for user data. */
	idToken?: boolean;
	allowDangerousEmailAccountLinking?: boolean;
	redirectProxyUrl?: string;
	/**
	 * Keep the upstream `access_token` fresh with the `refresh_token` before `expires_at`
	 * (`skewSeconds` early, default 60). Off by default. See docs/providers.md.
	 */
	refresh?: boolean | { skewSeconds?: number };
	/** Time limit of each request to the identity provider, in milliseconds (default 10000). */
	timeout?: number;
	/** OAuth 1.0a providers set this to `"1.0a"`. */
	version?: string;
	/** OAuth 1.0a only: the temporary credentials (request token) endpoint. */
	requestToken?: EndpointOption;
	/**
	 * Read the callback's `user` form field (a JSON object) into `profile.user`. Only a provider
	 * that documents the field sets this (Sign in with Apple posts the user's name there, once);
	 * every other provider ignores the field. It is unsigned: take names from it, never identity.
	 */
	formPostUser?: boolean;
	[key: string]: unknown;
}

/** What an email provider's sender gets for one sign-in link. */
export interface SendVerificationRequestParams {
	/** The normalised address to send the link to. */
	identifier: string;
	/** The sign-in link (it carries the token); the only secret the mail may contain. */
	url: string;
	/** When the link stops working. */
	expires: Date;
	provider: EmailConfig;
	/** The raw token inside `url` (the adapter stores only its keyed hash). */
	token: string;
	theme: Theme;
	request: Request;
	/** kitgate addition: the configured `locale` (language of the built-in mail). */
	locale?: string;
	/** kitgate addition: page and mail texts in that language, with the config's `messages` overrides. */
	messages?: Record<string, string>;
}

/**
 * The mails of an email change (kitgate addition, docs/account.md):
 * - `confirm-email-change`: to the new address, with the link (`url`) that confirms it;
 * - `email-change-notice`: to the old address, saying which address was asked for (no link);
 * - `email-in-use`: to the new address when another user already has it (no link), so the answer
 *   to the request never tells whether an address has an account;
 * - `security-notice`: to the user's address after a credential change (`change` says which), with
 *   a link to the site only.
 * - `organization-invitation`: to an invited address, with the invitation link (`url`, its one
 *   secret), the organization's name and who invited (`invitation`; docs/organizations.md).
 */
export type AccountEmailKind = 'confirm-email-change' | 'email-change-notice' | 'email-in-use' | 'security-notice' | 'organization-invitation';

/**
 * A change to how a user proves who they are, told by a `security-notice` mail: a passkey added or
 * removed, a provider account connected or disconnected, the second factor turned on or off, new
 * recovery codes, the address changed, or — from the app through `credentialChanged` — a password.
 */
export type CredentialChange =
	| 'password-changed'
	| 'passkey-added'
	| 'passkey-removed'
	| 'account-linked'
	| 'account-unlinked'
	| 'two-factor-enabled'
	| 'two-factor-removed'
	| 'recovery-codes-regenerated'
	| 'email-changed';

/** What an email provider's `sendAccountEmail` gets for one mail of an email change. */
export interface AccountEmailParams {
	kind: AccountEmailKind;
	/** `security-notice`: what changed. */
	change?: CredentialChange;
	/** The address to send to. */
	identifier: string;
	/** `confirm-email-change`: the confirmation link (its one secret). Otherwise the site's URL. */
	url: string;
	/** The address the user asked to change to. */
	newEmail: string;
	/** `confirm-email-change`: when the link stops working. */
	expires?: Date;
	provider: EmailConfig;
	theme: Theme;
	request: Request;
	/** The configured `locale` (language of the built-in mail). */
	locale?: string;
	/** Page and mail texts in that language, with the config's `messages` overrides. */
	messages?: Record<string, string>;
	/** `organization-invitation`: the organization, the role offered and who invited (null: a server script). */
	invitation?: { organizationName: string; role: string; inviterName: string | null };
}

/** A provider that signs users in with a one-time link sent by email. */
export interface EmailConfig extends CommonProviderOptions {
	type: 'email';
	from?: string;
	server?: unknown;
	/** Lifetime of a link, in seconds (default 24 hours). */
	maxAge?: number;
	sendVerificationRequest: (params: SendVerificationRequestParams) => Awaitable<void>;
	generateVerificationToken?: () => Awaitable<string>;
	normalizeIdentifier?: (identifier: string) => string;
	/**
	 * Sends the mails of an email change (kitgate addition). `Email({ server })` sends built-in
	 * ones; with your own `sendVerificationRequest`, give this too or email changes are refused.
	 */
	sendAccountEmail?: (params: AccountEmailParams) => Awaitable<void>;
	[key: string]: unknown;
}

/** How strongly the authenticator must verify the user (PIN, biometrics). */
export type UserVerificationRequirement = 'required' | 'preferred' | 'discouraged';

/** The two passkey ceremonies: create a credential, or sign in with one. */
export type PasskeyAction = 'register' | 'authenticate';

/** Which authenticators may create a passkey (WebAuthn `AuthenticatorSelectionCriteria`). */
export interface PasskeyAuthenticatorSelection {
	authenticatorAttachment?: 'platform' | 'cross-platform';
	residentKey?: 'discouraged' | 'preferred' | 'required';
	requireResidentKey?: boolean;
	userVerification?: UserVerificationRequirement;
}

/** The relying party (your site) as authenticators see it. */
export interface RelyingPartyOptions {
	/** Name shown by the authenticator (default: the request's host name). */
	name?: string;
	/** RP ID: the registrable domain passkeys are bound to (default: the public URL's host name). */
	id?: string;
	/** Origin(s) responses must come from (default: the public URL's origin). */
	origin?: string | string[];
}

/** What `getUserInfo` receives. */
export interface PasskeyUserInfoParams {
	provider: WebAuthnConfig;
	/** The submitted email, trimmed and lower-cased, if any. */
	email?: string;
	/** The user of the request's session, if any. */
	signedInUser: AdapterUser | null;
	/** The configured adapter (for lookups). */
	adapter: Required<Adapter>;
}

/** Whom a passkey registration is for: a stored user (`exists: true`) or a draft of a new one. */
export interface PasskeyUserInfo {
	user: { id?: string; email: string; name?: string | null };
	exists: boolean;
}

/** A WebAuthn (passkey) provider; needs `experimental.enableWebAuthn` and an adapter. */
export interface WebAuthnConfig extends CommonProviderOptions {
	type: 'webauthn';
	/** Relying-party name, ID and origin; defaults come from the request's public URL. */
	relyingParty?: RelyingPartyOptions;
	/** User verification asked of authenticators (default `preferred`; `required` is enforced). */
	userVerification?: UserVerificationRequirement;
	/** Authenticator selection for registration (default: resident key `required`). */
	authenticatorSelection?: PasskeyAuthenticatorSelection;
	/** Milliseconds the browser waits for the user (default 60000). */
	timeout?: number;
	/**
	 * Whom a registration is for. Default: the signed-in user, else the user with the submitted
	 * email, else a new user with that email; `null` when there is neither. A registration for
	 * an existing user is refused unless that user is signed in, whatever this returns.
	 */
	getUserInfo?: (params: PasskeyUserInfoParams, request: Request) => Awaitable<PasskeyUserInfo | null>;
	[key: string]: unknown;
}

/** Any provider object. */
export type Provider = CredentialsConfig | OAuthConfig | EmailConfig | WebAuthnConfig;

/** Paths of user-built pages that replace the built-in ones. */
export interface PagesOptions {
	signIn: string;
	signOut: string;
	error: string;
	verifyRequest: string;
	newUser: string;
	/**
	 * Replaces the built-in account page (`GET {basePath}/account` in a browser): receives the
	 * `account` (result) and `accountError` query of a change. Build it from `AccountSettings`
	 * (`kitgate/components`) and the overview (docs/account.md).
	 */
	account: string;
	/**
	 * Replaces the built-in second sign-in step (`GET {basePath}/second-factor`): receives `error`
	 * (`InvalidSecondFactor`, `RateLimited`) after a refused code. Build it from `TwoFactorChallenge`
	 * (`kitgate/components`), which posts to `{basePath}/second-factor` (docs/two-factor.md).
	 */
	secondFactor: string;
}

/** Attributes of one cookie. */
export interface CookieAttributes {
	httpOnly?: boolean;
	sameSite?: 'lax' | 'strict' | 'none';
	path?: string;
	secure?: boolean;
	domain?: string;
	maxAge?: number;
	expires?: Date;
}

/** Name and attributes of one of kitgate's cookies. */
export interface CookieOption {
	name: string;
	options: CookieAttributes;
}

/** kitgate's cookies. */
export interface CookiesOptions {
	sessionToken: CookieOption;
	callbackUrl: CookieOption;
	csrfToken: CookieOption;
	pkceCodeVerifier: CookieOption;
	state: CookieOption;
	nonce: CookieOption;
	webauthnChallenge: CookieOption;
	/** The encrypted copy of a database session (`session.cache`), beside the session cookie. */
	sessionCache: CookieOption;
}

/** Session options. */
export interface SessionOptions {
	/** `jwt` (default) or `database` (default when an adapter is set). */
	strategy: 'jwt' | 'database';
	/** Seconds an idle session lives (default 30 days). */
	maxAge: number;
	/** Seconds between extensions of the session (default 1 day; 0 = every access). */
	updateAge: number;
	/** Token generator for database sessions (default: 32 random bytes as 64 hex digits, 256 bits). */
	generateSessionToken: () => string;
	/**
	 * When JWT sessions are checked against `revokeSessions()` / `deleteUser()`: `always` (default)
	 * on every read, so a revoked session ends on its next request (one store lookup per read: a
	 * map lookup with the memory store, one query with a SQL store); `refresh` only when the token
	 * is re-issued (at most `updateAge` late, no lookup on other reads).
	 */
	revocationCheck?: 'refresh' | 'always';
	/**
	 * Where revocations of JWT sessions are kept. Default: `rateLimit.store` when it can keep them
	 * (the built-in stores can), else this process's memory. Share one between servers.
	 */
	revocationStore?: RevocationStore;
	/**
	 * Database sessions: a short-lived copy of the session and its user, read instead of the
	 * database on most requests (off by default). See {@link SessionCacheOptions}.
	 */
	cache?: SessionCacheOptions;
}

/**
 * A short-lived copy of each database session (its user, expiry and sign-in time), so that reading
 * the session asks the database about once per `maxAge` per browser or server instead of on every
 * request. Sign-in, sign-out and every change made through kitgate's routes in that browser replace
 * or drop the copy; the session routes that act (account changes, linking, the second step) always
 * read the database.
 *
 * @example
 * const config = { adapter, session: { cache: { maxAge: 60 } } }; // an encrypted cookie, at most 60 s old
 */
export interface SessionCacheOptions {
	/**
	 * Seconds a copy is used without asking the database (at least 1). This is also how long a
	 * session ended elsewhere (another device's "sign out everywhere", `revokeSessions()`, a row
	 * deleted by the app) can still be read where a copy was taken, and how long a change to the user
	 * made outside this browser takes to show. With a `store`, kitgate's own deletions and updates
	 * drop the copies at once.
	 */
	maxAge: number;
	/**
	 * Where the copies are kept: `"cookie"` (default), an encrypted cookie beside the session
	 * cookie (`kitgate.session-cache`), no server state; or a {@link SessionCacheStore} shared by the
	 * servers (`RedisSessionCacheStore` from `kitgate/adapters/redis`, `MemorySessionCacheStore`
	 * for one process), from which kitgate's own session and user writes remove them at once.
	 */
	store?: 'cookie' | SessionCacheStore;
}

/**
 * What a session-cache store answers to `get`: the value, or (a miss) the store's clock reading,
 * which `set` is handed back so a copy read before a concurrent change is never stored after it.
 */
export type SessionCacheLookup = { value: string } | { value: null; missedAt: number };

/**
 * Where copies of database sessions are kept (see {@link SessionCacheOptions}). Keys are keyed
 * hashes of session tokens, values opaque strings. Every time is the store's own clock (ms), so
 * servers whose clocks differ agree. A store must never return a value stored from a miss at or
 * before a `forget` of its key or a `forgetUser` of its user.
 *
 * @example
 * const found = await store.get(key);
 * if (found.value === null) await store.set(key, { userId, value, missedAt: found.missedAt, ttlSeconds: 60 });
 */
export interface SessionCacheStore {
	/** The value kept under `key`, or null and the store's current time. */
	get(key: string): Awaitable<SessionCacheLookup>;
	/**
	 * Keeps `value` for `ttlSeconds` under `key`, for the user `userId` — unless `key` was forgotten,
	 * or the user's copies were, at or after `missedAt`.
	 */
	set(key: string, entry: { userId: string; value: string; missedAt: number; ttlSeconds: number }): Awaitable<void>;
	/** Drops the copy under `key` and refuses copies from misses up to now for `ttlSeconds`. */
	forget(key: string, ttlSeconds: number): Awaitable<void>;
	/** Drops every copy of `userId`'s sessions and refuses copies from misses up to now for `ttlSeconds`. */
	forgetUser(userId: string, ttlSeconds: number): Awaitable<void>;
}

/** A counter of one rate-limit window. */
export interface RateLimitCount {
	/** Hits in the current window, this one included. */
	count: number;
	/** When the window ends (milliseconds since epoch); with `refused`, when to try again. */
	resetAt: number;
	/**
	 * The store had no room for a new key and did not count the hit: the attempt is refused as
	 * `RateLimited`. A bounded store sets this instead of forgetting a live counter.
	 */
	refused?: boolean;
}

/**
 * Where rate-limit counters live: fixed windows keyed by opaque strings (keyed hashes of an
 * identifier or client address). Share one between servers (e.g. `SqlRateLimitStore`).
 *
 * @example
 * const store: RateLimitStore = MemoryRateLimitStore();
 * const { count, resetAt } = await store.increment("k", 900, Date.now());
 */
export interface RateLimitStore {
	/**
	 * Adds a hit to `key`, opening a window of `windowSeconds` when none is open at `now`. A store
	 * may drop counters whose window has ended, never open ones: when it is full, it answers
	 * `refused` for a new key instead.
	 */
	increment(key: string, windowSeconds: number, now: number): Awaitable<RateLimitCount>;
	/** Takes back one hit of the open window (a successful sign-in does not count). */
	decrement(key: string, now: number): Awaitable<void>;
	/** Forgets `key`. */
	reset(key: string): Awaitable<void>;
}

/**
 * Where revocations of JWT sessions live: per user, the time before which its sessions were signed
 * out everywhere.
 *
 * @example
 * await store.revoke("user-1", Date.now(), 30 * 86400);
 */
export interface RevocationStore {
	/** Sessions of `userId` issued before this time (ms) are revoked; null when none are. */
	revokedAt(userId: string, now: number): Awaitable<number | null>;
	/**
	 * Revokes sessions of `userId` issued before `at`; the record may be dropped after `keepSeconds`.
	 * `evictable`: a best-effort record (a sign-out's) that a bounded store may drop first when
	 * full. A bounded store must never drop any other live record: it refuses (throws) instead.
	 */
	revoke(userId: string, at: number, keepSeconds: number, options?: RevokeOptions): Awaitable<void>;
}

/** How a revocation is kept (see {@link RevocationStore.revoke}). */
export interface RevokeOptions {
	/** A best-effort record a bounded store may drop first when full (a sign-out's). */
	evictable?: boolean;
	/** The user the record belongs to (default the key): a bounded store drops the records of whoever holds the most first. */
	owner?: string;
}

/** Limits of one kind of attempt; a limit of 0 is off. */
export interface RateLimitRule {
	/** Attempts per identifier (email address, username) in a window. */
	perIdentifier?: number;
	/** Attempts per client address in a window. */
	perAddress?: number;
	/** Length of a window in seconds. */
	windowSeconds?: number;
}

/**
 * Abuse limits of sign-in attempts (see docs/security.md). Credentials count failed attempts
 * (default 10 per identifier and 100 per address in 15 minutes); email counts link requests
 * (default 5 per address typed and 50 per client address in 15 minutes). See docs/security.md.
 *
 * @example
 * const rateLimit: RateLimitOptions = { credentials: { perIdentifier: 5 }, trustedProxies: 1 };
 */
export interface RateLimitOptions {
	/** Failed credentials attempts; `false` turns the limit off. */
	credentials?:
		| (RateLimitRule & {
				/**
				 * Where the identifier of an attempt comes from. Default: the provider's declared
				 * `email` field, else `username`, else its first declared field that is not a password.
				 * A field name (e.g. `"login"`) names the field instead; that field must then arrive as
				 * one string, like every declared field, or the request is a 400 `InvalidRequest`.
				 * A function reads it from the submitted fields; a result that is not a string is a 400.
				 */
				identifier?: string | ((credentials: Record<string, unknown>) => string | undefined);
		  })
		| false;
	/** Email-link requests; `false` turns the limit off. */
	email?: RateLimitRule | false;
	/**
	 * Email links (or codes) used that matched no token, per address they were for and per client
	 * address (default 10 and 100 per 15 minutes): what keeps a short code from being guessed.
	 */
	emailToken?: RateLimitRule | false;
	/**
	 * Passkey ceremonies per client address (default 100 per 15 minutes): counted when the button
	 * asks for options, and for autofill (which a page starts on every view) when its answer is used.
	 */
	passkey?: RateLimitRule | false;
	/**
	 * Changes through the account routes (unlink, link, passkey rename and removal, ending sessions,
	 * email change, deletion), per user and per client address (default 30 and 100 per 15 minutes).
	 */
	account?: RateLimitRule | false;
	/**
	 * Second-factor codes (TOTP or recovery code) typed at the second sign-in step, and the codes of
	 * the account routes' two-factor changes, per user and per client address (default 5 and 50 per
	 * 15 minutes).
	 */
	secondFactor?: RateLimitRule | false;
	/** Where counters live (default: this process's memory, bounded). */
	store?: RateLimitStore;
	/**
	 * Proxies in front of the app that append to `X-Forwarded-For`: the client address is the entry
	 * this many places from the right. Default 0: the address the integration saw (Express `req.ip`,
	 * SvelteKit `getClientAddress()`), and no per-address limit when there is none.
	 */
	trustedProxies?: number;
	/** Finds the client address of a request yourself (wins over `trustedProxies`). */
	clientAddress?: (request: Request) => string | undefined;
}

/** Parameters of `jwt.encode`. */
export interface JWTEncodeParams {
	token: JWT;
	secret: string | string[];
	salt: string;
	maxAge: number;
	/** Current time in milliseconds (the engine passes its clock). */
	now?: number;
}

/** Parameters of `jwt.decode`. */
export interface JWTDecodeParams {
	token: string | undefined;
	secret: string | string[];
	salt: string;
	/** Current time in milliseconds (the engine passes its clock). */
	now?: number;
}

/** JWT options. */
export interface JWTOptions {
	/** Seconds until the JWT expires (default: `session.maxAge`). */
	maxAge: number;
	encode: (params: JWTEncodeParams) => Awaitable<string>;
	decode: (params: JWTDecodeParams) => Awaitable<JWT | null>;
}

/** Logger levels kitgate writes to. */
export interface LoggerInstance {
	/**
	 * An error, as the interface has it: `code` is the error's type (`CallbackRouteError`,
	 * `AdapterError`, …; an `Error` that is not kitgate's: its `name`), then the `Error` itself, with
	 * its message, `cause` and stack. (Auth.js v5 calls `error(error)` with the `Error` alone.)
	 */
	error: (code: string, ...message: unknown[]) => void;
	warn: (code: string, ...message: unknown[]) => void;
	debug: (code: string, ...message: unknown[]) => void;
}

/** Triggers the `jwt` callback receives. */
export type JWTTrigger = 'signIn' | 'signUp' | 'update';

/**
 * What the `jwt` callback receives at sign-in (`trigger` `"signIn"`, or `"signUp"` when the user
 * was just created): the signed-in `user`, and the `account` and `profile` of the provider.
 *
 * @example
 * const jwt = (params: JWTCallbackParams) => (params.trigger === 'signIn' ? { ...params.token, id: params.user.id } : params.token);
 */
export interface JWTSignInParams {
	trigger: 'signIn' | 'signUp';
	token: JWT;
	/** The user that signed in: from the adapter (`AdapterUser`) when there is one, else as the provider returned it. */
	user: User | AdapterUser;
	/** The provider account; `null` when the provider has none to give. */
	account: Account | null;
	/** The identity provider's profile record (OAuth/OIDC sign-ins only). */
	profile?: Profile;
	/** @deprecated use `trigger === "signUp"`. */
	isNewUser?: boolean;
	session?: undefined;
}

/**
 * What the `jwt` callback receives when a JWT session is read (`trigger` absent) or updated
 * (`trigger: "update"`, with the data the app passed to `update()` as `session`): the stored
 * token only. There is no `user`, `account` or `profile` then.
 *
 * @example
 * const jwt = (params: JWTCallbackParams) => (params.trigger === 'update' ? { ...params.token, theme: params.session } : params.token);
 */
export interface JWTSessionParams {
	trigger?: 'update';
	token: JWT;
	user?: undefined;
	account: null;
	profile?: undefined;
	isNewUser?: undefined;
	/** With `trigger: "update"`: the data given to `update()` (unvalidated: check it). */
	session?: unknown;
}

/**
 * Parameters of the `jwt` callback: at sign-in ({@link JWTSignInParams}, `user` is set) or on a
 * read or update of the session ({@link JWTSessionParams}, `user` is undefined). `if (user)`
 * tells them apart, as `trigger` does.
 *
 * @example
 * const jwt = ({ token, user }: JWTCallbackParams) => (user ? { ...token, id: user.id } : token);
 */
export type JWTCallbackParams = JWTSignInParams | JWTSessionParams;

/**
 * What the `session` callback receives under JWT sessions: the decoded `token` (after the `jwt`
 * callback), no `user`.
 *
 * @example
 * const session = (params: SessionCallbackParams) => (params.token ? { ...params.session, id: params.token.sub } : params.session);
 */
export interface SessionJWTParams {
	/** The session about to be returned (`user` with `name`, `email`, `image`, and `expires`). */
	session: Session;
	token: JWT;
	user?: undefined;
	/** `"update"` when the app called `update()`; `newSession` is then the data it passed. */
	trigger?: 'update';
	newSession?: unknown;
}

/**
 * What the `session` callback receives under database sessions: the stored `user`, no `token`.
 *
 * @example
 * const session = (params: SessionCallbackParams) => (params.user ? { ...params.session, id: params.user.id } : params.session);
 */
export interface SessionDatabaseParams {
	/** The session about to be returned (`user` with `name`, `email`, `image`, and `expires`). */
	session: Session;
	token?: undefined;
	user: AdapterUser;
	/** `"update"` when the app called `update()`; `newSession` is then the data it passed. */
	trigger?: 'update';
	newSession?: unknown;
}

/**
 * Parameters of the `session` callback: `token` under JWT sessions, `user` under database sessions
 * (never both).
 *
 * @example
 * const session = ({ session, token, user }: SessionCallbackParams) => ({ ...session, id: token ? token.sub : user.id });
 */
export type SessionCallbackParams = SessionJWTParams | SessionDatabaseParams;

/** Callbacks that shape sign-in, redirects, tokens and sessions. */
export interface CallbacksOptions {
	signIn: (params: {
		user: User | AdapterUser;
		account: Account | null;
		profile?: Profile;
		email?: { verificationRequest?: boolean };
		credentials?: Record<string, unknown>;
	}) => Awaitable<boolean | string>;
	redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>;
	/** Shapes what a session read returns; see {@link SessionCallbackParams}. */
	session: (params: SessionCallbackParams) => Awaitable<Session>;
	/**
	 * Shapes the JWT session's token at sign-in and on every read (return `null` to end the
	 * session); see {@link JWTCallbackParams}.
	 */
	jwt: (params: JWTCallbackParams) => Awaitable<JWT | null>;
}

/** Audit/logging hooks; their errors are logged, never shown to users. */
export interface EventCallbacks {
	signIn: (message: {
		user: User | AdapterUser;
		account: Account | null;
		profile?: Profile;
		isNewUser?: boolean;
	}) => Awaitable<void>;
	/**
	 * `session`: the deleted database session (what the adapter returned); `token`: the JWT that was
	 * in the cookie (null when it could not be read). When a user ends their other JWT sessions from
	 * the account routes, `token` is null and `userId` and `revokedBefore` say whose sessions issued
	 * before when were revoked; when they end one other JWT session, `sessionId` is its listed id.
	 */
	signOut: (
		message: { session: AdapterSession | null | undefined | void } | { token: JWT | null; userId?: string; revokedBefore?: Date; sessionId?: string }
	) => Awaitable<void>;
	createUser: (message: { user: AdapterUser }) => Awaitable<void>;
	updateUser: (message: { user: AdapterUser }) => Awaitable<void>;
	linkAccount: (message: { user: AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>;
	/** kitgate addition: a user removed a way in from the account routes (an OAuth account, or a passkey's `webauthn` account). */
	unlinkAccount: (message: { user: AdapterUser; account: AdapterAccount }) => Awaitable<void>;
	/** kitgate addition: a user renamed a passkey from the account routes. */
	updateAuthenticator: (message: { user: AdapterUser; authenticator: AdapterAuthenticator }) => Awaitable<void>;
	/** kitgate addition: a user deleted their account from the account routes; every row of it is gone. */
	deleteUser: (message: { user: AdapterUser }) => Awaitable<void>;
	/**
	 * kitgate addition: a user's second factor changed: enrolled, removed, recovery codes made
	 * again, or a recovery code used at sign-in (`remainingRecoveryCodes` says how many are left).
	 */
	twoFactor: (message: {
		user: AdapterUser;
		change: 'enrolled' | 'removed' | 'recovery-codes-regenerated' | 'recovery-code-used';
		remainingRecoveryCodes?: number;
	}) => Awaitable<void>;
	/**
	 * kitgate addition: an admin changed a user (docs/admin.md, "Audit trail"), fired after the
	 * change and its audit row: `action` is the operation (`ban`, `set-role`, …, or
	 * `impersonated:<METHOD> <path>` for a change made while impersonating), `actorId` the admin
	 * (null for `adminApi(config, { system: true })`), `subjectId` the user, `detail` what the audit
	 * row keeps (never a secret), `impersonated` true for a change made while impersonating.
	 *
	 * @example
	 * const events: Partial<EventCallbacks> = { adminAction: ({ action, actorId, subjectId }) => console.info(action, actorId, subjectId) };
	 */
	adminAction: (message: {
		action: string;
		actorId: string | null;
		subjectId: string | null;
		detail: Record<string, unknown> | null;
		impersonated: boolean;
	}) => Awaitable<void>;
	/**
	 * Kitgate addition: after a change to an organization succeeded (`action`: `create`, `update`,
	 * `delete`, `invite`, `revoke-invitation`, `accept-invitation`, `set-role`, `remove-member`,
	 * `leave`, `create-team`, `delete-team`, `add-team-member`, `remove-team-member`). `actorId` is
	 * null for a server script; `detail` never holds a secret.
	 *
	 * @example
	 * const events: Partial<EventCallbacks> = { organizationChange: ({ action, organizationId }) => console.info(action, organizationId) };
	 */
	organizationChange: (message: {
		action: string;
		actorId: string | null;
		organizationId: string;
		subjectUserId: string | null;
		detail: Record<string, unknown> | null;
	}) => Awaitable<void>;
	/** `token` under JWT sessions, `user` under database sessions. */
	session: (
		message: { session: Session; token: JWT; user?: undefined } | { session: Session; user: AdapterUser; token?: undefined }
	) => Awaitable<void>;
}

/**
 * Options of the account routes (docs/account.md).
 *
 * @example
 * const account: AccountOptions = { freshSignIn: { maxAge: 600 }, emailChange: { provider: 'email' }, deleteAccount: true };
 */
export interface AccountOptions {
	/**
	 * How recent a sign-in must be for a sensitive change (unlink, link, removing the last passkey,
	 * email change, deletion): `maxAge` in seconds since the session's sign-in (default 600).
	 * Otherwise the change is refused with `FreshSignInRequired` and the user is sent to sign in again.
	 */
	freshSignIn?: { maxAge?: number };
	/**
	 * Email changes by a link sent to the new address: `provider` names the email provider that
	 * sends it (default: the only one). `false` turns email changes off. Without an email provider
	 * they are off.
	 */
	emailChange?: { provider?: string } | false;
	/** Whether users may delete their own account (default true). */
	deleteAccount?: boolean;
	/**
	 * With JWT sessions, whether each session is recorded in the adapter's sessions table (token
	 * `jwt:<id>`, never read as a database session) so the account page lists the user's devices
	 * and ends one of them (default true when the adapter can list sessions). `false`: JWT sessions
	 * write nothing, the page lists only the current device and ends the others all at once.
	 */
	listJwtSessions?: boolean;
}

/**
 * When the second factor is asked for (docs/two-factor.md, "Requiring it" and "Trusting a browser").
 *
 * @example
 * const twoFactor: TwoFactorOptions = { required: true, trustBrowserDays: 30 };
 */
export interface TwoFactorOptions {
	/**
	 * Every user needs a second factor (default false): a user without one who completes a primary
	 * sign-in (password, email link, OAuth/OIDC, a passkey without user verification) gets no
	 * session until they set one up at `{basePath}/second-factor`. Needs an adapter that stores
	 * second factors.
	 */
	required?: boolean;
	/**
	 * Offer "Trust this browser for N days" on the second step (default 0: not offered). A browser
	 * trusted by a user skips that user's second step until it expires, the second factor changes,
	 * or the user's sessions are ended everywhere. At most `jwt.maxAge` (as days).
	 */
	trustBrowserDays?: number;
}

/**
 * Who is an admin, and the limits of what admins do (docs/admin.md).
 *
 * @example
 * const admin: AdminOptions = { admins: 'role', impersonationMaxAge: 900 };
 */
export interface AdminOptions {
	/**
	 * Who is an admin: `"role"` (default) — a user whose stored role is one of `adminRoles`; a list
	 * of user ids; or a function of the user and their stored role. Checked on every admin route
	 * and server call, never cached.
	 */
	admins?: 'role' | readonly string[] | ((params: { user: AdapterUser; role: string | null }) => Awaitable<boolean>);
	/** Roles that make an admin under `admins: "role"` (default `["admin"]`). */
	adminRoles?: readonly string[];
	/** Seconds an impersonation lasts at most (default 3600; at most the admin's own session). */
	impersonationMaxAge?: number;
	/** Users per page of the admin list (default 20, at most 100). */
	pageSize?: number;
}

/**
 * What a role may do: resource → actions (docs/organizations.md, "Roles and permissions").
 *
 * @example
 * const billing: RoleStatements = { invoice: ['read', 'pay'], project: ['read'] };
 */
export type RoleStatements = Readonly<Record<string, readonly string[]>>;

/**
 * Organizations: who may create them, the roles members can have, invitations (docs/organizations.md).
 *
 * @example
 * const organizations: OrganizationOptions = {
 *   roles: { member: { project: ['create'] }, billing: { invoice: ['read', 'pay'] } },
 *   invitationMaxAge: 3 * 24 * 60 * 60
 * };
 */
export interface OrganizationOptions {
	/**
	 * Roles and what each may do. `owner`, `admin` and `member` are built in: an entry under one of
	 * these names adds to its built-in statements; any other name declares a custom role. `owner`
	 * may do everything. Resources and actions are the app's own words besides the built-in
	 * `organization`, `member`, `invitation` and `team`.
	 */
	roles?: Readonly<Record<string, RoleStatements>>;
	/** Who may create an organization: every signed-in user (default `true`), nobody but server scripts (`false`), or a function of the user. */
	allowCreate?: boolean | ((params: { user: AdapterUser }) => Awaitable<boolean>);
	/** Seconds an invitation can be accepted (default 7 days, at most 30 days). */
	invitationMaxAge?: number;
	/** At most this many organizations a user may create (default 20). */
	maxOrganizationsPerUser?: number;
	/** The email provider that sends invitations, by id (default: the only email provider with `sendAccountEmail`). */
	emailProvider?: string;
}

/** Marker that turns off the CSRF check; for integrations whose framework already checks the origin. */
// registered (Symbol.for): a second copy of kitgate (bundled twice) recognises the same marker
export const skipCSRFCheck: unique symbol = Symbol.for('kitgate.skipCSRFCheck');

/** The configuration object shared by every integration. */
export interface AuthConfig {
	/** Providers, or provider factories passed without calling them (`providers: [GitHub]`, as Auth.js allows): they read their options from the environment. */
	providers: (Provider | (() => Provider))[];
	adapter?: Adapter;
	/** Base path of the HTTP routes (default `/auth`). */
	basePath?: string;
	/** At least 32 random characters; an array rotates secrets (first one signs). Defaults to `AUTH_SECRET`. */
	secret?: string | string[];
	/**
	 * The public URL of the app, e.g. `https://example.com` (a path sets `basePath` when that is
	 * not given). Like AUTH_URL, which it replaces when both are set: kitgate then never takes its
	 * URL from Host headers (email links, redirects, the redirect proxy's target).
	 */
	url?: string;
	/** Trust the `Host` and `X-Forwarded-*` headers (default: `AUTH_TRUST_HOST`, or true outside production). */
	trustHost?: boolean;
	session?: Partial<SessionOptions>;
	jwt?: Partial<JWTOptions>;
	callbacks?: Partial<CallbacksOptions>;
	events?: Partial<EventCallbacks>;
	cookies?: Partial<CookiesOptions>;
	useSecureCookies?: boolean;
	pages?: Partial<PagesOptions>;
	theme?: Theme;
	/** Language of the built-in pages (`en` default; `fr` shipped). */
	locale?: string;
	/** Overrides of page texts, keyed by message id (see docs/theming.md). */
	messages?: Record<string, string>;
	debug?: boolean;
	logger?: Partial<LoggerInstance>;
	redirectProxyUrl?: string;
	experimental?: { enableWebAuthn?: boolean };
	skipCSRFCheck?: typeof skipCSRFCheck;
	/** Abuse limits of credentials attempts and email-link requests (on by default); `false` turns them all off. */
	rateLimit?: RateLimitOptions | false;
	/**
	 * The account routes under `basePath` (`/account`: connected accounts, passkeys, sessions, email
	 * change, deletion; docs/account.md). On by default with an adapter; an object here also makes
	 * kitgate check at start-up that the adapter has every method they need. `false` turns them off.
	 *
	 * @example
	 * const config: AuthConfig = { providers: [], adapter, account: { freshSignIn: { maxAge: 300 } } };
	 */
	account?: AccountOptions | false;
	/**
	 * When the second factor is asked for: required for every user, and whether a browser can be
	 * trusted for some days (docs/two-factor.md). Off by default.
	 *
	 * @example
	 * const config: AuthConfig = { providers: [], adapter, twoFactor: { required: true, trustBrowserDays: 30 } };
	 */
	twoFactor?: TwoFactorOptions;
	/**
	 * The admin routes under `basePath` (`/admin`: find users, ban, end sessions, reset a second
	 * factor, impersonate, with an audit trail; docs/admin.md). Off by default; needs an adapter.
	 *
	 * @example
	 * const config: AuthConfig = { providers: [], adapter, admin: { admins: ['user-1'] } };
	 */
	admin?: AdminOptions;
	/**
	 * Organizations under `basePath` (`/organizations`: create, switch the active one, members and
	 * roles, invitations by email, teams; docs/organizations.md). Off by default; needs an adapter.
	 *
	 * @example
	 * const config: AuthConfig = { providers: [], adapter, organizations: { roles: { member: { project: ['create'] } } } };
	 */
	organizations?: OrganizationOptions;
	/**
	 * Keeps the users of the app's previous auth library signed in when it switches to kitgate.
	 * `"authjs"`: a request that carries an Auth.js v5 session cookie (`authjs.session-token`, or
	 * `__Secure-authjs.session-token` over HTTPS; chunked or not) and no kitgate session cookie is
	 * read as a session. Under JWT sessions the cookie is decrypted as Auth.js does, with any secret
	 * of `secret`; under database sessions its token is looked up through the adapter (on Auth.js's
	 * tables, see the adapters' `tables` presets). The `jwt` and `session` callbacks run as for any
	 * session, and the answer carries kitgate's session cookie in its place, the Auth.js cookie
	 * cleared. A tampered, expired or foreign Auth.js cookie is no session, and is cleared. Sign-in
	 * and sign-out clear it too. A kitgate session cookie, when there is one, always wins.
	 *
	 * Off by default. Once `session.maxAge` has passed since the switch, no Auth.js session is left:
	 * remove the option. See docs/decisions.md, "Taking over Auth.js sessions".
	 *
	 * @example
	 * const config: AuthConfig = { providers: [], secret: process.env.AUTH_SECRET, migrateSessionsFrom: 'authjs' };
	 */
	migrateSessionsFrom?: 'authjs';
	/** Injectable clock in milliseconds (tests); default `Date.now`. */
	now?: () => number;
}

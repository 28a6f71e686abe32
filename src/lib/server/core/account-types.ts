// The answers of the account routes (`GET {basePath}/account` and the changes posted under it), as
// public types: what the account components and an app's own pages read. Re-exported from `kitgate`.

/** A provider account connected to the user (OAuth, OIDC, email, credentials). */
export interface ConnectedAccount {
	/** Provider id, e.g. `github`. */
	provider: string;
	/** The provider's name as configured, e.g. `GitHub` (the id when the provider is no longer configured). */
	providerName: string;
	type: string;
	/** The account's id at the provider (what `unlink` names). */
	providerAccountId: string;
	/** True when `POST {basePath}/account/unlink` may remove it: an OAuth/OIDC account that is not the user's last way in. */
	canUnlink: boolean;
}

/** A provider the user could connect (`POST {basePath}/account/link`). */
export interface LinkableProvider {
	id: string;
	name: string;
}

/** One of the user's passkeys: no public key, no counter. */
export interface PasskeyInfo {
	credentialID: string;
	/** The name the user gave it, else null. */
	name: string | null;
	/** The authenticator's make when its AAGUID is known (e.g. "iCloud Keychain"), else null. */
	authenticatorName: string | null;
	/** ISO times, null when the adapter does not keep them. */
	createdAt: string | null;
	lastUsedAt: string | null;
	credentialDeviceType: string;
	credentialBackedUp: boolean;
	transports: string[];
	/** True when `remove-passkey` may remove it now without a new sign-in (not the last passkey). */
	canRemove: boolean;
}

/** One place the user is signed in. */
export interface SessionInfo {
	/**
	 * Opaque id of the session (not its token), for `POST {basePath}/account/end-session`. Under
	 * JWT sessions only the current session is listed, with id `current`.
	 */
	id: string;
	/** True for the session of this request ("this device"). */
	current: boolean;
	/** When its user signed in (ISO), null when unknown. */
	createdAt: string | null;
	/** When it was last used (ISO), to within `session.updateAge`; null when unknown. */
	lastSeenAt: string | null;
	/** When it expires unless used again (ISO). */
	expires: string;
	/** From the User-Agent of the browser that signed in; null when unknown. */
	browser: string | null;
	os: string | null;
}

/**
 * What `GET {basePath}/account` answers for a signed-in user (401 `{ error: "SessionRequired" }` otherwise).
 *
 * @example
 * const overview = (await (await fetch('/auth/account')).json()) as AccountOverview;
 * overview.sessions.find((s) => s.current);
 */
export interface AccountOverview {
	user: { id: string; name: string | null; email: string | null; emailVerified: string | null; image: string | null };
	/** `jwt`: sessions cannot be listed one by one; `end-other-sessions` revokes every other one. */
	sessionStrategy: 'jwt' | 'database';
	/** When this session's user signed in (ISO), null when unknown. */
	signedInAt: string | null;
	/** Until when sensitive changes need no new sign-in (ISO); null when they need one now. */
	freshUntil: string | null;
	accounts: ConnectedAccount[];
	/** OAuth/OIDC providers the user may connect. */
	linkable: LinkableProvider[];
	/** Empty when no passkey provider is configured. */
	passkeys: PasskeyInfo[];
	sessions: SessionInfo[];
	/** Whether `change-email` and `delete` are available. */
	canChangeEmail: boolean;
	canDeleteAccount: boolean;
	/** The CSRF token every change posts as `csrfToken`. */
	csrfToken: string;
	/** Where kitgate's routes are (the configured `basePath`, e.g. `/auth`): each change posts to `{basePath}/account/<change>`. */
	basePath: string;
	/** The id of the passkey provider new passkeys are registered with; null when none is configured. */
	passkeyProvider: string | null;
	/** The user's second factor: null when the adapter cannot store second factors. */
	twoFactor: TwoFactorStatus | null;
}

/** Whether the user has a second factor, and how many recovery codes are left. */
export interface TwoFactorStatus {
	enabled: boolean;
	/** When it was set up (ISO), null when unknown or not enabled. */
	enabledAt: string | null;
	/** Unused recovery codes; 0 when not enabled. */
	recoveryCodesLeft: number;
}

/**
 * The result codes a successful change answers: as `?account=<code>` on the page a form came from,
 * or `{ result: <code>, url }` to a script.
 */
export type AccountResult =
	| 'unlinked'
	| 'linked'
	| 'passkey-renamed'
	| 'passkey-removed'
	| 'session-ended'
	| 'other-sessions-ended'
	| 'email-change-requested'
	| 'email-changed'
	| 'account-deleted'
	| 'two-factor-removed';

// The failure table: for every error code kitgate reports, the HTTP status, where a browser is
// sent, the message shown, whether the user may retry and how loudly it is logged. The single
// source: error classes, message catalogues, the engine's answers and `docs/errors.md` derive from
// it. Neutral data with no imports; re-exported from `kitgate`.

/** Where a browser that met the failure is sent: the sign-in page (`?error=`), the error page, or nowhere (logged only). */
export type FailurePage = 'signIn' | 'error' | 'none';

/** How a failure is logged: `error` for the operator's attention, `warn` for a refused request, `debug` for noise. */
export type FailureLogLevel = 'error' | 'warn' | 'debug';

/** One row of the failure table. */
export interface FailureRule {
	/** HTTP status of a JSON answer (script callers, passkey routes) and of the error page. */
	readonly status: number;
	/** Where a browser is redirected. */
	readonly page: FailurePage;
	/**
	 * The texts shown: on the sign-in page `signin.error.<message>`, on the error page
	 * `error.<message>.title` and `error.<message>.body`. Several codes may share one text.
	 */
	readonly message: string;
	/** True when trying again can help: the error page then links to the sign-in page. */
	readonly retry: boolean;
	/** Log level of the failure (its cause is logged with it). */
	readonly log: FailureLogLevel;
	/** True for configuration problems that stop the app at start-up. */
	readonly startup: boolean;
	/** The error's message when none is given. */
	readonly defaultMessage: string;
	/** What happened, for `docs/errors.md`. */
	readonly meaning: string;
}

/**
 * Every error code and how kitgate answers it.
 *
 * @example failures.MissingCSRF.status // 403
 */
export const failures = {
	AccessDenied: {
		status: 403, page: 'error', message: 'AccessDenied', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Access denied',
		meaning: 'The `signIn` callback refused the sign-in or threw, or the account may not do this.'
	},
	AdminRequired: {
		status: 403, page: 'error', message: 'AdminRequired', retry: false, log: 'warn', startup: false,
		defaultMessage: 'Admin required',
		meaning: 'An admin route or `adminApi` call came from someone who is not an admin now (no session, a signed-in non-admin, an impersonated session): the same answer whatever the request named.'
	},
	AdminTargetForbidden: {
		status: 403, page: 'error', message: 'AdminTargetForbidden', retry: false, log: 'warn', startup: false,
		defaultMessage: 'Admins cannot act on admins',
		meaning: 'An admin tried to change an admin, themselves included (ban, role, sessions, second factor, passkey, deletion, impersonation): such changes are made with `adminApi(config, { system: true })` or in the config.'
	},
	AdapterError: {
		status: 503, page: 'error', message: 'Configuration', retry: false, log: 'error', startup: false,
		defaultMessage: 'Adapter error',
		meaning: 'A database adapter method failed; the cause is logged.'
	},
	CallbackRouteError: {
		status: 400, page: 'signIn', message: 'CallbackRouteError', retry: true, log: 'error', startup: false,
		defaultMessage: 'Callback failed',
		meaning: 'Something failed while finishing a sign-in (a callback or an adapter call); the cause is logged.'
	},
	Configuration: {
		status: 503, page: 'error', message: 'Configuration', retry: false, log: 'error', startup: true,
		defaultMessage: 'Invalid configuration',
		meaning: 'The configuration cannot work, or an unexpected error happened; the log says what to change.'
	},
	CredentialsSignin: {
		status: 401, page: 'signIn', message: 'CredentialsSignin', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Invalid credentials',
		meaning: '`authorize()` of a credentials provider refused the sign-in (the redirect also carries its `code`).'
	},
	DuplicateProviderId: {
		status: 503, page: 'error', message: 'Configuration', retry: false, log: 'error', startup: true,
		defaultMessage: 'Duplicate provider id',
		meaning: 'Two providers share an id.'
	},
	EmailSignin: {
		status: 400, page: 'signIn', message: 'EmailSignin', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Email sign-in failed',
		meaning: 'The address was not one valid email address, or sending the sign-in email failed.'
	},
	EventError: {
		status: 500, page: 'none', message: 'Default', retry: false, log: 'error', startup: false,
		defaultMessage: 'Event handler failed',
		meaning: 'An `events` handler threw; it is logged and the flow goes on.'
	},
	ExperimentalFeatureNotEnabled: {
		status: 503, page: 'error', message: 'Configuration', retry: false, log: 'error', startup: true,
		defaultMessage: 'Experimental feature not enabled',
		meaning: 'A feature behind `experimental` (passkeys) is used without being enabled.'
	},
	FreshSignInRequired: {
		status: 403, page: 'signIn', message: 'FreshSignInRequired', retry: true, log: 'debug', startup: false,
		defaultMessage: 'Sign in again to continue',
		meaning: 'A sensitive account change (unlinking or linking an account, removing the last passkey, changing the email address, deleting the account) needs a sign-in more recent than `account.freshSignIn.maxAge`: the user signs in again and comes back.'
	},
	ImpersonationForbidden: {
		status: 403, page: 'error', message: 'ImpersonationForbidden', retry: false, log: 'warn', startup: false,
		defaultMessage: 'Not allowed while impersonating',
		meaning: 'An impersonated session tried to change credentials or the account (password, email, passkeys, second factor, links, deletion) or to reach an admin route other than `stop-impersonating`.'
	},
	InvalidCallbackUrl: {
		status: 400, page: 'error', message: 'InvalidCallbackUrl', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Invalid callback URL',
		meaning: 'The address to return to is not allowed (another origin, or refused by the `redirect` callback).'
	},
	InvalidCheck: {
		status: 400, page: 'signIn', message: 'InvalidCheck', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Invalid check',
		meaning: 'An OAuth check (state, PKCE, nonce) failed: the callback does not belong to this browser, or came twice.'
	},
	InvalidProvider: {
		status: 404, page: 'error', message: 'InvalidProvider', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Invalid provider',
		meaning: 'The provider id is unknown, or the provider cannot do what was asked.'
	},
	InvalidRequest: {
		status: 400, page: 'error', message: 'InvalidRequest', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Invalid request',
		meaning: 'The request is malformed: a body too large or unreadable, a field missing or repeated.'
	},
	InvalidSecondFactor: {
		status: 401, page: 'signIn', message: 'InvalidSecondFactor', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Invalid second factor',
		meaning: 'The authenticator code or recovery code is wrong, malformed, or was already used (a code is accepted once). Counted by `rateLimit.secondFactor`.'
	},
	InvitationExpired: {
		status: 410, page: 'error', message: 'InvitationExpired', retry: false, log: 'debug', startup: false,
		defaultMessage: 'Invitation expired',
		meaning: 'The invitation is older than `organizations.invitationMaxAge`: ask for a new one.'
	},
	InvitationInvalid: {
		status: 404, page: 'error', message: 'InvitationInvalid', retry: false, log: 'warn', startup: false,
		defaultMessage: 'Invitation invalid',
		meaning: 'The invitation link is unknown, malformed or forged: no invitation has this token.'
	},
	InvitationRevoked: {
		status: 410, page: 'error', message: 'InvitationRevoked', retry: false, log: 'debug', startup: false,
		defaultMessage: 'Invitation revoked',
		meaning: 'The organization withdrew the invitation.'
	},
	InvitationUsed: {
		status: 410, page: 'error', message: 'InvitationUsed', retry: false, log: 'debug', startup: false,
		defaultMessage: 'Invitation used',
		meaning: 'The invitation was already accepted (each one is accepted once).'
	},
	InvitationWrongAddress: {
		status: 403, page: 'error', message: 'InvitationWrongAddress', retry: false, log: 'warn', startup: false,
		defaultMessage: 'Invitation for another address',
		meaning: 'The signed-in user\'s address is not the one the invitation was sent to: sign in with that address to accept it.'
	},
	JWTSessionError: {
		status: 400, page: 'signIn', message: 'JWTSessionError', retry: true, log: 'error', startup: false,
		defaultMessage: 'Invalid session token',
		meaning: 'The session token could not be encoded (a custom `jwt.encode` threw).'
	},
	LastSignInMethod: {
		status: 409, page: 'error', message: 'LastSignInMethod', retry: false, log: 'warn', startup: false,
		defaultMessage: 'Last way to sign in',
		meaning: 'Removing this connected account or passkey would leave the user no way to sign in; add another first.'
	},
	MethodNotAllowed: {
		status: 405, page: 'error', message: 'UnknownAction', retry: false, log: 'debug', startup: false,
		defaultMessage: 'Method not allowed',
		meaning: 'The route exists but not for this HTTP method (the answer\'s `Allow` header lists the methods it takes).'
	},
	MissingAdapter: {
		status: 503, page: 'error', message: 'Configuration', retry: false, log: 'error', startup: true,
		defaultMessage: 'Missing adapter',
		meaning: 'A provider or setting needs a database adapter and none is configured.'
	},
	MissingAdapterMethod: {
		status: 503, page: 'error', message: 'MissingAdapterMethod', retry: false, log: 'error', startup: false,
		defaultMessage: 'Missing adapter method',
		meaning: 'The adapter lacks a method this flow needs.'
	},
	MissingCSRF: {
		status: 403, page: 'signIn', message: 'MissingCSRF', retry: true, log: 'warn', startup: false,
		defaultMessage: 'CSRF token missing or invalid',
		meaning: 'A state-changing POST came without the CSRF token of its cookie (an old form, or a forged request).'
	},
	MissingSecret: {
		status: 503, page: 'error', message: 'Configuration', retry: false, log: 'error', startup: true,
		defaultMessage: 'Missing secret',
		meaning: 'No secret, or one shorter than 32 characters (`secret` / `AUTH_SECRET`).'
	},
	OAuthAccountNotLinked: {
		status: 400, page: 'signIn', message: 'OAuthAccountNotLinked', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Account not linked',
		meaning: 'The email belongs to a user who signs in another way, and this sign-in may not link to it.'
	},
	OAuthCallbackError: {
		status: 400, page: 'signIn', message: 'OAuthCallbackError', retry: true, log: 'error', startup: false,
		defaultMessage: 'OAuth callback failed',
		meaning: 'The identity provider answered with an error or an invalid response.'
	},
	OAuthSignin: {
		status: 400, page: 'signIn', message: 'OAuthSignin', retry: true, log: 'error', startup: false,
		defaultMessage: 'OAuth sign-in failed',
		meaning: 'Starting an OAuth sign-in failed (discovery, request token, or the authorization URL).'
	},
	OrganizationAlreadyMember: {
		status: 409, page: 'error', message: 'OrganizationAlreadyMember', retry: false, log: 'debug', startup: false,
		defaultMessage: 'Already a member',
		meaning: 'The invited address already belongs to a member, or the user accepting an invitation is already a member.'
	},
	OrganizationForbidden: {
		status: 403, page: 'error', message: 'OrganizationForbidden', retry: false, log: 'warn', startup: false,
		defaultMessage: 'Not allowed in this organization',
		meaning: 'The caller is a member but their role does not allow this (a permission the role lacks, a role above their own, a member ranked above them), or may not create organizations.'
	},
	OrganizationLastOwner: {
		status: 409, page: 'error', message: 'OrganizationLastOwner', retry: false, log: 'debug', startup: false,
		defaultMessage: 'Last owner',
		meaning: 'The change would leave the organization without an owner: the last owner can neither leave, be removed nor be demoted. Make another member owner first, or delete the organization.'
	},
	OrganizationMemberNotFound: {
		status: 404, page: 'error', message: 'OrganizationMemberNotFound', retry: false, log: 'debug', startup: false,
		defaultMessage: 'Member not found',
		meaning: 'The member or team named is not in this organization.'
	},
	OrganizationNotFound: {
		status: 404, page: 'error', message: 'OrganizationNotFound', retry: false, log: 'debug', startup: false,
		defaultMessage: 'Organization not found',
		meaning: 'No organization has this id, or the caller is not one of its members: the same answer either way, so ids cannot be probed.'
	},
	OrganizationSlugTaken: {
		status: 409, page: 'error', message: 'OrganizationSlugTaken', retry: false, log: 'debug', startup: false,
		defaultMessage: 'Organization slug taken',
		meaning: 'Another organization already has this slug (slugs are unique).'
	},
	PayloadTooLarge: {
		status: 413, page: 'error', message: 'InvalidRequest', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Request body too large',
		meaning: 'The request body is larger than kitgate reads (64 KB); sign-in forms and passkey responses are far smaller.'
	},
	RateLimited: {
		status: 429, page: 'signIn', message: 'RateLimited', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Too many attempts',
		meaning: 'Too many attempts for this identifier or client address; the answer says when to retry.'
	},
	SecondFactorExpired: {
		status: 401, page: 'signIn', message: 'SecondFactorExpired', retry: true, log: 'debug', startup: false,
		defaultMessage: 'Second sign-in step expired',
		meaning: 'The second sign-in step has no pending sign-in: its cookie is missing, expired (5 minutes), tampered with, or the user no longer has a second factor. The user signs in again.'
	},
	SessionRequired: {
		status: 401, page: 'signIn', message: 'SessionRequired', retry: true, log: 'debug', startup: false,
		defaultMessage: 'Not signed in',
		meaning: 'The request needs a signed-in user and has no session: passkey management, `requireSession()` and `protect()` in SvelteKit (the 401 body\'s `code`).'
	},
	TwoFactorAlreadyEnabled: {
		status: 409, page: 'error', message: 'TwoFactorAlreadyEnabled', retry: false, log: 'warn', startup: false,
		defaultMessage: 'Two-factor authentication is already on',
		meaning: 'An enrolment was started or confirmed for a user who already has a second factor: remove it first.'
	},
	TwoFactorNotEnabled: {
		status: 409, page: 'error', message: 'TwoFactorNotEnabled', retry: false, log: 'warn', startup: false,
		defaultMessage: 'Two-factor authentication is off',
		meaning: 'Recovery codes were asked for, or the second factor removed, for a user who has none.'
	},
	UnknownAction: {
		status: 404, page: 'error', message: 'UnknownAction', retry: false, log: 'debug', startup: false,
		defaultMessage: 'Unknown action',
		meaning: 'No kitgate route at this path.'
	},
	UnsupportedStrategy: {
		status: 503, page: 'error', message: 'Configuration', retry: false, log: 'error', startup: true,
		defaultMessage: 'Unsupported strategy',
		meaning: 'The session strategy cannot work with this configuration (for example database sessions without an adapter).'
	},
	UntrustedHost: {
		status: 400, page: 'error', message: 'UntrustedHost', retry: false, log: 'error', startup: false,
		defaultMessage: 'Untrusted host',
		meaning: 'The request names a host that is not trusted (`url` / `AUTH_URL`, `trustHost` / `AUTH_TRUST_HOST`).'
	},
	UserBanned: {
		status: 403, page: 'signIn', message: 'UserBanned', retry: false, log: 'warn', startup: false,
		defaultMessage: 'User banned',
		meaning: 'The user is banned (until the ban ends, if it has an end): every sign-in method refuses them, and their sessions ended when they were banned.'
	},
	UserExists: {
		status: 409, page: 'error', message: 'UserExists', retry: false, log: 'warn', startup: false,
		defaultMessage: 'User exists',
		meaning: 'An admin tried to create a user with an email address another user already has.'
	},
	UserNotFound: {
		status: 404, page: 'error', message: 'UserNotFound', retry: false, log: 'debug', startup: false,
		defaultMessage: 'User not found',
		meaning: 'An admin named a user id that no stored user has (only admins ever get this answer).'
	},
	Verification: {
		status: 403, page: 'error', message: 'Verification', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Verification failed',
		meaning: 'The email link is invalid, expired, used, or for another address.'
	},
	WebAuthnVerificationError: {
		status: 400, page: 'signIn', message: 'WebAuthnVerificationError', retry: true, log: 'warn', startup: false,
		defaultMessage: 'Passkey verification failed',
		meaning: 'A passkey response did not verify: challenge, origin, RP ID, signature, counter or credential.'
	}
} as const satisfies Record<string, FailureRule>;

type Failures = typeof failures;

/** Every stable error code kitgate reports. */
export type ErrorType = keyof Failures;

type TextsOf<Rule> = Rule extends { page: 'signIn'; message: infer Key extends string }
	? `signin.error.${Key}`
	: Rule extends { page: 'error'; message: infer Key extends string }
		? `error.${Key}.title` | `error.${Key}.body`
		: never;

/** The message ids the failure table shows: every catalogue must have each of them. */
export type FailureMessageId =
	| { [Type in ErrorType]: TextsOf<Failures[Type]> }[ErrorType]
	| 'signin.error.Default'
	| 'error.Default.title'
	| 'error.Default.body';

/**
 * True for a known error code (used to validate `?error=`).
 *
 * @example isErrorType('Verification') // true
 */
export function isErrorType(value: unknown): value is ErrorType {
	return typeof value === 'string' && Object.hasOwn(failures, value);
}

/**
 * The row of `type`.
 *
 * @example failureOf('RateLimited').status // 429
 */
export function failureOf(type: ErrorType): FailureRule {
	return failures[type];
}

/**
 * HTTP status of the error page showing `type` (`Default` for anything unknown). Never 5xx: the
 * page shows a failure that already happened, and `?error=` is user input.
 *
 * @example errorPageStatus('Verification') // 403
 */
export function errorPageStatus(type: string): number {
	if (!isErrorType(type)) return 200;
	const { status } = failures[type];
	return status >= 500 ? 400 : status;
}

/**
 * Title and body ids of the error page for `type`; unknown codes, and codes the error page has no
 * text of its own for, show `error.Default.*`.
 *
 * @example errorPageMessageIds('AdapterError') // { title: 'error.Configuration.title', body: 'error.Configuration.body' }
 */
export function errorPageMessageIds(type: string): { title: string; body: string } {
	const key = isErrorType(type) && failures[type].page === 'error' ? failures[type].message : 'Default';
	return { title: `error.${key}.title`, body: `error.${key}.body` };
}

/**
 * The sign-in page's alert for `type`: its own text for codes that send users there, else the
 * `signin.error.<type>` text if a table has one, else `signin.error.Default`.
 *
 * @example signInMessageId('CredentialsSignin', {}) // 'signin.error.CredentialsSignin'
 */
export function signInMessageId(type: string, table: Record<string, string>): string {
	if (isErrorType(type) && failures[type].page === 'signIn') return `signin.error.${failures[type].message}`;
	const own = `signin.error.${type}`;
	return isErrorType(type) && Object.hasOwn(table, own) ? own : 'signin.error.Default';
}

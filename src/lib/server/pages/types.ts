// Props of the built-in pages, and the display types they share with the config (Theme,
// ProviderStyle, CredentialInput: public through `kitgate`). The engine builds the props; the pages
// only display them and import nothing of the engine. The account page shows the account
// components (components/account/), whose props carry the overview's type; the admin pages the
// admin components (components/admin/), whose props carry the admin views' types.

import type { AccountSectionProps } from '../../components/account/types.js';
import type { TwoFactorEnrolmentView } from '../../components/two-factor/types.js';
import type { AdminUserDetailProps, AdminUsersProps } from '../../components/admin/types.js';
import type { OrganizationInvitationProps, OrganizationSettingsProps, OrganizationSwitcherProps } from '../../components/organization/types.js';

export type { CredentialInput, KitgateData, PageProviderKind, ProviderStyle, SignInProvider, Theme } from '../core/display-types.js';
import type { CredentialInput, PageProviderKind, ProviderStyle, Theme } from '../core/display-types.js';

/** A provider as the sign-in page shows it. */
export interface PageProvider {
	id: string;
	name: string;
	type: PageProviderKind;
	style?: ProviderStyle;
	/** Credentials providers: the form fields. */
	credentials?: Record<string, CredentialInput>;
	/** Where the provider's form posts (`{basePath}/signin/{id}` or `{basePath}/callback/{id}`). */
	action: string;
	/** Passkey providers: `{basePath}/webauthn-options/{id}`, read by the page's passkey script. */
	optionsUrl?: string;
}

/** Everything a page needs besides its own props. */
export interface PageCommon {
	theme: Theme;
	/** Texts keyed by message id (see `messages.ts`), already in the chosen language. */
	messages: Record<string, string>;
	/** `lang` attribute of the document. */
	lang: string;
	/** Set when the session is an impersonation: the banner's names and its stop form. */
	impersonation?: { user: string; admin: string; action: string; csrfToken: string };
}

export interface SignInPageProps extends PageCommon {
	providers: PageProvider[];
	csrfToken: string;
	callbackUrl: string;
	/** Error type from `?error=`, already validated. */
	error?: string;
	/** Email typed before, to prefill the email form. */
	email?: string;
}

export interface SignOutPageProps extends PageCommon {
	csrfToken: string;
	callbackUrl: string;
	/** URL the sign-out form posts to. */
	action: string;
}

export interface ErrorPageProps extends PageCommon {
	/** Validated error type, or `Default`. */
	error: string;
	/** Where "try again" leads; empty when there is nowhere to retry (no link is shown). */
	signInUrl: string;
	homeUrl: string;
	/** What to change, shown in development for a configuration error (never a secret). */
	detail?: string;
}

export interface VerifyRequestPageProps extends PageCommon {
	homeUrl: string;
	/** How long the link lives, already spelled out ("24 hours"); omitted when unknown. */
	linkLifetime?: string;
}

/** The confirmation page a sign-in link opens (its button spends the token). */
export interface VerifyEmailPageProps extends PageCommon {
	/** Where the confirmation form posts: `{basePath}/callback/{provider id}`. */
	action: string;
	csrfToken: string;
	/** The one-time token and the address from the link, posted back unchanged. */
	token: string;
	email: string;
	callbackUrl: string;
	/** The site's host name, shown so the user knows where they sign in. */
	host: string;
	/** An email change: offer to keep the other sessions (a box posting `keepOtherSessions=yes`; they end otherwise). */
	offerKeepOtherSessions?: boolean;
}

/** Colours of the sign-in email; each one already checked by `sanitizeColor`. */
export interface EmailColors {
	background: string;
	card: string;
	divider: string;
	text: string;
	muted: string;
	link: string;
	brand: string;
	brandText: string;
}

/** Props of the HTML part of the sign-in email: texts already in the chosen language. */
export interface EmailMessageProps {
	title: string;
	intro: string;
	button: string;
	linkLabel: string;
	expires: string;
	ignore: string;
	/** The sign-in link. */
	url: string;
	colors: EmailColors;
	/** Absolute http(s) URL of the theme's logo, if any. */
	logo?: string;
}

/** The account page (`GET {basePath}/account` in a browser): `AccountSettings` in the page shell. */
export interface AccountPageProps extends PageCommon {
	/** The signed-in user's overview; null once the account is deleted (the page then shows only the notice). */
	overview: AccountSectionProps['overview'] | null;
	/** `?account=` and `?accountError=` of the request: the last change's result or refusal. */
	result?: string;
	error?: string;
	/** This page's URL, where every form comes back to. */
	callbackUrl: string;
	homeUrl: string;
	signOutUrl: string;
	/** A second factor's enrolment in progress: the page shows its QR code and confirm form (never in a URL). */
	twoFactorEnrolment?: TwoFactorEnrolmentView;
	/** Recovery codes just made: the page shows them this once. */
	recoveryCodes?: string[];
}

/** The second sign-in step (`GET {basePath}/second-factor`). */
export interface SecondFactorPageProps extends PageCommon {
	/** Where the form posts: `{basePath}/second-factor`. */
	action: string;
	csrfToken: string;
	/** The sign-in page, to start again another way. */
	signInUrl: string;
	/** `InvalidSecondFactor` or `RateLimited` after a refused code. */
	error?: string;
	/** Days "Trust this browser" lasts; the box is shown only above 0. */
	trustDays?: number;
	/** `twoFactor.required`, for a user without a second factor: the key to set up (QR code, text) and its sealed value. */
	enrolment?: { secret: string; qrCodeSvg: string; pending: string };
	/** The forced enrolment done: the recovery codes to show once, then on to `continueUrl` (the session is started). */
	recoveryCodes?: string[];
	/** Where the sign-in was going, after the recovery codes. */
	continueUrl?: string;
	/** The pending user may use a passkey instead of a code: `{basePath}/second-factor/passkey` ("Use a passkey"). */
	passkey?: { url: string };
}

/** The page after a sign-in with a recovery code (the session is started). */
export interface RecoveryCodeUsedPageProps extends PageCommon {
	/** Unused recovery codes left. */
	remaining: number;
	/** Where the sign-in was going. */
	continueUrl: string;
	/** The account page, where new codes are made; empty when the account routes are off. */
	accountUrl: string;
}

/** The admin list page (`GET {basePath}/admin` in a browser): `AdminUsers` in the page shell. */
export interface AdminUsersPageProps extends PageCommon {
	list: AdminUsersProps['list'];
	/** `?admin=` and `?adminError=` of the request: the last change's result or refusal. */
	result?: string;
	error?: string;
	/** This page's URL: the search, the page links and "Create a user" come back to it. */
	callbackUrl: string;
	homeUrl: string;
}

/** The admin detail page (`GET {basePath}/admin/user?id=…` in a browser): `AdminUserDetail` in the page shell. */
export interface AdminUserPageProps extends PageCommon {
	detail: AdminUserDetailProps['detail'];
	result?: string;
	error?: string;
	/** This page's URL (with the user's id), where every change comes back to. */
	callbackUrl: string;
	/** The list page: the link back, and where a deletion goes. */
	listUrl: string;
	/** The app's home: where impersonating goes. */
	homeUrl: string;
}

/** The organizations page (`GET {basePath}/organizations` in a browser): the switcher, the invitations waiting, and create. */
export interface OrganizationsPageProps extends PageCommon {
	list: OrganizationSwitcherProps['list'];
	/** `?organization=` and `?organizationError=` of the request: the last change's result or refusal. */
	result?: string;
	error?: string;
	/** Where kitgate's routes are (`{authUrl}`): the forms post there. */
	basePath: string;
	/** This page's URL: switching comes back to it. */
	callbackUrl: string;
	homeUrl: string;
}

/** The settings page of one organization (`GET {basePath}/organizations/settings?id=…`): `OrganizationSettings` in the page shell. */
export interface OrganizationSettingsPageProps extends PageCommon {
	detail: OrganizationSettingsProps['detail'];
	result?: string;
	error?: string;
	basePath: string;
	/** This page's URL (with the organization's id), where every change comes back to. */
	callbackUrl: string;
	/** The organizations page: the link back, and where leaving and deleting go. */
	listUrl: string;
	homeUrl: string;
}

/** The invitation page (`GET {basePath}/organizations/invitation?token=…`): `OrganizationInvitation` in the page shell. */
export interface OrganizationInvitationPageProps extends PageCommon {
	invitation: OrganizationInvitationProps['invitation'];
	/** The token of the link, posted back by the Join form. */
	token: string;
	result?: string;
	error?: string;
	basePath: string;
	/** The sign-in page with a `callbackUrl` back to this page. */
	signInUrl: string;
	/** The sign-out page with a `callbackUrl` back to this page. */
	signOutUrl: string;
	homeUrl: string;
}

export type PageKind =
	| 'signin'
	| 'signout'
	| 'error'
	| 'verify-request'
	| 'verify-email'
	| 'account'
	| 'second-factor'
	| 'recovery-code-used'
	| 'admin-users'
	| 'admin-user'
	| 'organizations'
	| 'organization-settings'
	| 'organization-invitation';

export interface PagePropsByKind {
	signin: SignInPageProps;
	signout: SignOutPageProps;
	error: ErrorPageProps;
	'verify-request': VerifyRequestPageProps;
	'verify-email': VerifyEmailPageProps;
	account: AccountPageProps;
	'second-factor': SecondFactorPageProps;
	'recovery-code-used': RecoveryCodeUsedPageProps;
	'admin-users': AdminUsersPageProps;
	'admin-user': AdminUserPageProps;
	organizations: OrganizationsPageProps;
	'organization-settings': OrganizationSettingsPageProps;
	'organization-invitation': OrganizationInvitationPageProps;
}

/** The Svelte context key under which render.ts hands Page.svelte the impersonation banner. */
export const IMPERSONATION_BANNER = 'kitgate.impersonation-banner';

/** What the impersonation banner shows: its line, the stop button's label, and where it posts. */
export interface ImpersonationBanner {
	line: string;
	stop: string;
	action: string;
	csrfToken: string;
}

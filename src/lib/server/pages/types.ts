// Props of the built-in pages. The engine builds these; the Svelte pages only display them.
// Internal to kitgate (the page components are rendered by `renderPage`).

import type { CredentialInput, ProviderStyle, ProviderType, Theme } from '../core/types.js';

/** A provider as the sign-in page shows it. */
export interface PageProvider {
	id: string;
	name: string;
	type: ProviderType;
	style?: ProviderStyle;
	/** Credentials providers: the form fields. */
	credentials?: Record<string, CredentialInput>;
	/** Where the provider's form posts (`{basePath}/signin/{id}` or `{basePath}/callback/{id}`). */
	action: string;
}

/** Everything a page needs besides its own props. */
export interface PageCommon {
	theme: Theme;
	/** Texts keyed by message id (see `messages.ts`), already in the chosen language. */
	messages: Record<string, string>;
	/** `lang` attribute of the document. */
	lang: string;
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
	signInUrl: string;
	homeUrl: string;
}

export interface VerifyRequestPageProps extends PageCommon {
	homeUrl: string;
}

export type PageKind = 'signin' | 'signout' | 'error' | 'verify-request';

export interface PagePropsByKind {
	signin: SignInPageProps;
	signout: SignOutPageProps;
	error: ErrorPageProps;
	'verify-request': VerifyRequestPageProps;
}

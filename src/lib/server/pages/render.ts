// Renders the built-in pages (compiled Svelte components) to complete HTML documents.
// Internal to kitgate: the engine's only entry into the pages; the integrations never import it.

import { render } from 'svelte/server';
import type { Component } from 'svelte';
import AccountPage from './compiled/Account.js';
import AdminUserPage from './compiled/AdminUser.js';
import AdminUsersPage from './compiled/AdminUsers.js';
import ErrorPage from './compiled/Error.js';
import OrganizationInvitationPage from './compiled/OrganizationInvitationPage.js';
import OrganizationSettingsPage from './compiled/OrganizationSettingsPage.js';
import OrganizationsPage from './compiled/Organizations.js';
import RecoveryCodeUsed from './compiled/RecoveryCodeUsed.js';
import SecondFactor from './compiled/SecondFactor.js';
import SignIn from './compiled/SignIn.js';
import SignOut from './compiled/SignOut.js';
import VerifyEmail from './compiled/VerifyEmail.js';
import VerifyRequest from './compiled/VerifyRequest.js';
import { errorMessageIds, messages as builtInMessages, text } from './messages.js';
import { themeStyles } from './theme.js';
import { PASSKEY_REGISTER_SCRIPT, PASSKEY_REGISTER_SCRIPT_SOURCE, PASSKEY_SCRIPT, PASSKEY_SCRIPT_SOURCE } from './passkey-script.js';
import { SECOND_FACTOR_PASSKEY_SCRIPT, SECOND_FACTOR_PASSKEY_SCRIPT_SOURCE } from './second-factor-passkey-script.js';
import { IMPERSONATION_BANNER, type PageKind, type PagePropsByKind } from './types.js';

// each compiled page takes its own props type; renderPage's signature keeps them matched
const components: Record<PageKind, Component<Record<string, unknown>>> = {
	signin: SignIn,
	signout: SignOut,
	error: ErrorPage,
	'verify-request': VerifyRequest,
	'verify-email': VerifyEmail,
	account: AccountPage,
	'second-factor': SecondFactor,
	'recovery-code-used': RecoveryCodeUsed,
	'admin-users': AdminUsersPage,
	'admin-user': AdminUserPage,
	organizations: OrganizationsPage,
	'organization-settings': OrganizationSettingsPage,
	'organization-invitation': OrganizationInvitationPage
};

/**
 * Renders a built-in page to a complete HTML document (`<!doctype html>` … `</html>`), with the
 * page CSS inlined. All values in `props` are escaped; none is trusted.
 *
 * @example
 * renderPage('signout', { theme: {}, messages: resolveMessages('en'), lang: 'en',
 *   csrfToken, callbackUrl: '/', action: '/auth/signout' })
 */
export function renderPage<K extends PageKind>(kind: K, props: PagePropsByKind[K]): string {
	// English fills any key the engine's table lacks, so a page never shows a bare message id
	const full = { ...props, theme: props.theme ?? {}, messages: { ...builtInMessages.en, ...props.messages } };
	const component: Component<Record<string, unknown>> = components[kind as PageKind];
	const { head, body } = render(component, { props: full as unknown as Record<string, unknown>, context: impersonationContext(full) });
	const script = pageScript(kind, full);
	return (
		'<!doctype html>' +
		`<html lang="${escapeHtml(languageTag(full.lang))}">` +
		'<head>' +
		'<meta charset="utf-8">' +
		'<meta name="viewport" content="width=device-width, initial-scale=1">' +
		'<meta name="robots" content="noindex">' +
		'<meta name="referrer" content="same-origin">' +
		`<title>${escapeHtml(pageTitle(kind, full))}</title>` +
		`<style>${themeStyles(full.theme)}</style>` +
		head +
		'</head>' +
		`<body>${body}${script ? `<script type="module">${script}</script>` : ''}</body>` +
		'</html>'
	);
}

/** The banner Page.svelte shows on every page of an impersonated session, its texts ready. */
function impersonationContext(props: PagePropsByKind[PageKind]): Map<string, unknown> | undefined {
	const shown = props.impersonation;
	if (!shown) return undefined;
	const banner = {
		line: text(props.messages, 'impersonation.banner', { user: shown.user, admin: shown.admin }),
		stop: text(props.messages, 'impersonation.stop'),
		action: shown.action,
		csrfToken: shown.csrfToken
	};
	return new Map([[IMPERSONATION_BANNER, banner]]);
}

/**
 * Renders a built-in page as an HTML `Response` that is never cached and cannot be framed.
 *
 * @example return renderPageResponse('error', props, 403);
 */
export function renderPageResponse<K extends PageKind>(kind: K, props: PagePropsByKind[K], status = 200): Response {
	return new Response(renderPage(kind, props), {
		status,
		headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...pageSecurityHeaders(kind, props) }
	});
}

/**
 * Headers every built-in page is served with: no script but the passkey button's own (allowed by
 * its hash, on sign-in pages that show one), and no framing (clickjacking of the sign-in buttons).
 *
 * @example
 * new Headers(pageSecurityHeaders('signin', props)).get('content-security-policy') // "script-src 'none'; …"
 */
export function pageSecurityHeaders<K extends PageKind>(kind: K, props: PagePropsByKind[K]): Record<string, string> {
	const script = pageScript(kind, props);
	const sources = new Map([
		[PASSKEY_SCRIPT, PASSKEY_SCRIPT_SOURCE],
		[PASSKEY_REGISTER_SCRIPT, PASSKEY_REGISTER_SCRIPT_SOURCE],
		[SECOND_FACTOR_PASSKEY_SCRIPT, SECOND_FACTOR_PASSKEY_SCRIPT_SOURCE]
	]);
	const scripts = (script && sources.get(script)) ?? "'none'";
	return {
		'content-security-policy': `script-src ${scripts}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
		'x-frame-options': 'DENY'
	};
}

/**
 * The one script a page runs, if any: the passkey button of a sign-in page that lists a passkey
 * provider, the "Add a passkey" button of an account page with a passkey provider, or the "Use a
 * passkey" button of a second step that offers it.
 */
function pageScript(kind: PageKind, props: PagePropsByKind[PageKind]): string | undefined {
	if (kind === 'signin' && (props as PagePropsByKind['signin']).providers.some((p) => p.type === 'webauthn')) return PASSKEY_SCRIPT;
	if (kind === 'account' && (props as PagePropsByKind['account']).overview?.passkeyProvider) return PASSKEY_REGISTER_SCRIPT;
	if (kind === 'second-factor' && (props as PagePropsByKind['second-factor']).passkey) return SECOND_FACTOR_PASSKEY_SCRIPT;
	return undefined;
}

/** The document title: the same text as the page's `<h1>`. */
function pageTitle(kind: PageKind, props: PagePropsByKind[PageKind]): string {
	const table = props.messages;
	switch (kind) {
		case 'signin':
			return text(table, 'signin.title');
		case 'signout':
			return text(table, 'signout.title');
		case 'verify-request':
			return text(table, 'verify.title');
		case 'verify-email':
			return text(table, 'confirm.title');
		case 'error':
			return text(table, errorMessageIds(table, (props as PagePropsByKind['error']).error).title);
		case 'account':
			return text(table, 'account.title');
		case 'second-factor':
			return text(table, 'secondFactor.title');
		case 'recovery-code-used':
			return text(table, 'secondFactor.recoveryUsed.title');
		case 'admin-users':
			return text(table, 'admin.title');
		case 'admin-user':
			return text(table, 'admin.userTitle');
		case 'organizations':
			return text(table, 'organization.title');
		case 'organization-settings':
			return text(table, 'organization.settingsTitle');
		case 'organization-invitation':
			return text(table, 'organization.invitationTitle');
	}
}

/** A plausible BCP 47 tag, or `en`. */
function languageTag(lang: unknown): string {
	return typeof lang === 'string' && /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(lang) ? lang : 'en';
}

function escapeHtml(value: string): string {
	return value.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string
	);
}

// The built-in page of the second sign-in step: one form for an authenticator code or a recovery
// code, in the shell and stylesheet of the other built-in pages (theme tokens, logo). Plain HTML
// built here, no script; every value is escaped. Internal: the engine's second-factor route uses it.

import { safeImageUrl, themeStyles } from './theme.js';
import type { Theme } from './types.js';

/** What the second-step page shows. */
export interface SecondFactorPageProps {
	theme: Theme;
	/** The resolved message table (English fills missing keys). */
	messages: Record<string, string>;
	lang: string;
	/** Where the form posts: `{basePath}/second-factor`. */
	action: string;
	csrfToken: string;
	/** The sign-in page, to start again another way. */
	signInUrl: string;
	/** The message id of an alert (a refused code), if any. */
	errorMessageId?: string;
}

function escapeHtml(value: string): string {
	return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/**
 * The page as a complete HTML document.
 *
 * @example
 * renderSecondFactorPage({ theme: {}, messages, lang: 'en', action: '/auth/second-factor', csrfToken, signInUrl: '/auth/signin' });
 */
export function renderSecondFactorPage(props: SecondFactorPageProps): string {
	const t = (id: string) => escapeHtml(props.messages[id] ?? id);
	const logo = safeImageUrl(props.theme.logo);
	const lang = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(props.lang) ? props.lang : 'en';
	return (
		'<!doctype html>' +
		`<html lang="${escapeHtml(lang)}"><head>` +
		'<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
		'<meta name="robots" content="noindex"><meta name="referrer" content="same-origin">' +
		`<title>${t('secondFactor.title')}</title>` +
		`<style>${themeStyles(props.theme)}</style>` +
		'</head><body><main class="kg-page">' +
		(logo ? `<img class="kg-logo" src="${escapeHtml(logo)}" alt="">` : '') +
		`<div class="kg-card"><h1>${t('secondFactor.title')}</h1>` +
		(props.errorMessageId ? `<div class="kg-alert" role="alert">${t(props.errorMessageId)}</div>` : '') +
		`<p class="kg-text">${t('secondFactor.intro')}</p>` +
		`<form class="kg-form" method="post" action="${escapeHtml(props.action)}">` +
		`<input type="hidden" name="csrfToken" value="${escapeHtml(props.csrfToken)}">` +
		'<div class="kg-field">' +
		`<label for="kg-second-factor-code">${t('secondFactor.code.label')}</label>` +
		'<input id="kg-second-factor-code" name="code" type="text" inputmode="text" autocomplete="one-time-code" ' +
		'autocapitalize="off" spellcheck="false" required maxlength="64" aria-describedby="kg-second-factor-hint" autofocus>' +
		'</div>' +
		`<p class="kg-hint" id="kg-second-factor-hint">${t('secondFactor.recovery.hint')}</p>` +
		`<button class="kg-button" type="submit">${t('secondFactor.submit')}</button>` +
		'</form>' +
		`<p class="kg-text"><a href="${escapeHtml(props.signInUrl)}">${t('secondFactor.cancel')}</a></p>` +
		'</div></main></body></html>'
	);
}

/** Headers of the page: no script at all, never framed. */
export const SECOND_FACTOR_PAGE_HEADERS: Record<string, string> = {
	'content-security-policy': "script-src 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
	'x-frame-options': 'DENY'
};

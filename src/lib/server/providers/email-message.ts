// Renders the sign-in email (subject, plain text, HTML from EmailMessage.svelte) in the configured
// language and theme. Public through `kitgate/providers/email` for senders that use a mail API.

import { render } from 'svelte/server';
import type { Component } from 'svelte';
import type { AccountEmailParams, SendVerificationRequestParams, Theme } from '../core/types.js';
import EmailMessage from '../pages/compiled/EmailMessage.js';
import { describeDuration } from '../pages/duration.js';
import { resolveMessages, text } from '../pages/messages.js';
import { contrastText, defaultPalettes, sanitizeColor } from '../pages/theme.js';
import type { EmailColors, EmailMessageProps } from '../pages/types.js';

/**
 * A rendered sign-in email.
 *
 * @example
 * const { subject, text, html }: VerificationEmail = renderVerificationEmail(params);
 */
export interface VerificationEmail {
	/** `Sign in to <host>` (in the configured language). */
	subject: string;
	/** The plain-text part. */
	text: string;
	/** The HTML part: a complete document. */
	html: string;
}

/**
 * What the email is made from: the sender's parameters (only these fields are read).
 *
 * @example
 * const input: VerificationEmailInput = { url, expires, theme: { brandColor: '#0f766e' }, locale: 'fr' };
 */
export type VerificationEmailInput = Pick<SendVerificationRequestParams, 'url' | 'expires' | 'theme'> &
	Partial<Pick<SendVerificationRequestParams, 'provider' | 'locale' | 'messages'>>;

/**
 * Renders the sign-in email for one link: the host name, the link as a button and as text, how
 * long it lives, and a note for people who did not ask for it. It contains no secret but the link.
 * Colours come from `theme` (`brandColor`, `buttonText`, `logo` when it is an absolute URL).
 *
 * @example
 * // a sender for an HTTP mail API
 * sendVerificationRequest: async (params) => {
 *   const { subject, text, html } = renderVerificationEmail(params);
 *   await fetch('https://api.mail.example/send', { method: 'POST', body: JSON.stringify({ to: params.identifier, subject, text, html }) });
 * }
 */
export function renderVerificationEmail(input: VerificationEmailInput): VerificationEmail {
	// `text()` falls back to English for any id a custom table lacks
	const table = input.messages ?? resolveMessages(input.locale);
	const host = new URL(input.url).host;
	const duration = describeDuration(lifetimeSeconds(input), input.locale);
	const props: EmailMessageProps = {
		title: text(table, 'email.title', { host }),
		intro: text(table, 'email.intro', { host }),
		button: text(table, 'email.button'),
		linkLabel: text(table, 'email.link'),
		expires: text(table, 'email.expires', { duration }),
		ignore: text(table, 'email.ignore'),
		url: input.url,
		colors: emailColors(input.theme ?? {}),
		logo: absoluteLogo(input.theme?.logo)
	};
	const html = emailDocument(props, input.locale);
	const plain = [
		props.title,
		'',
		text(table, 'email.textIntro', { host }),
		input.url,
		'',
		props.expires,
		'',
		props.ignore,
		''
	].join('\n');
	return { subject: text(table, 'email.subject', { host }), text: plain, html };
}

/**
 * What an email-change mail is made from (only these fields of `AccountEmailParams` are read).
 *
 * @example
 * const input: AccountEmailInput = { kind: 'confirm-email-change', url, newEmail: 'new@example.com', expires, theme: {} };
 */
export type AccountEmailInput = Pick<AccountEmailParams, 'kind' | 'url' | 'newEmail' | 'theme'> &
	Partial<Pick<AccountEmailParams, 'expires' | 'provider' | 'locale' | 'messages' | 'change' | 'invitation'>>;

const ACCOUNT_MAIL_KEYS = {
	'confirm-email-change': 'account.email.confirm',
	'email-change-notice': 'account.email.notice',
	'email-in-use': 'account.email.inUse',
	'security-notice': 'account.email.security',
	'organization-invitation': 'organization.email.invitation'
} as const;

/** Longest name a mail shows (an organization's or inviter's name, a role). */
const MAX_SHOWN_NAME = 100;

/**
 * Renders an account mail (docs/account.md): of an email change, the confirmation link to the new
 * address, the notice to the old one, or the note to an address another account has; the notice
 * of a credential change; or the invitation to an organization (`invitation`, docs/organizations.md).
 * Same look as the sign-in email; only the confirmation and the invitation carry a secret (their link).
 *
 * @example
 * sendAccountEmail: async (params) => {
 *   const { subject, text, html } = renderAccountEmail(params);
 *   await fetch('https://api.mail.example/send', { method: 'POST', body: JSON.stringify({ to: params.identifier, subject, text, html }) });
 * }
 */
export function renderAccountEmail(input: AccountEmailInput): VerificationEmail {
	if (input.kind === 'organization-invitation') return renderInvitationEmail(input);
	const table = input.messages ?? resolveMessages(input.locale);
	const host = new URL(input.url).host;
	const key = ACCOUNT_MAIL_KEYS[input.kind];
	const values = { host, email: input.newEmail };
	const confirm = input.kind === 'confirm-email-change';
	const expires = confirm && input.expires
		? text(table, 'email.expires', { duration: describeDuration(lifetimeSeconds({ ...input, expires: input.expires, theme: input.theme }), input.locale) })
		: '';
	// a security notice says which change happened (a password by default)
	const intro = input.kind === 'security-notice' ? `${key}.intro.${input.change ?? 'password-changed'}` : `${key}.intro`;
	const props: EmailMessageProps = {
		title: text(table, `${key}.title`, values),
		intro: text(table, intro, values),
		button: text(table, `${key}.button`, values),
		linkLabel: text(table, 'email.link'),
		expires,
		ignore: text(table, `${key}.ignore`, values),
		url: input.url,
		colors: emailColors(input.theme ?? {}),
		logo: absoluteLogo(input.theme?.logo)
	};
	const html = emailDocument(props, input.locale);
	const plain = [props.title, '', props.intro, input.url, '', ...(expires ? [expires, ''] : []), props.ignore, ''].join('\n');
	return { subject: text(table, `${key}.subject`, values), text: plain, html };
}

/**
 * The invitation to an organization: who invited, to which organization and role, the link, and
 * when it stops working (a date, so it reads right whenever the mail is opened). Names come from
 * users: control characters and line breaks are dropped (no header can be added through the
 * subject) and the HTML part escapes them as all text.
 */
function renderInvitationEmail(input: AccountEmailInput): VerificationEmail {
	const table = input.messages ?? resolveMessages(input.locale);
	const key = ACCOUNT_MAIL_KEYS['organization-invitation'];
	const inviter = shownName(input.invitation?.inviterName);
	const values = {
		host: new URL(input.url).host,
		organization: shownName(input.invitation?.organizationName) || '?',
		role: shownName(input.invitation?.role) || '?',
		inviter
	};
	const anonymous = inviter ? '' : 'Anonymous';
	const expires = input.expires ? text(table, `${key}.expires`, { date: describeDate(new Date(input.expires), input.locale) }) : '';
	const props: EmailMessageProps = {
		title: text(table, `${key}.title`, values),
		intro: text(table, `${key}.intro${anonymous}`, values),
		button: text(table, `${key}.button`, values),
		linkLabel: text(table, 'email.link'),
		expires,
		ignore: text(table, `${key}.ignore`, values),
		url: input.url,
		colors: emailColors(input.theme ?? {}),
		logo: absoluteLogo(input.theme?.logo)
	};
	const html = emailDocument(props, input.locale);
	const plain = [props.title, '', props.intro, input.url, '', ...(expires ? [expires, ''] : []), props.ignore, ''].join('\n');
	return { subject: text(table, `${key}.subject${anonymous}`, values), text: plain, html };
}

/** A name as one line of plain text: no control or line-separator characters, bounded. */
function shownName(value: string | null | undefined): string {
	if (typeof value !== 'string') return '';
	return value.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, MAX_SHOWN_NAME);
}

/** A moment as the reader's language writes it, in UTC (the mail cannot know their time zone). */
function describeDate(date: Date, locale: string | undefined): string {
	if (Number.isNaN(date.getTime())) return '?';
	const language = languageOf(locale);
	try {
		return `${new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
	} catch {
		return date.toISOString();
	}
}

/** The whole HTML document of a mail: EmailMessage rendered with `props`, in the language of `locale`. */
function emailDocument(props: EmailMessageProps, locale: string | undefined): string {
	const { body } = render(EmailMessage as Component<Record<string, unknown>>, { props: { ...props } });
	return (
		'<!doctype html>' +
		`<html lang="${escapeAttribute(languageOf(locale))}">` +
		'<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
		'<meta name="color-scheme" content="light">' +
		`<title>${escapeText(props.title)}</title></head>` +
		`<body style="margin:0;padding:0;background-color:${props.colors.background}">${withoutComments(body)}</body>` +
		'</html>'
	);
}

/** The provider's `maxAge`, else the time left until `expires`. */
function lifetimeSeconds(input: VerificationEmailInput): number {
	const maxAge = input.provider?.maxAge;
	if (typeof maxAge === 'number' && Number.isFinite(maxAge)) return maxAge;
	return (new Date(input.expires).getTime() - Date.now()) / 1000;
}

/** Light palette with the theme's brand colour; mail clients rarely honour dark-mode CSS. */
function emailColors(theme: Theme): EmailColors {
	const light = defaultPalettes.light;
	const brand = sanitizeColor(theme.brandColor) ?? light.brand;
	return {
		background: light.bg,
		card: light.card,
		divider: light.divider,
		text: light.text,
		muted: light.muted,
		link: light.link,
		brand,
		brandText: sanitizeColor(theme.buttonText) ?? contrastText(brand)
	};
}

/** The logo only when a mail client can fetch it: an absolute http(s) URL. */
function absoluteLogo(logo: unknown): string | undefined {
	if (typeof logo !== 'string' || logo.length > 2048) return undefined;
	try {
		const url = new URL(logo);
		return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
	} catch {
		return undefined;
	}
}

/** Svelte's hydration markers mean nothing in a mail. */
function withoutComments(html: string): string {
	return html.replace(/<!--[\s\S]*?-->/g, '');
}

function languageOf(locale: string | undefined): string {
	return typeof locale === 'string' && /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(locale) ? locale : 'en';
}

function escapeText(value: string): string {
	return value.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] as string);
}

function escapeAttribute(value: string): string {
	return escapeText(value).replace(/"/g, '&quot;');
}

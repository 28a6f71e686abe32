// Builds the props of the built-in pages from the request context and renders them.
// The pages themselves live in ../pages; this module only feeds them.

import type { ResolvedConfig } from '../config/resolve-config.js';
import { requestCsrf, type RequestContext } from '../request/context.js';
import type { Outcome } from './outcome.js';
import { randomToken } from '../crypto/random.js';
import { resolveMessages, type MessageTable } from '../../pages/messages.js';
import { pageSecurityHeaders, renderPage } from '../../pages/render.js';
import type { PageCommon, PageKind, PagePropsByKind, PageProvider } from '../../pages/types.js';

/** The message table of each config's pages, merged once: the pages only read it. */
const pageMessages = new WeakMap<ResolvedConfig, Readonly<MessageTable>>();

function common(ctx: RequestContext): PageCommon {
	const { config } = ctx;
	let messages = pageMessages.get(config);
	if (!messages) pageMessages.set(config, (messages = Object.freeze(resolveMessages(config.locale, config.messages))));
	const shown = { theme: config.theme, messages, lang: config.locale ?? 'en' };
	if (!ctx.impersonation) return shown;
	// the banner of an impersonated session, with its stop button (docs/admin.md)
	return { ...shown, impersonation: { ...ctx.impersonation, action: `${ctx.authUrl}/admin/stop-impersonating`, csrfToken: requestCsrf(ctx).token } };
}

/** The providers as the sign-in page shows them, each with the URL its form posts to. */
export function pageProviders(ctx: RequestContext): PageProvider[] {
	return ctx.config.providers.map((provider) => ({
		id: provider.id,
		name: provider.name,
		// OAuth and OIDC providers look the same on the page
		type: provider.type === 'oidc' ? 'oauth' : provider.type,
		style: provider.style,
		credentials: provider.type === 'credentials' ? provider.credentials : undefined,
		// passkey responses and credentials go straight to the callback; other flows start at signin
		action: `${ctx.authUrl}/${provider.type === 'credentials' || provider.type === 'webauthn' ? 'callback' : 'signin'}/${provider.id}`,
		...(provider.type === 'webauthn' ? { optionsUrl: `${ctx.authUrl}/webauthn-options/${provider.id}` } : {})
	}));
}

/** Renders a built-in page as an HTML outcome. */
export function pageOutcome<K extends PageKind>(
	ctx: RequestContext,
	kind: K,
	props: Omit<PagePropsByKind[K], keyof PageCommon>,
	status = 200
): Outcome {
	const full = { ...common(ctx), ...props } as PagePropsByKind[K];
	// a page with the impersonation banner is this request's own: never a shared template
	const cached = full.impersonation ? undefined : cachedRender(ctx, kind, full);
	if (cached) return { type: 'html', html: cached.html, status, headers: cached.headers };
	return { type: 'html', html: renderPage(kind, full), status, headers: pageSecurityHeaders(kind, full) };
}

/** Per-request values of the sign-in and sign-out pages, filled into a cached render. */
const SLOTS = ['csrfToken', 'callbackUrl'] as const;
/** Markers rendered in place of the slots: plain letters, so escaping leaves them intact; random, made on first use (a Worker forbids randomness at load). */
let markers: string[] | undefined;
const markersOf = () => (markers ??= SLOTS.map((slot) => `kgslot${slot}${randomToken(16, 'hex')}`));
const MAX_TEMPLATES = 64;

interface PageTemplate {
	/** The render split at the markers; odd entries are slot indexes. */
	parts: (string | number)[];
	headers: Record<string, string>;
}

const templates = new WeakMap<object, Map<string, PageTemplate>>();

/**
 * The sign-in and sign-out pages differ between requests only by the CSRF token and the callback
 * URL: render each variant once per config and fill those two in (the page render is the costly part).
 */
function cachedRender(
	ctx: RequestContext,
	kind: PageKind,
	props: PagePropsByKind[PageKind]
): { html: string; headers: Record<string, string> } | undefined {
	if (kind !== 'signin' && kind !== 'signout') return undefined;
	const values = props as unknown as Record<string, unknown>;
	if (values.email !== undefined || SLOTS.some((slot) => typeof values[slot] !== 'string')) return undefined;
	const key = `${kind}\u0000${ctx.authUrl}\u0000${String(values.error ?? '')}\u0000${String(values.action ?? '')}`;
	let byKey = templates.get(ctx.config);
	if (!byKey) templates.set(ctx.config, (byKey = new Map()));
	let template = byKey.get(key);
	if (!template) {
		const marks = markersOf();
		const marked = { ...values, ...Object.fromEntries(SLOTS.map((slot, index) => [slot, marks[index]])) };
		const html = renderPage(kind, marked as unknown as PagePropsByKind[typeof kind]);
		const pattern = new RegExp(marks.join('|'), 'g');
		const parts: (string | number)[] = [];
		let last = 0;
		for (const match of html.matchAll(pattern)) {
			parts.push(html.slice(last, match.index), marks.indexOf(match[0]));
			last = match.index + match[0].length;
		}
		parts.push(html.slice(last));
		template = { parts, headers: pageSecurityHeaders(kind, props as PagePropsByKind[typeof kind]) };
		// a bounded cache: hosts and error types are few, but the Host header is the client's
		if (byKey.size >= MAX_TEMPLATES) byKey.clear();
		byKey.set(key, template);
	}
	const filled = SLOTS.map((slot) => escapeAttribute(values[slot] as string));
	const html = template.parts.map((part) => (typeof part === 'number' ? filled[part] : part)).join('');
	return { html, headers: template.headers };
}

/** Escapes a value for an HTML attribute or text (what the page's own render would do, or more). */
function escapeAttribute(value: string): string {
	return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

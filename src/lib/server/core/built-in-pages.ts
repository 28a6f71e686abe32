// Builds the props of the built-in pages from the request context and renders them.
// The pages themselves live in ../pages; this module only feeds them.

import type { RequestContext } from './context.js';
import type { Outcome } from './outcome.js';
import { resolveMessages } from '../pages/messages.js';
import { pageSecurityHeaders, renderPage } from '../pages/render.js';
import type { PageCommon, PageKind, PagePropsByKind, PageProvider } from '../pages/types.js';

function common(ctx: RequestContext): PageCommon {
	const { locale, messages, theme } = ctx.config;
	return { theme, messages: resolveMessages(locale, messages), lang: locale ?? 'en' };
}

/** The providers as the sign-in page shows them, each with the URL its form posts to. */
export function pageProviders(ctx: RequestContext): PageProvider[] {
	return ctx.config.providers.map((provider) => ({
		id: provider.id,
		name: provider.name,
		type: provider.type,
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
	return { type: 'html', html: renderPage(kind, full), status, headers: pageSecurityHeaders(kind, full) };
}

// Reading the built-in pages in tests: the request context a page function is called with, the
// page an outcome carries, the POST forms on it, and the headers an app must serve it with.

import { expect } from 'vitest';
import { resolveConfig } from '../config/resolve-config.js';
import { createContext } from '../request/context.js';
import type { Outcome } from '../response/outcome.js';
import type { AuthConfig } from '../types.js';
import { TEST_SECRET } from './client.js';

/** The origin of `pageContext`'s requests. */
export const PAGE_ORIGIN = 'http://localhost:3000';

/**
 * The context of a `GET` of `path` on {@link PAGE_ORIGIN}, with the test secret, trusted host, no
 * providers and `config`.
 *
 * @example
 * const outcome = showAdminListPage(pageContext('/auth/admin', { locale: 'fr' }), usersPage, {});
 */
export function pageContext(path: string, config: Partial<AuthConfig> = {}) {
	return createContext(new Request(`${PAGE_ORIGIN}${path}`), resolveConfig({ secret: TEST_SECRET, trustHost: true, providers: [], ...config }));
}

/** The page an outcome carries, with its headers (throws when the outcome is no page). */
export function pageOf(outcome: Outcome): { html: string; headers: Record<string, string>; status: number } {
	if (outcome.type !== 'html') throw new Error(`expected a page, got ${outcome.type}`);
	return { html: outcome.html, headers: outcome.headers ?? {}, status: outcome.status ?? 200 };
}

/** The POST forms of a page: action and hidden fields. */
export function pageForms(html: string): { action: string; fields: Record<string, string> }[] {
	return [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map(([, action, inner]) => ({
		action,
		fields: Object.fromEntries([...inner.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name, value.replaceAll('&amp;', '&')]))
	}));
}

/** A page served at `path` cannot be framed, runs no inline script, and no shared cache keeps it. */
export function expectUnframedScriptlessUncached(headers: Headers, path: string): void {
	const policy = headers.get('content-security-policy') ?? '';
	const framing = /frame-ancestors 'none'/.test(policy) || /^(deny|sameorigin)$/i.test(headers.get('x-frame-options') ?? '');
	expect(framing, `${path}: ${policy}`).toBe(true);
	expect(policy, path).toMatch(/script-src|default-src/);
	expect(policy, path).not.toContain("'unsafe-inline'");
	expect(headers.get('cache-control') ?? '', path).toMatch(/no-store|private/);
}

// GET {basePath}/account in a browser: the built-in account page (the AccountSettings component in
// the pages' shell, rendered as every built-in page is), `pages.account` when the app has its own,
// or the sign-in page for a visitor without a session. Scripts keep the JSON overview.

import { pageOutcome } from '../response/built-in-pages.js';
import type { RequestContext } from '../request/context.js';
import { pageUrl, type Outcome } from '../response/outcome.js';
import { readAccountSession } from './account-session.js';
import { accountOverview } from './overview.js';

/** The quality of the media types a request accepts, by type (`text/html` → 1). */
function acceptQualities(accept: string): Map<string, number> {
	const qualities = new Map<string, number>();
	for (const part of accept.toLowerCase().split(',')) {
		const [type, ...params] = part.split(';').map((piece) => piece.trim());
		if (!type) continue;
		const q = params.map((param) => /^q=([0-9.]+)$/.exec(param)?.[1]).find((value) => value !== undefined);
		const quality = q === undefined ? 1 : Number(q);
		qualities.set(type, Number.isFinite(quality) ? quality : 0);
	}
	return qualities;
}

/**
 * True when `GET {basePath}/account` should answer the page: the request names `text/html` and
 * prefers it to `application/json` (a browser navigation). `fetch()` (`*∕*`), `Accept:
 * application/json`, a tie and `X-Auth-Return-Redirect: 1` get the JSON overview. Pure.
 *
 * @example
 * prefersAccountPage(new Headers({ accept: 'text/html,application/xhtml+xml,*∕*;q=0.8' })) // true
 * prefersAccountPage(new Headers({ accept: '*∕*' })) // false
 */
export function prefersAccountPage(headers: Headers): boolean {
	if (headers.get('x-auth-return-redirect') === '1') return false;
	const qualities = acceptQualities(headers.get('accept') ?? '');
	const html = qualities.get('text/html') ?? 0;
	return html > 0 && html > (qualities.get('application/json') ?? 0);
}

/** A result or error code of the query, kept only when it looks like one (`passkey-renamed`, `LastSignInMethod`). */
function code(value: string | null): string | undefined {
	return value && /^[A-Za-z][A-Za-z-]{0,63}$/.test(value) ? value : undefined;
}

/**
 * The account page: `pages.account` (a redirect keeping `account` and `accountError`) when the app
 * has one; the sign-in page, coming back here, without a session (but a page saying so right after
 * the account was deleted); else the page with the overview and the notice of the last change.
 *
 * @example
 * if (prefersAccountPage(ctx.request.headers)) return showAccountPage(ctx);
 */
export async function showAccountPage(ctx: RequestContext): Promise<Outcome> {
	const query = ctx.url.searchParams;
	const result = code(query.get('account'));
	const error = code(query.get('accountError'));
	if (ctx.config.pages.account) return { type: 'redirect', url: pageUrl(ctx, 'account', { account: result, accountError: error }) };
	const self = `${ctx.authUrl}/account`;
	const links = { callbackUrl: self, homeUrl: ctx.baseUrl, signOutUrl: `${ctx.authUrl}/signout` };
	const session = await readAccountSession(ctx);
	if (!session) {
		if (result === 'account-deleted') return pageOutcome(ctx, 'account', { overview: null, result, ...links });
		return { type: 'redirect', url: pageUrl(ctx, 'signIn', { callbackUrl: self }) };
	}
	const outcome = pageOutcome(ctx, 'account', { overview: await accountOverview(ctx, session), result, error, ...links });
	return outcome.type === 'html' ? { ...outcome, headers: { ...outcome.headers, vary: 'Accept, Cookie' } } : outcome;
}

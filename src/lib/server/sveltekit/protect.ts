// `protect(prefixes)`: a `handle` that lets only signed-in users reach paths under the prefixes.
// Export path: `kitgate/sveltekit`. Put it after kitgate's handle in `sequence()`.

import { json, redirect, type Handle, type RequestEvent } from '@sveltejs/kit';
import { appBase } from './app-base.js';
import { isOpenPage, isProtectedPath, prefixSegments } from './path-guard.js';
import { requestKitgate } from './request-kitgate.js';
import { sessionRequiredAnswer, signInLocation } from './session-helpers.js';


/**
 * Whether a browser is asking for a page (a redirect helps it): a document request, SvelteKit's
 * client-side navigation data (`__data.json`), or an enhanced form action. Anything else (fetch,
 * JSON, remote function calls) gets a 401 it can act on.
 */
function wantsPage(event: RequestEvent): boolean {
	if (event.isRemoteRequest) return false;
	if (event.isDataRequest || event.request.headers.get('x-sveltekit-action') === 'true') return true;
	const headers = event.request.headers;
	return headers.get('sec-fetch-dest') === 'document' || (headers.get('accept') ?? '').includes('text/html');
}

/**
 * A `handle` that answers requests for paths under `prefixes` only for a signed-in user. Pages get
 * a 303 to the sign-in page (with a same-origin `callbackUrl` back to them); fetch/JSON requests and
 * remote function calls made from those pages get 401 `{ message, code: 'SessionRequired' }`.
 * Prefixes are paths inside the app (without `paths.base`) matched on whole segments, in every
 * reading of the path (as SvelteKit routes it, fully percent-decoded with and without dot
 * segments), ignoring case and repeated or trailing slashes: `/admin` covers `/admin`,
 * `/admin/users` and `/admin/x%2f..%2fy`, not `/administrator`. The sign-in page and the
 * config's `pages.error` and `pages.verifyRequest` stay open, as spelled. Compose it after
 * kitgate's handle.
 *
 * A remote function runs at SvelteKit's own URL, and the page it reports calling from is the
 * caller's to say: check the session inside the function too (`requireSession()`).
 *
 * @example
 * // src/hooks.server.ts
 * import { sequence } from '@sveltejs/kit/hooks';
 * import { protect } from 'kitgate/sveltekit';
 * import { handle as authHandle } from './auth';
 *
 * export const handle = sequence(authHandle, protect(['/app', '/admin']));
 */
export function protect(prefixes: readonly string[]): Handle {
	if (!Array.isArray(prefixes) || prefixes.length === 0) throw new TypeError('kitgate: protect() takes a list of paths, like protect(["/admin"]).');
	const covered = prefixes.map(prefixSegments);
	return async ({ event, resolve }) => {
		if (!isProtectedPath(event.url.pathname, covered, appBase())) return resolve(event);
		const { signInPage, openPages } = requestKitgate(event, 'protect()');
		// the sign-in page (and the error and check-your-email pages) stay open, or a prefix covering them would loop or hide the failure
		if (isOpenPage(event.url.pathname, sameOriginPaths(openPages, event.url.origin))) return resolve(event);
		const session = await event.locals.auth();
		if (session?.user) return resolve(event);
		if (wantsPage(event)) redirect(303, signInLocation(event.url, signInPage));
		const headers = { 'cache-control': 'private, no-store' };
		// a remote call reads SvelteKit's error envelope; others read SvelteKit's error body
		const { status, body } = sessionRequiredAnswer;
		if (event.isRemoteRequest) return json({ type: 'error', status, error: body }, { status, headers });
		return json(body, { status, headers });
	};
}

/** The paths of those of `pages` on `origin` (a page on another site is never this request's path). */
function sameOriginPaths(pages: readonly string[], origin: string): string[] {
	return pages.map((page) => new URL(page, origin)).filter((url) => url.origin === origin).map((url) => url.pathname);
}

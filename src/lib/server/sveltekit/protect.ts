// `protect(prefixes)`: a `handle` that lets only signed-in users reach paths under the prefixes.
// Export path: `kitgate/sveltekit`. Put it after kitgate's handle in `sequence()`.

import { json, redirect, type Handle, type RequestEvent } from '@sveltejs/kit';
import { appBase } from './app-base.js';
import { isProtectedPath, pathSegments, prefixSegments } from './path-guard.js';
import { requestKitgate } from './request-kitgate.js';
import { SESSION_REQUIRED, signInLocation } from './session-helpers.js';

/** The body of the 401: SvelteKit's error shape, with kitgate's stable code. */
const REFUSAL = { message: 'Sign in to continue.', code: SESSION_REQUIRED };

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
 * Prefixes are paths inside the app (without `paths.base`) matched on whole segments, after
 * percent-decoding and dot segments, ignoring case and repeated or trailing slashes: `/admin`
 * covers `/admin` and `/admin/users`, not `/administrator`. Compose it after kitgate's handle.
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
		const { signInPage } = requestKitgate(event, 'protect()');
		// the sign-in page itself stays open, or a prefix that covers it would loop
		const signInPath = new URL(signInPage, event.url.origin);
		if (signInPath.origin === event.url.origin && sameSegments(signInPath.pathname, event.url.pathname)) return resolve(event);
		const session = await event.locals.auth();
		if (session?.user) return resolve(event);
		if (wantsPage(event)) redirect(303, signInLocation(event.url, signInPage));
		const headers = { 'cache-control': 'private, no-store' };
		// a remote call reads SvelteKit's error envelope; others read SvelteKit's error body
		if (event.isRemoteRequest) return json({ type: 'error', status: 401, error: REFUSAL }, { status: 401, headers });
		return json(REFUSAL, { status: 401, headers });
	};
}

function sameSegments(a: string, b: string): boolean {
	return pathSegments(a)?.join('/') === pathSegments(b)?.join('/');
}

// `getSession()` and `requireSession()`: the request's session anywhere SvelteKit runs server code
// for a request (remote functions, loads, actions, endpoints). Export path: `kitgate/sveltekit`.

import { error, redirect, type RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import { failures, type ErrorType } from '../core/errors.js';
import type { Session } from '../core/types.js';
import { isOpenPage } from './path-guard.js';
import { missingHandle, requestKitgate } from './request-kitgate.js';

/**
 * The stable code of the 401 that `requireSession()` and `protect()` answer: `error.body.code` of
 * the client's `HttpError`.
 *
 * @example
 * if (isHttpError(error) && error.body.code === SESSION_REQUIRED) goto('/signin');
 */
export const SESSION_REQUIRED = 'SessionRequired' satisfies ErrorType;

/** The failure table's answer to a request without the session it needs: its status and SvelteKit's error body. */
export const sessionRequiredAnswer = {
	status: failures.SessionRequired.status,
	body: { message: failures.SessionRequired.defaultMessage, code: SESSION_REQUIRED }
} as const;

/**
 * Options of `requireSession`.
 *
 * @example
 * const session = await requireSession({ redirectToSignIn: true });
 */
export interface RequireSessionOptions {
	/**
	 * `true` in a remote `form` (or a page load or form action): without a session, redirect (303)
	 * to the sign-in page, coming back to the current page (on the sign-in page itself, the 401:
	 * no redirect loop). Default `false`: SvelteKit's 401 error with `code: 'SessionRequired'`, for
	 * `query`, `command` and endpoints, which answer data.
	 */
	redirectToSignIn?: boolean;
	/** The request; by default SvelteKit's current one (`getRequestEvent()`). */
	event?: RequestEvent;
}

/** The request being handled; throws a clear error outside one. */
function currentEvent(what: string): RequestEvent {
	try {
		return getRequestEvent();
	} catch {
		throw new Error(
			`kitgate: ${what} reads the session of the request SvelteKit is handling, and there is none here. Call it inside a remote function, ` +
				'a server load, a form action or an endpoint (before any `await` where the platform has no AsyncLocalStorage), or pass the event.'
		);
	}
}

/**
 * The session of the current request, or `null`: `event.locals.auth()`, found through SvelteKit's
 * `getRequestEvent()`, so it works inside remote functions (`query`, `command`, `form`), server
 * loads, form actions and endpoints. Needs kitgate's `handle`.
 *
 * @example
 * // src/routes/data.remote.ts
 * import { query } from '$app/server';
 * import { getSession } from 'kitgate/sveltekit';
 *
 * export const greeting = query(async () => {
 *   const session = await getSession();
 *   return session ? `Hello, ${session.user.name}` : 'Hello, stranger';
 * });
 */
export function getSession(event: RequestEvent = currentEvent('getSession()')): Promise<Session | null> {
	const auth = event.locals.auth;
	if (typeof auth !== 'function') throw missingHandle('getSession()');
	return auth();
}

/**
 * The session of the current request, with its user; without one, stops the request: SvelteKit's
 * 401 error (`{ message, code: 'SessionRequired' }`) by default, for `query` and `command`; with
 * `{ redirectToSignIn: true }`, for a remote `form`, a page load or a form action, a 303 redirect to
 * the sign-in page with the current page as a same-origin `callbackUrl`.
 *
 * @example
 * // src/routes/notes.remote.ts
 * import { command, form } from '$app/server';
 * import { requireSession } from 'kitgate/sveltekit';
 *
 * export const like = command('unchecked', async (id: string) => {
 *   const { user } = await requireSession(); // 401 without a session
 *   return { id, by: user.email };
 * });
 *
 * export const rename = form('unchecked', async (data) => {
 *   const { user } = await requireSession({ redirectToSignIn: true }); // 303 to the sign-in page
 *   return { renamed: String(data.name), by: user.email };
 * });
 */
export async function requireSession(options: RequireSessionOptions = {}): Promise<Session> {
	const event = options.event ?? currentEvent('requireSession()');
	// read before the await: the sign-in page of this request's kitgate
	const { signInPage } = requestKitgate(event, 'requireSession()');
	const session = await getSession(event);
	if (session?.user) return session;
	// on the sign-in page itself a redirect would come back here for ever: the 401 instead
	if (options.redirectToSignIn && !isOnPage(event.url, signInPage)) redirect(303, signInLocation(event.url, signInPage));
	sessionRequired();
}

/** SvelteKit's 401 with kitgate's stable code (what the client's `HttpError.body` has). */
export function sessionRequired(): never {
	error(sessionRequiredAnswer.status, { ...sessionRequiredAnswer.body } as App.Error);
}

/** Whether `url` is the page `page` (a path on this site, or an absolute URL). */
function isOnPage(url: URL, page: string): boolean {
	const target = new URL(page, url.origin);
	return target.origin === url.origin && isOpenPage(url.pathname, [target.pathname]);
}

/**
 * The sign-in page with `callbackUrl` set to the page `url` shows (same origin: this site's
 * origin with the page's path and query, without SvelteKit's `/remote` form parameter). Relative
 * when the sign-in page is on this site.
 *
 * @example
 * signInLocation(new URL('https://a.example/notes?/remote=x'), '/auth/signin') // '/auth/signin?callbackUrl=https%3A%2F%2Fa.example%2Fnotes'
 */
export function signInLocation(url: URL, signInPage: string): string {
	const query = new URLSearchParams(url.search);
	query.delete('/remote');
	const search = query.size > 0 ? `?${query}` : '';
	// the origin is the server's own; the path only follows it, so `//evil.example` stays on this site
	const callbackUrl = `${url.origin}${url.pathname}${search}`;
	const target = new URL(signInPage, url.origin);
	target.searchParams.set('callbackUrl', callbackUrl);
	return target.origin === url.origin ? `${target.pathname}${target.search}` : target.href;
}

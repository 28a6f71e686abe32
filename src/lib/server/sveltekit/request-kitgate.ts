// What kitgate's `handle` leaves for the rest of a request: its sign-in and sign-out actions and its
// sign-in page, keyed by `event.locals`, for the remote-function helpers and `protect()`.

import type { Action, RequestEvent } from '@sveltejs/kit';

/** One request's kitgate: the instance whose `handle` let the request through. */
export interface RequestKitgate {
	/** The `signIn` form action of that `SvelteKitAuth`. */
	signIn: Action;
	/** The `signOut` form action of that `SvelteKitAuth`. */
	signOut: Action;
	/** The sign-in page: the config's `pages.signIn`, or `{basePath}/signin`. */
	signInPage: string;
	/**
	 * The pages a signed-out visitor is sent to, which `protect()` leaves open: the sign-in page,
	 * and the config's `pages.error` and `pages.verifyRequest` when it has them.
	 */
	openPages: string[];
}

const registered = new WeakMap<object, RequestKitgate>();

/** Called by kitgate's `handle` for every request it passes on to the app. */
export function registerRequestKitgate(locals: object, kitgate: RequestKitgate): void {
	registered.set(locals, kitgate);
}

/** Where to say kitgate's handle is missing: what `what` needs, and the line that adds it. */
export function missingHandle(what: string): Error {
	return new Error(
		`kitgate: ${what} needs kitgate's handle, and this request did not go through it. Export it from src/hooks.server.ts ` +
			"(`export { handle } from './auth'`, or first in `sequence(handle, …)` when you compose hooks)."
	);
}

/** The kitgate of this request; throws what to add when kitgate's `handle` did not run. */
export function requestKitgate(event: Pick<RequestEvent, 'locals'>, what: string): RequestKitgate {
	const kitgate = registered.get(event.locals);
	if (!kitgate || typeof event.locals.auth !== 'function') throw missingHandle(what);
	return kitgate;
}

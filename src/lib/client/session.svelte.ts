// The session as Svelte 5 state for one page's components: seeded from the root layout's `session`
// (no request), kept current by the client helpers and, as an option, on window focus. Export path: `kitgate/components`.

import { getContext, setContext } from 'svelte';
import { on } from 'svelte/events';
import type { Session } from '../server/core/types.js';
import { focusRefresher } from './focus-refresh.js';
import { getSession, updateSession } from './index.js';
import { SESSION_CHANGED, type SessionChange } from './session-events.js';

/** Options of `setSessionContext`. */
export interface SessionStateOptions {
	/** Base path of kitgate's routes (default `/auth`; `data.kitgate.basePath` knows the app's). */
	basePath?: string;
	/** Fetch the session once (`GET {basePath}/session`) when the window gets focus or the tab becomes visible again, at most once every 2 seconds: a sign-out in another tab shows here. Default `false`. */
	refetchOnWindowFocus?: boolean;
}

/** `authenticated` when there is a session, else `unauthenticated`. */
export type SessionStatus = 'authenticated' | 'unauthenticated';

/** Set by SessionState: counts a change the server knows and the page does not yet (it has `#changes`). */
let markChanged: (state: SessionState<never>) => void;

/** The context key: a symbol, so no app key can collide with it. */
const SESSION_KEY = Symbol('kitgate.session');

/**
 * The session of one page (one request on the server, one tab in the browser), as Svelte state.
 * Its value is the layout's `session` until the browser learns a newer one (a client sign-in,
 * sign-out or update, a refresh); a new layout `session` (a load that ran again) replaces that.
 * Made by `setSessionContext`; read with `useSession()`.
 *
 * @example
 * const session = useSession();
 * // in markup: {#if session.data}Signed in as {session.data.user.email}{/if}
 */
export class SessionState<S = Session> {
	readonly #seed: () => S | null | undefined;
	readonly #basePath: string;
	/** The layout's session as text: what a session learned here was learned against. */
	#seedKey = $derived.by(() => JSON.stringify(this.#seed() ?? null));
	/** A session learned in the browser, and the layout session it replaces. */
	#learned = $state.raw<{ over: string; session: S | null }>();
	/** Counts the changes the page learned: a request sent before the last one answers an older session. */
	#changes = 0;
	/** The refresh under way, and the change count it was asked at. */
	#pending: { changes: number; answer: Promise<S | null> } | undefined;

	static {
		markChanged = (state) => state.#changes++;
	}

	/**
	 * @param seed - reads the layout's session, e.g. `() => data.session` (a function, so that a load that runs again reaches the state).
	 * @param options - the base path of kitgate's routes.
	 */
	constructor(seed: () => NoInfer<S> | null | undefined, options: Pick<SessionStateOptions, 'basePath'> = {}) {
		this.#seed = seed;
		this.#basePath = options.basePath ?? '/auth';
	}

	/** The session, or `null` when nobody is signed in. */
	get data(): S | null {
		const learned = this.#learned;
		return learned && learned.over === this.#seedKey ? learned.session : (this.#seed() ?? null);
	}

	/** Whether someone is signed in. */
	get status(): SessionStatus {
		return this.data ? 'authenticated' : 'unauthenticated';
	}

	/** Replaces the session with one the browser learned (`null`: signed out). */
	set(session: S | null): void {
		this.#changes++;
		this.#learned = { over: this.#seedKey, session };
	}

	/**
	 * Fetches the session once (`GET {basePath}/session`) and shows it. Calls while one is under way
	 * share it, unless the session changed since it was sent: then its answer is older than what the
	 * page knows, is not shown, and a new request is sent.
	 */
	refresh(): Promise<S | null> {
		const changes = this.#changes;
		if (this.#pending?.changes === changes) return this.#pending.answer;
		const answer: Promise<S | null> = getSession<S>({ basePath: this.#basePath })
			.then((session) => {
				if (this.#changes !== changes) return this.data;
				this.set(session);
				return session;
			})
			.finally(() => {
				if (this.#pending?.answer === answer) this.#pending = undefined;
			});
		this.#pending = { changes, answer };
		return answer;
	}

	/** Updates the session on the server (`updateSession`: the `jwt` callback with `trigger: "update"`) and shows the result. */
	async update(data?: unknown): Promise<S | null> {
		const session = await updateSession<S>(data, { basePath: this.#basePath });
		this.set(session);
		return session;
	}
}

/**
 * Follows a session change the client helpers announced in this page: the session they know, else
 * a fetch sent after the change (a refresh already under way carries the old cookie). Internal.
 */
export function followSessionChange<S>(state: SessionState<S>, change: SessionChange): void {
	if ('session' in change) return state.set((change.session ?? null) as S | null);
	markChanged(state as SessionState<never>);
	void state.refresh().catch(() => {});
}

/**
 * Makes the page's session state for every component below: call it once, in the root
 * `+layout.svelte`, with the layout's `session` (the root `+layout.server.ts` returns
 * `{ session: await event.locals.auth() }`). It makes no request. It lives in Svelte's context,
 * so on the server each request has its own; in the browser it follows the client's `signIn`,
 * `signOut` and `updateSession`, and with `refetchOnWindowFocus` a session ended in another tab.
 *
 * @example
 * // src/routes/+layout.svelte
 * let { data, children } = $props();
 * const session = setSessionContext(() => data.session, { basePath: data.kitgate.basePath, refetchOnWindowFocus: true });
 */
export function setSessionContext<S = Session>(seed: () => NoInfer<S> | null | undefined, options: SessionStateOptions = {}): SessionState<S> {
	const state = new SessionState<S>(seed, options);
	setContext(SESSION_KEY, state);
	// effects run only in the browser: the server neither listens nor fetches
	$effect(() => {
		const stops = [on(window, SESSION_CHANGED, (event) => followSessionChange(state, (event as CustomEvent<SessionChange>).detail ?? {}))];
		if (options.refetchOnWindowFocus) {
			// at most one request per interval, however many focus events come
			const refresh = focusRefresher(() => state.refresh());
			stops.push(
				on(window, 'focus', refresh),
				on(document, 'visibilitychange', () => document.visibilityState === 'visible' && refresh())
			);
		}
		return () => stops.forEach((stop) => stop());
	});
	return state;
}

/**
 * The session state `setSessionContext` made above this component, or `undefined` when there is none.
 *
 * @example
 * const session = getSessionContext(); // undefined outside a layout that set one
 */
export function getSessionContext<S = Session>(): SessionState<S> | undefined {
	return getContext<SessionState<S> | undefined>(SESSION_KEY);
}

/**
 * The session state `setSessionContext` made in the root layout; throws when there is none.
 * Type it with your session when it is not the augmented `Session`: `useSession<MySession>()`.
 *
 * @example
 * const session = useSession();
 * const signedIn = $derived(session.status === 'authenticated');
 */
export function useSession<S = Session>(): SessionState<S> {
	const state = getSessionContext<S>();
	if (!state) throw new Error('kitgate: useSession() found no session state: call setSessionContext(() => data.session) in the root +layout.svelte');
	return state;
}

// The session state's refresh on window focus, at most once per interval: focus events come as fast
// as something fires them (a page framing this one may focus its window in a loop), and each would
// otherwise be a request to the server. Internal to kitgate/client.

/** The least time between two focus refreshes: short beside switching tabs to sign out in another. */
export const FOCUS_REFRESH_INTERVAL_MS = 2000;

/**
 * A focus handler that calls `refresh` unless it did less than the interval ago (failed or not);
 * its errors are dropped: the state keeps what it knew.
 *
 * @example
 * on(window, 'focus', focusRefresher(() => state.refresh()));
 */
export function focusRefresher(refresh: () => Promise<unknown>, now: () => number = Date.now): () => void {
	let last = -Infinity;
	return () => {
		const at = now();
		if (at - last < FOCUS_REFRESH_INTERVAL_MS) return;
		last = at;
		void refresh().catch(() => {});
	};
}

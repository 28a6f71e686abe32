// A module (or any async value) loaded on first use and shared by every caller after that, for
// code an app may never need (routes it does not serve, providers it does not configure).

/**
 * `load()` run once, on first call; later calls get the same promise. A failed load is not
 * remembered: the next call tries again (a file briefly unreadable, EMFILE under load).
 *
 * @example
 * const accountActions = loadOnce(() => import('../actions/account.js'));
 * const { showAccount } = await accountActions();
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
	let loading: Promise<T> | undefined;
	return () =>
		(loading ??= load().catch((error: unknown) => {
			loading = undefined;
			throw error;
		}));
}

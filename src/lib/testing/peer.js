// Loads an optional peer dependency of `kitgate/testing` on first use, with an error that says
// what to install when it is missing (the package itself works without it).

/**
 * Imports `load()`'s module, or throws naming the package `name` and the helper that needs it.
 *
 * @template T
 * @param {() => Promise<T>} load e.g. `() => import('smtp-server')`
 * @param {string} name The package, e.g. `smtp-server`.
 * @param {string} helper The helper that needs it, e.g. `startTestMailbox`.
 * @returns {Promise<T>}
 * @example
 * const { SMTPServer } = await loadPeer(() => import('smtp-server'), 'smtp-server', 'startTestMailbox');
 */
export async function loadPeer(load, name, helper) {
	try {
		return await load();
	} catch (error) {
		const code = /** @type {{ code?: string }} */ (error)?.code;
		if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(/** @type {Error} */ (error).message).includes(name)) {
			throw new Error(`${helper}() needs the package ${name}: npm install --save-dev ${name}`, { cause: error });
		}
		throw error;
	}
}

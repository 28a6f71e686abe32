// A free TCP port on 127.0.0.1, for the throwaway servers and apps of the tests and benchmarks.

import { createServer } from 'node:net';

/**
 * A port nothing listens on now (the system picks it; another process may take it before the
 * caller binds it).
 *
 * @returns {Promise<number>}
 */
export function freePort() {
	return new Promise((resolvePort, reject) => {
		const probe = createServer();
		probe.on('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
			probe.close(() => resolvePort(port));
		});
	});
}

// A free TCP port on 127.0.0.1 for a throwaway server of the benchmarks (PostgreSQL, Redis).

import { createServer } from 'node:net';

/** A port nothing listens on now (another process may take it before the caller binds it). */
export function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

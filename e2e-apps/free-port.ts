// A port nothing listens on at 127.0.0.1, for the apps and servers the real-app specs start.

import { createServer } from 'node:net';

/** A free port on 127.0.0.1 (the system picks it; the probe closes before it is used). */
export function freePort(): Promise<number> {
	return new Promise((resolvePort, reject) => {
		const probe = createServer();
		probe.on('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const { port } = probe.address() as { port: number };
			probe.close(() => resolvePort(port));
		});
	});
}

// Runs a Worker module (`{ fetch(request, env) }`) on Node's http server, as an adapter such as
// SvelteKit's adapter-node runs a bundled app: each request becomes a Web Request, the Response is
// written back. The environment is the process's. On 127.0.0.1 and an ephemeral port, reported to
// the parent over IPC (`{ type: 'ready', port }`); exits when the parent asks or disappears.

import { createServer } from 'node:http';
import { Readable } from 'node:stream';

/** Serves `worker` and reports the port. */
export function serveOnNode(worker, env = process.env) {
	const server = createServer(async (req, res) => {
		const headers = new Headers();
		for (const [name, value] of Object.entries(req.headers)) {
			if (Array.isArray(value)) for (const one of value) headers.append(name, one);
			else if (value !== undefined) headers.set(name, value);
		}
		const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
		const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: hasBody ? Readable.toWeb(req) : undefined, duplex: 'half' });
		const response = await worker.fetch(request, env);
		res.statusCode = response.status;
		for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
		const cookies = response.headers.getSetCookie();
		if (cookies.length) res.setHeader('set-cookie', cookies);
		res.end(Buffer.from(await response.arrayBuffer()));
	});
	server.listen(0, '127.0.0.1', () => {
		const { port } = server.address();
		if (process.send) process.send({ type: 'ready', port, pid: process.pid });
		else console.log(`listening on http://127.0.0.1:${port}`);
	});
	const stop = () => {
		server.closeAllConnections();
		server.close(() => process.exit(0));
	};
	process.on('SIGTERM', stop);
	process.on('SIGINT', stop);
	process.on('disconnect', stop);
}

// Serves one built SvelteKit app (adapter-node's `handler.js`, path in BENCH_HANDLER) on a plain
// node:http server, with the same `/__bench/cpu` route and start-up protocol as the Express apps.

import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { listen } from './shared.js';

let handler;

const server = createServer((req, res) => {
	if (req.url === '/__bench/cpu') {
		const cpu = process.cpuUsage();
		res.setHeader('content-type', 'application/json');
		res.end(JSON.stringify({ user: cpu.user, system: cpu.system, rss: process.memoryUsage().rss }));
		return;
	}
	handler(req, res, () => {
		res.statusCode = 404;
		res.end('Not found');
	});
});

listen(server, { sessionCookie: process.env.BENCH_SESSION_COOKIE }, undefined, async (port) => {
	// adapter-node reads ORIGIN when its handler is loaded (else it assumes https and SvelteKit's
	// origin check refuses form posts), so the handler is loaded once the port is known
	process.env.ORIGIN = `http://127.0.0.1:${port}`;
	({ handler } = await import(pathToFileURL(process.env.BENCH_HANDLER).href));
});

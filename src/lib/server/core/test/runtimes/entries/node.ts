// Node entry: node:http on 127.0.0.1 and the port the test gives, each request turned into a Web
// Request and the Response written back (what an adapter such as SvelteKit's adapter-node does).
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { runtimeApp, type RuntimeEnv } from '../runtime-app.js';

const app = runtimeApp(process.env as unknown as RuntimeEnv);
const server = createServer(async (req, res) => {
	const headers = new Headers();
	for (const [name, value] of Object.entries(req.headers)) {
		if (Array.isArray(value)) for (const one of value) headers.append(name, one);
		else if (value !== undefined) headers.set(name, value);
	}
	const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
	const request = new Request(`http://${req.headers.host}${req.url}`, {
		method: req.method,
		headers,
		body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
		duplex: 'half'
	} as RequestInit);
	const response = await app(request);
	res.statusCode = response.status;
	for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
	const cookies = response.headers.getSetCookie();
	if (cookies.length) res.setHeader('set-cookie', cookies);
	res.end(Buffer.from(await response.arrayBuffer()));
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`listening on ${(server.address() as { port: number }).port}`));

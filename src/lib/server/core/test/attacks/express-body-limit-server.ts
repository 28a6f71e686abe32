// The Express app of express-body-limit.test.ts, run in a child process of its own so the memory
// it reports is the server's alone. Bundled with esbuild by the test and started with `fork`.
//
// Routes: /auth/* (ExpressAuth with a credentials provider), GET /memory (starts a new peak
// measurement), GET /memory/peak?port= (peak growth since, of RSS and of heap + Buffers, and the
// bytes Node read from the client port's connection once closed), POST /buffering (a control
// that buffers the whole body).

import type { Socket } from 'node:net';
import express from 'express';
import { ExpressAuth } from '../../../express/index.js';
import Credentials from '../../../providers/credentials.js';

const app = express();
/** The process's resident memory, and what it holds live: V8 heap plus Buffers (garbage included until collected). */
const memory = () => {
	const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
	return { rss, held: heapUsed + arrayBuffers };
};
let baseline = memory();
let peak = baseline;
const sample = () => {
	const now = memory();
	peak = { rss: Math.max(peak.rss, now.rss), held: Math.max(peak.held, now.held) };
};
setInterval(sample, 2).unref();

app.get('/memory', (_req, res) => {
	(globalThis as { gc?: () => void }).gc?.();
	baseline = peak = memory();
	res.json(baseline);
});
app.get('/memory/peak', (req, res) => {
	sample();
	const bytesRead = closedConnections.get(Number(req.query.port));
	res.json({ rss: peak.rss - baseline.rss, held: peak.held - baseline.held, bytesRead: bytesRead ?? null });
});
// a control: an app that buffers the whole body, so the test sees the measurement can catch one
app.post('/buffering', async (req, res) => {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	res.json({ bytes: Buffer.concat(chunks).byteLength });
});
app.use(
	'/auth',
	ExpressAuth({
		secret: process.env.AUTH_SECRET,
		trustHost: true,
		logger: { error: () => {}, warn: () => {}, debug: () => {} },
		providers: [Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: '1', email: `${username}@example.com` }) })]
	})
);

/** Bytes Node read from each closed connection, by the client's port. */
const closedConnections = new Map<number, number>();
const server = app.listen(0, '127.0.0.1', () => {
	const address = server.address();
	process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
server.on('connection', (socket: Socket) => {
	const port = socket.remotePort ?? 0;
	socket.on('close', () => closedConnections.set(port, socket.bytesRead));
});

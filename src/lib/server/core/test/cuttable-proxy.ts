// A TCP proxy on 127.0.0.1 that can be cut (every connection dropped, new ones refused) and
// restored: "the database server stopped" in the middle of a flow, deterministically. And a port
// nothing listens on: a server that is down from the start.

import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** The proxy and its switch. */
export interface CuttableProxy {
	port: number;
	/** Drops every connection and refuses new ones, like a stopped server. */
	cut: () => Promise<void>;
	/** Accepts connections again on the same port. */
	restore: () => Promise<void>;
	close: () => Promise<void>;
}

/**
 * Starts a proxy to `target` (host and port).
 *
 * @example
 * const proxy = await startCuttableProxy('127.0.0.1', 5432);
 * await proxy.cut();
 */
export async function startCuttableProxy(host: string, port: number): Promise<CuttableProxy> {
	const sockets = new Set<Socket>();
	const track = (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => socket.destroy());
	};
	const server = createServer((client) => {
		track(client);
		const upstream = connect(port, host);
		track(upstream);
		client.pipe(upstream).pipe(client);
		client.on('close', () => upstream.destroy());
		upstream.on('close', () => client.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const own = (server.address() as AddressInfo).port;
	const stop = () =>
		new Promise<void>((resolve) => {
			for (const socket of sockets) socket.destroy();
			if (!server.listening) return resolve();
			server.close(() => resolve());
		});
	return {
		port: own,
		cut: stop,
		restore: () => new Promise<void>((resolve) => server.listen(own, '127.0.0.1', resolve)),
		close: stop
	};
}

/** A loopback port nothing listens on (it was free a moment ago): an IdP or SMTP server that is down. */
export async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

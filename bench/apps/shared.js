// Settings shared by every benchmark app (kitgate, Auth.js, bare Express): the same secret, user,
// credentials and internal `/__bench/cpu` route, and a start-up that reports the port over IPC.

/** The secret every app uses (kitgate and Auth.js both want at least 32 characters). */
export const SECRET = 'kitgate-bench-secret-5c1f0e6a9b2d4c7e8f1a3b5d7e9f0a2c';

/** A typical OpenID Connect user: what a provider's profile would give. */
export const BENCH_USER = Object.freeze({
	id: 'b0e4c2a1-7d3f-4e5a-9c8b-1f2e3d4c5b6a',
	name: 'Ada Lovelace',
	email: 'ada.lovelace@example.com',
	image: 'https://avatars.example.com/u/31415926?v=4&s=96'
});

/** What the load client posts to the credentials callback. */
export const CREDENTIALS = Object.freeze({ username: 'ada', password: 'correct horse battery staple' });

/** The fields of the credentials provider, the same in kitgate and Auth.js. */
export const CREDENTIAL_FIELDS = {
	username: { label: 'Username' },
	password: { label: 'Password', type: 'password' }
};

/** The credentials check: a constant comparison, so the apps differ only in what the library does. */
export function authorize(credentials) {
	return credentials?.username === CREDENTIALS.username && credentials?.password === CREDENTIALS.password
		? { ...BENCH_USER }
		: null;
}

/** Adds `GET /__bench/cpu`: the process's CPU time (µs) and resident memory (bytes). */
export function addBenchRoute(app) {
	app.get('/__bench/cpu', (req, res) => {
		const cpu = process.cpuUsage();
		res.json({ user: cpu.user, system: cpu.system, rss: process.memoryUsage().rss });
	});
}

/**
 * Listens on an ephemeral loopback port, tells the parent (IPC) which one, and exits when the
 * parent asks (SIGTERM/SIGINT) or disappears (IPC disconnect). A normal exit lets `--cpu-prof` write.
 * `beforeReady(port)` runs first, for apps that need to know their own address.
 */
export function listen(app, extra = {}, onClose = async () => {}, beforeReady = async () => {}) {
	const server = app.listen(0, '127.0.0.1', async () => {
		const { port } = server.address();
		await beforeReady(port);
		if (process.send) process.send({ type: 'ready', port, pid: process.pid, ...extra });
		else console.log(`listening on http://127.0.0.1:${port}`);
	});
	let closing = false;
	const stop = async () => {
		if (closing) return;
		closing = true;
		server.closeAllConnections?.();
		server.close();
		try {
			await Promise.race([onClose(), new Promise((resolve) => setTimeout(resolve, 2000))]);
		} finally {
			process.exit(0);
		}
	};
	process.on('SIGTERM', stop);
	process.on('SIGINT', stop);
	process.on('disconnect', stop);
	return server;
}

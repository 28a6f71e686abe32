// One of the two app servers of the multi-server load test: Express 5 with kitgate on a shared
// PostgreSQL (database sessions), credentials and OIDC. `BENCH_STORE=postgres`: rate limits in
// SqlRateLimitStore; `BENCH_STORE=redis`: rate limits and revocations in RedisRateLimitStore and
// copies of the database sessions in RedisSessionCacheStore, on the shared redis-server `BENCH_REDIS_URL`.

import { AsyncLocalStorage } from 'node:async_hooks';
import express from 'express';
import { createClient } from 'redis';
import { revokeSessions } from 'kitgate';
import { ExpressAuth, getSession } from 'kitgate/express';
import Credentials from 'kitgate/providers/credentials';
import { PostgresAdapter } from 'kitgate/adapters/postgres';
import { SqlRateLimitStore } from 'kitgate/adapters/rate-limit-store';
import { RedisRateLimitStore, RedisSessionCacheStore } from 'kitgate/adapters/redis';
import { addBenchRoute, listen, SECRET } from './shared.js';

/** The password every `cred-*` user of the load test has (the load client sets it). */
const PASSWORD = process.env.BENCH_PASSWORD;
const STORE = process.env.BENCH_STORE ?? 'postgres';

const adapter = PostgresAdapter({ connectionString: process.env.BENCH_DATABASE_URL, schema: process.env.BENCH_PG_SCHEMA ?? 'public' });
// both servers start at once: the migration runner's advisory lock makes one of them apply it
await adapter.migrate();

// Each request runs with a record of the database session reads it made, so the load client can
// tell a session check answered from a copy (no query) from one that asked PostgreSQL.
const requestRecord = new AsyncLocalStorage();
const readsByKind = new Map();
const readSession = adapter.getSessionAndUser;
adapter.getSessionAndUser = function (...args) {
	const record = requestRecord.getStore();
	if (record) record.sessionReads++;
	return readSession.apply(this, args);
};

const redis = STORE === 'redis' ? await createClient({ url: process.env.BENCH_REDIS_URL }).connect() : undefined;
const prefix = 'kitgate-multi:';

const config = {
	secret: SECRET,
	trustHost: true,
	basePath: '/auth',
	adapter,
	// with Redis, session reads use a copy kept there for up to 60 s; a sign-out or revocation drops it for every server
	session: redis ? { strategy: 'database', cache: { maxAge: 60, store: RedisSessionCacheStore(redis, { prefix }) } } : { strategy: 'database' },
	// shared by both servers: an identifier's failures count wherever they happen
	rateLimit: {
		store: redis ? RedisRateLimitStore(redis, { prefix }) : SqlRateLimitStore(adapter),
		credentials: { perIdentifier: 5, perAddress: 50 }
	},
	providers: [
		Credentials({
			credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
			authorize: ({ username, password }) =>
				typeof username === 'string' && /^cred-\d+$/.test(username) && password === PASSWORD
					? { id: username, name: username, email: `${username}@multi.example` }
					: null
		}),
		{
			id: 'idp',
			name: 'Bench IdP',
			type: 'oidc',
			issuer: process.env.BENCH_ISSUER,
			clientId: process.env.BENCH_CLIENT_ID,
			clientSecret: process.env.BENCH_CLIENT_SECRET
		}
	]
};

const app = express();
// the load client names each virtual user's address in X-Forwarded-For, as a proxy would
app.set('trust proxy', true);
app.use((req, res, next) => {
	const kind = req.get('x-bench-kind') ?? 'other';
	const record = { sessionReads: 0 };
	res.on('finish', () => {
		const total = readsByKind.get(kind) ?? { requests: 0, sessionReads: 0 };
		total.requests++;
		total.sessionReads += record.sessionReads;
		readsByKind.set(kind, total);
	});
	requestRecord.run(record, next);
});
addBenchRoute(app);
app.get('/__bench/reads', (req, res) => res.json(Object.fromEntries(readsByKind)));
// "sign out everywhere", as an admin action of the app would do it; the socket's address, not X-Forwarded-For
app.post('/__bench/revoke', express.json(), async (req, res) => {
	if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(req.socket.remoteAddress)) return res.status(403).end();
	const user = await adapter.getUserByEmail(String(req.body?.email));
	if (!user) return res.status(404).end();
	await revokeSessions(user.id, config);
	res.status(204).end();
});
app.use('/auth', ExpressAuth(config));
app.get('/protected', async (req, res) => {
	const session = await getSession(req, config, res);
	const { sessionReads } = requestRecord.getStore();
	if (!session?.user) return res.status(401).json({ error: 'unauthenticated', sessionReads });
	res.json({ server: process.env.BENCH_SERVER_NAME, user: session.user, sessionReads });
});

listen(app, { server: process.env.BENCH_SERVER_NAME }, async () => {
	await redis?.quit();
	await adapter.close();
});

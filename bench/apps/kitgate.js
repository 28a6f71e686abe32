// The kitgate target: Express 5 with `ExpressAuth` on /auth and a `/protected` route calling
// `getSession`. BENCH_STORE picks the session strategy: `jwt` (default), `sqlite` or `postgres`;
// BENCH_SESSION_CACHE=cookie adds `session.cache` to database sessions; KITGATE_DIST imports another build.

import { randomUUID } from 'node:crypto';
import express from 'express';
import { addBenchRoute, authorize, BENCH_USER, CREDENTIAL_FIELDS, listen, SECRET } from './shared.js';

const store = process.env.BENCH_STORE ?? 'jwt';
// KITGATE_DIST: a copy of dist/ to import instead of the package (bench/ab/ab.js runs two side by side)
const dist = process.env.KITGATE_DIST;
const { ExpressAuth, getSession } = await import(dist ? `${dist}/server/express/index.js` : 'kitgate/express');
const { default: Credentials } = await import(dist ? `${dist}/server/providers/credentials.js` : 'kitgate/providers/credentials');

/** The database adapter for database sessions, or undefined under the JWT strategy. */
async function createAdapter() {
	if (store === 'sqlite') {
		const { SQLiteAdapter } = await import('kitgate/adapters/sqlite');
		return SQLiteAdapter({ filename: process.env.BENCH_SQLITE_FILE });
	}
	if (store === 'postgres') {
		const { PostgresAdapter } = await import('kitgate/adapters/postgres');
		return PostgresAdapter({ connectionString: process.env.BENCH_DATABASE_URL, schema: process.env.BENCH_PG_SCHEMA ?? 'public' });
	}
	return undefined;
}

/** A user and a 30-day session written straight to the database: the cookie the load client sends. */
async function seedSession(adapter) {
	await adapter.migrate?.();
	// a second process on the same file (the profiling run) finds the user already there
	const user =
		(await adapter.getUserByEmail(BENCH_USER.email)) ??
		(await adapter.createUser({ ...BENCH_USER, id: randomUUID(), emailVerified: null }));
	const sessionToken = randomUUID();
	await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 30 * 86400_000) });
	return sessionToken;
}

const adapter = await createAdapter();
const config = {
	secret: SECRET,
	trustHost: true,
	basePath: '/auth',
	providers: [Credentials({ credentials: CREDENTIAL_FIELDS, authorize })],
	// BENCH_SESSION_CACHE=cookie: database sessions read from a copy in a cookie (an hour, longer than a run)
	session: { strategy: adapter ? 'database' : 'jwt', ...(process.env.BENCH_SESSION_CACHE === 'cookie' ? { cache: { maxAge: 3600 } } : {}) },
	...(adapter ? { adapter } : {})
};
const sessionToken = adapter ? await seedSession(adapter) : undefined;

const app = express();
addBenchRoute(app);
app.use('/auth', ExpressAuth(config));
app.get('/protected', async (req, res) => {
	const session = await getSession(req, config, res);
	if (!session?.user) return res.status(401).json({ error: 'unauthenticated' });
	res.json({ message: 'protected', user: session.user });
});

listen(app, { sessionToken, sessionCookie: 'kitgate.session-token' }, async () => adapter?.close?.());

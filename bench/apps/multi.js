// One of the two app servers of the multi-server load test: Express 5 with kitgate on a shared
// PostgreSQL (database sessions, and rate limits in SqlRateLimitStore), credentials and OIDC.

import express from 'express';
import { ExpressAuth, getSession } from 'kitgate/express';
import Credentials from 'kitgate/providers/credentials';
import { PostgresAdapter } from 'kitgate/adapters/postgres';
import { SqlRateLimitStore } from 'kitgate/adapters/rate-limit-store';
import { addBenchRoute, listen, SECRET } from './shared.js';

/** The password every `cred-*` user of the load test has (the load client sets it). */
const PASSWORD = process.env.BENCH_PASSWORD;

const adapter = PostgresAdapter({ connectionString: process.env.BENCH_DATABASE_URL, schema: process.env.BENCH_PG_SCHEMA ?? 'public' });
// both servers start at once: the migration runner's advisory lock makes one of them apply it
await adapter.migrate();

const config = {
	secret: SECRET,
	trustHost: true,
	basePath: '/auth',
	adapter,
	session: { strategy: 'database' },
	// shared by both servers: an identifier's failures count wherever they happen
	rateLimit: { store: SqlRateLimitStore(adapter), credentials: { perIdentifier: 5, perAddress: 50 } },
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
addBenchRoute(app);
app.use('/auth', ExpressAuth(config));
app.get('/protected', async (req, res) => {
	const session = await getSession(req, config, res);
	if (!session?.user) return res.status(401).json({ error: 'unauthenticated' });
	res.json({ server: process.env.BENCH_SERVER_NAME, user: session.user });
});

listen(app, { server: process.env.BENCH_SERVER_NAME }, () => adapter.close());

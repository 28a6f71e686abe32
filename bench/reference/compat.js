// The real Auth.js for kitgate's compatibility tests (src/lib/server/core/test/authjs-reference.ts): its JWT
// encoder, its PostgreSQL and Drizzle adapters, and an @auth/express app on this folder's own express.

import { createServer } from 'node:http';
import express from 'express';
import { ExpressAuth } from '@auth/express';
import Credentials from '@auth/express/providers/credentials';
import PostgresAdapter from '@auth/pg-adapter';
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { drizzle } from 'drizzle-orm/better-sqlite3';

export { encode, decode } from '@auth/core/jwt';
export { Credentials, PostgresAdapter };

/**
 * @auth/drizzle-adapter on its default SQLite tables, over an open better-sqlite3 database.
 *
 * @param {unknown} database a better-sqlite3 `Database`
 */
export function DrizzleSqliteAdapter(database) {
	return DrizzleAdapter(drizzle({ client: /** @type {never} */ (database) }));
}

/**
 * Serves `ExpressAuth(config)` under /auth on 127.0.0.1 (Express 5: mounted on the prefix).
 *
 * @param {import('@auth/express').ExpressAuthConfig} config
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function startAuthjsExpress(config) {
	const app = express();
	app.set('trust proxy', true);
	app.use('/auth', ExpressAuth(config));
	const server = createServer(app);
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		origin: `http://127.0.0.1:${address.port}`,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve(undefined));
			})
	};
}

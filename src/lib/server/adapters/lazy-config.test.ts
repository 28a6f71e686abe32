// A lazy config (`SvelteKitAuth(async (event) => ({ adapter: SQLiteAdapter({ filename }), … }))`) creates
// an adapter on every request. Served by the real SvelteKit and Express test apps, 100 such requests
// must leave the database's open handles flat: adapters of one database share one connection.

import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { TEST_SECRET } from '../core/test/client.js';
import { Browser, INTEGRATIONS, startApps, type AppServer } from '../core/test/integrations.js';
import type { Adapter, AuthConfig } from '../core/types.js';
import Credentials from '../providers/credentials.js';
import { PostgresAdapter } from './postgres.js';
import { SQLiteAdapter } from './sqlite.js';

const REQUESTS = 100;
const tempDir = mkdtempSync(join(tmpdir(), 'kitgate-lazy-config-'));
const schema = `t_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
const admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
let apps: Awaited<ReturnType<typeof startApps>>;

beforeAll(async () => {
	apps = await startApps();
});
afterAll(async () => {
	await apps.closeAll();
	await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
	await admin.end();
	rmSync(tempDir, { recursive: true, force: true });
});

/** A config function as an app's lazy config is: a new config and a new adapter every time it is called. */
function lazyConfig(makeAdapter: () => Adapter): () => AuthConfig {
	return () => ({
		secret: TEST_SECRET,
		trustHost: true,
		adapter: makeAdapter(),
		session: { strategy: 'database' },
		providers: [
			Credentials({
				credentials: { username: {} },
				authorize: ({ username }) => ({ id: `user-${String(username)}`, email: `${String(username)}@example.com` })
			})
		]
	});
}

/** Signs in with a database session, then reads it `REQUESTS` times (each read is a config, an adapter and a query). */
async function signInAndRead(app: AppServer, username: string, measure: () => Promise<number> | number) {
	const browser = new Browser();
	const csrfToken = await browser.csrfToken(app.origin);
	const signIn = await browser.request(`${app.origin}/auth/callback/credentials`, { form: { csrfToken, username } });
	expect(signIn.status).toBe(302);
	expect((await browser.session(app.origin))?.user?.email).toBe(`${username}@example.com`);
	const before = await measure();
	for (let i = 0; i < REQUESTS; i++) {
		const session = await browser.session(app.origin);
		expect(session?.user?.email).toBe(`${username}@example.com`);
	}
	const after = await measure();
	return { before, after };
}

/** File descriptors of this process open on `filename` or its -wal/-shm companions (the test apps run in-process). */
function openHandles(filename: string): number {
	let count = 0;
	for (const fd of readdirSync('/proc/self/fd')) {
		try {
			const target = readlinkSync(`/proc/self/fd/${fd}`);
			if (target === filename || target === `${filename}-wal` || target === `${filename}-shm`) count++;
		} catch {
			// closed between readdir and readlink
		}
	}
	return count;
}

/** Connections to PostgreSQL opened under `applicationName`. */
async function connections(applicationName: string): Promise<number> {
	const result = await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where application_name = $1', [
		applicationName
	]);
	return result.rows[0]!.n;
}

/** Polls until `read()` gives `expected` (a server closes its side of a connection a moment after the client). */
async function settle(read: () => Promise<number>, expected: number): Promise<number> {
	let value = await read();
	for (let tries = 0; value !== expected && tries < 50; tries++) {
		await new Promise((resolve) => setTimeout(resolve, 40));
		value = await read();
	}
	return value;
}

describe.each(INTEGRATIONS)('%s app with a lazy config', (integration) => {
	test(`SQLiteAdapter({ filename }) created on each of ${REQUESTS} requests: open handles to the file stay flat, close() closes them`, async () => {
		const filename = join(tempDir, integration, 'auth.sqlite');
		apps[integration].use(lazyConfig(() => SQLiteAdapter({ filename })));
		const { before, after } = await signInAndRead(apps[integration], 'ada', () => openHandles(filename));
		console.info(`[lazy-config] ${integration} SQLite: ${before} open handles to the file before ${REQUESTS} requests, ${after} after`);
		expect(before).toBeGreaterThan(0);
		expect(before).toBeLessThanOrEqual(3); // the file, its WAL and its shared-memory index: one connection
		expect(after).toBe(before);

		// a lazy app closes the shared connection with any adapter of the file, e.g. on SIGTERM
		await SQLiteAdapter({ filename }).close();
		expect(openHandles(filename)).toBe(0);
	});

	test(`PostgresAdapter({ connectionString }) created on each of ${REQUESTS} requests: pool connections stay flat, close() ends them`, async () => {
		const applicationName = `kitgate-lazy-${integration}-${crypto.randomUUID().slice(0, 8)}`;
		const url = new URL(inject('databaseUrl'));
		url.searchParams.set('application_name', applicationName);
		const connectionString = url.href;
		apps[integration].use(lazyConfig(() => PostgresAdapter({ connectionString, schema })));
		const { before, after } = await signInAndRead(apps[integration], 'grace', () => connections(applicationName));
		console.info(`[lazy-config] ${integration} PostgreSQL: ${before} pool connections before ${REQUESTS} requests, ${after} after`);
		expect(before).toBeGreaterThan(0);
		expect(after).toBe(before);

		await PostgresAdapter({ connectionString, schema }).close();
		expect(await settle(() => connections(applicationName), 0)).toBe(0);
	});
});

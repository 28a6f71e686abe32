// Attacks (integration part): the same holes and defences as hot-path-shortcuts.test.ts on
// real servers. A real Express app on 127.0.0.1 with AUTH_URL set, sent a raw dot-segment
// request-target (what a browser never sends, but curl --path-as-is and any socket do); and
// PostgreSQL's named session-check statements with two schemas on one pool connection.

import { randomBytes } from 'node:crypto';
import { request as httpRequest, type Server } from 'node:http';
import express from 'express';
import pg from 'pg';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import { PostgresAdapter } from '../../../adapters/postgres.js';
import { ExpressAuth } from '../../../express/index.js';
import Email from '../../../providers/email.js';
import type { AuthConfig } from '../../types.js';
import { TEST_SECRET } from '../client.js';

const quiet = { error: () => {}, warn: () => {}, debug: () => {} };

/** One raw HTTP exchange: the path is sent exactly as given (no dot-segment removal). */
function raw(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
	return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
		const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
		});
		req.on('error', reject);
		req.end(body);
	});
}

describe('Express with AUTH_URL: a dot-segment request-target', () => {
	let server: Server | undefined;
	afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

	// The attacker has the real app mail the victim a sign-in link to the attacker's host: the victim's click hands over the token.
	test('POST /auth/..//evil.example/auth/signin/email mails a link of the configured origin, not of evil.example', async () => {
		const mailed: string[] = [];
		const app = express();
		const config: AuthConfig = {
			secret: TEST_SECRET,
			url: 'https://app.example',
			adapter: MemoryAdapter(),
			logger: quiet,
			providers: [Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) })]
		};
		app.use('/auth', ExpressAuth(config));
		server = await new Promise<Server>((resolve) => {
			const s = app.listen(0, '127.0.0.1', () => resolve(s));
		});
		const port = (server.address() as { port: number }).port;

		const csrf = await raw(port, 'GET', '/auth/csrf', { host: 'app.example' });
		const setCookie = ([] as string[]).concat(csrf.headers['set-cookie'] ?? []);
		const cookie = setCookie.map((line) => line.split(';')[0]).join('; ');
		const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
		const body = new URLSearchParams({ csrfToken, email: 'victim@example.com', callbackUrl: '/' }).toString();
		const answer = await raw(port, 'POST', '/auth/..//evil.example/auth/signin/email', { host: 'app.example', 'content-type': 'application/x-www-form-urlencoded', cookie }, body);

		expect(answer.status).toBeLessThan(500);
		for (const link of mailed) expect(new URL(link).origin, `mailed link ${link}`).toBe('https://app.example');
		expect(String(answer.headers.location ?? ''), 'redirect after the request').not.toMatch(/evil\.example/);
	});
});

describe('PostgreSQL named session-check statements', () => {
	const connectionString = inject('databaseUrl');
	const schemaA = `r9a_${randomBytes(5).toString('hex')}`;
	const schemaB = `r9b_${randomBytes(5).toString('hex')}`;
	const pools: pg.Pool[] = [];
	afterAll(async () => {
		const admin = new pg.Pool({ connectionString, max: 1 });
		await admin.query(`DROP SCHEMA IF EXISTS ${schemaA} CASCADE`);
		await admin.query(`DROP SCHEMA IF EXISTS ${schemaB} CASCADE`);
		await admin.end();
		await Promise.all(pools.map((pool) => pool.end()));
	});

	// Held: two tenants' adapters (two schemas) on one pool connection never answer a session from the other's table, the same token included.
	test('held: two schemas on one connection never read each other\'s sessions, before and after DEALLOCATE ALL', async () => {
		const pool = new pg.Pool({ connectionString, max: 1 });
		pools.push(pool);
		const tenantA = PostgresAdapter({ pool, schema: schemaA });
		const tenantB = PostgresAdapter({ pool, schema: schemaB });
		const alice = await tenantA.createUser({ id: 'alice', email: 'alice@a.example', emailVerified: null });
		const mallory = await tenantB.createUser({ id: 'mallory', email: 'mallory@b.example', emailVerified: null });
		const onlyA = `only-a-${randomBytes(6).toString('hex')}`;
		const shared = `shared-${randomBytes(6).toString('hex')}`;
		const expires = new Date(2_000_000_000_000);
		await tenantA.createSession({ sessionToken: onlyA, userId: alice.id, expires });
		await tenantA.createSession({ sessionToken: shared, userId: alice.id, expires });
		await tenantB.createSession({ sessionToken: shared, userId: mallory.id, expires });
		for (let round = 0; round < 4; round++) {
			if (round === 2) await pool.query('DEALLOCATE ALL');
			expect(await tenantB.getSessionAndUser(onlyA)).toBeNull();
			expect((await tenantA.getSessionAndUser(onlyA))?.user.id).toBe('alice');
			expect((await tenantB.getSessionAndUser(shared))?.user.id).toBe('mallory');
			expect((await tenantA.getSessionAndUser(shared))?.user.id).toBe('alice');
		}
		const { rows } = await pool.query<{ name: string }>("select name from pg_prepared_statements where name like 'kitgate_%'");
		expect(new Set(rows.map((row) => row.name)).size).toBe(rows.length);
	});
});

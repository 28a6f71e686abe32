// Fifty first sign-ins of the same identity at once (`completeSignIn` driven directly) must leave
// exactly one user and one account, on the memory adapter, a real SQLite file and real PostgreSQL.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { PostgresAdapter } from '../../adapters/postgres.js';
import { SQLiteAdapter } from '../../adapters/sqlite.js';
import { completeSignIn } from '../flows/complete-sign-in.js';
import { resolveConfig } from '../config/resolve-config.js';
import { createContext } from '../request/context.js';
import type { Adapter, AdapterUser, AuthConfig, OAuthConfig } from '../types.js';
import { TEST_SECRET } from './client.js';
import { ORIGIN, quietLogger } from './oauth-fixtures.js';

const RACERS = 50;
const tempDir = mkdtempSync(join(tmpdir(), 'kitgate-oauth-race-'));
const databaseUrl = inject('databaseUrl');
const schemas: string[] = [];
afterAll(async () => {
	rmSync(tempDir, { recursive: true, force: true });
	const admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
	for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
	await admin.end();
});

const provider: OAuthConfig = {
	id: 'idp',
	name: 'IdP',
	type: 'oidc',
	issuer: 'https://idp.example.com',
	clientId: 'app'
};

/** The adapter under test, with what it created and deleted counted (it stays the real adapter). */
function counting(adapter: Required<Adapter>) {
	const created: string[] = [];
	const deleted: string[] = [];
	const attempts = { createUser: 0 };
	const counted: Required<Adapter> = {
		...adapter,
		createUser: async (user) => {
			attempts.createUser++;
			const result = await adapter.createUser(user);
			created.push(result.id);
			return result;
		},
		deleteUser: async (id) => {
			deleted.push(id);
			return adapter.deleteUser(id);
		}
	};
	return { adapter: counted, created, deleted, attempts };
}

interface Backend {
	name: string;
	make: () => {
		adapter: Required<Adapter>;
		count?: () => { users: number; accounts: number } | Promise<{ users: number; accounts: number }>;
		close: () => Promise<void> | void;
	};
}

const backends: Backend[] = [
	{ name: 'memory', make: () => ({ adapter: MemoryAdapter(), close: () => {} }) },
	{
		name: 'sqlite',
		make: () => {
			const sqlite = SQLiteAdapter({ filename: join(tempDir, `${crypto.randomUUID()}.sqlite`) });
			const count = (table: string) => (sqlite.database.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
			return { adapter: sqlite, count: () => ({ users: count('users'), accounts: count('accounts') }), close: () => sqlite.close() };
		}
	},
	{
		name: 'postgres',
		make: () => {
			const schema = `race_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
			schemas.push(schema);
			const postgres = PostgresAdapter({ connectionString: databaseUrl, schema });
			const count = async (table: string) =>
				Number((await postgres.pool.query(`SELECT count(*) AS n FROM ${schema}.${table}`)).rows[0].n);
			return {
				adapter: postgres,
				count: async () => ({ users: await count('users'), accounts: await count('accounts') }),
				close: () => postgres.close()
			};
		}
	}
];

type CompleteSignIn = typeof completeSignIn;

/**
 * `completeSignIn` as `RACERS` separate server processes would run it: each racer gets its own
 * module instance (a query string makes Vite load the module anew), so the in-process queue that
 * serialises sign-ins of one identity does not apply and the adapter's constraints must settle it.
 */
async function separateProcesses(): Promise<CompleteSignIn[]> {
	return Promise.all(
		Array.from({ length: RACERS }, async (_, index) => {
			const module = (await import(/* @vite-ignore */ `../flows/complete-sign-in.js?process=${index}`)) as { completeSignIn: CompleteSignIn };
			return module.completeSignIn;
		})
	);
}

describe.each(backends)('$name adapter', ({ make }) => {
	test.each([
		['in one process, with an email', 'racer@example.test', false],
		['in one process, without an email', null, false],
		['across processes, with an email (createUser races on the unique email)', 'racer@example.test', true],
		['across processes, without an email (linkAccount races; losers delete their user)', null, true]
	])(`${RACERS} concurrent first sign-ins %s: one user, one account`, async (_label, email, crossProcess) => {
		const signIns: CompleteSignIn[] = crossProcess ? await separateProcesses() : Array(RACERS).fill(completeSignIn);
		const backend = make();
		const { adapter, created, deleted, attempts } = counting(backend.adapter);
		const events: string[] = [];
		const log = quietLogger();
		const config: AuthConfig = {
			secret: TEST_SECRET,
			trustHost: true,
			adapter,
			providers: [provider],
			logger: log.logger,
			events: { createUser: () => void events.push('createUser'), linkAccount: () => void events.push('linkAccount') }
		};
		const resolved = resolveConfig(config);
		const normalized = resolved.providerById.get('idp') as OAuthConfig;
		try {
			const outcomes = await Promise.all(
				signIns.map((signIn) => {
					const ctx = createContext(new Request(`${ORIGIN}/auth/callback/idp`), resolved);
					return signIn(ctx, {
						provider: normalized,
						profile: { sub: 'racer', email },
						user: { id: 'racer', name: 'Racer', email, image: null },
						account: { provider: 'idp', type: 'oidc', providerAccountId: 'racer', access_token: 'token' },
						callbackUrl: `${ORIGIN}/`
					}).then(
						(outcome) => ({ outcome, ctx }),
						(error: unknown) => ({ error, ctx })
					);
				})
			);
			// everyone signed in, as the same user
			expect(outcomes.filter((o) => "error" in o).map((o) => String((o as { error: unknown }).error) + " " + String(((o as { error: { cause?: { err?: unknown } } }).error.cause?.err)))).toEqual([]);
			for (const { ctx } of outcomes) expect(ctx.setCookies.some((c) => c.name === 'kitgate.session-token' && c.value)).toBe(true);

			const owner = (await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'racer' })) as AdapterUser;
			expect(owner).not.toBeNull();
			expect((await adapter.getAccount('racer', 'idp'))?.userId).toBe(owner.id);
			expect(events.filter((e) => e === 'createUser')).toHaveLength(1);
			expect(events.filter((e) => e === 'linkAccount')).toHaveLength(1);
			if (crossProcess) {
				// a real race: many got past the reads and tried to create the user
				expect(attempts.createUser).toBeGreaterThan(RACERS / 2);
				if (email) expect(created).toHaveLength(1);
				else expect(created).toHaveLength(attempts.createUser);
			} else {
				// one process queues sign-ins of one identity: the first creates, the rest find it
				expect(attempts.createUser).toBe(1);
			}
			// every other user made along the way was removed again
			const remaining = created.filter((id) => !deleted.includes(id));
			expect(remaining).toEqual([owner.id]);
			for (const id of deleted) expect(await adapter.getUser(id)).toBeNull();
			if (backend.count) expect(await backend.count()).toEqual({ users: 1, accounts: 1 });
		} finally {
			await backend.close();
		}
	});
});

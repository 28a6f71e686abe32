// Fifty first sign-ins of the same identity at once (`completeSignIn` driven directly) must leave
// exactly one user and one account, on the memory adapter and on a real SQLite file.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { SQLiteAdapter } from '../../adapters/sqlite.js';
import { completeSignIn } from '../complete-sign-in.js';
import { resolveConfig } from '../config.js';
import { createContext } from '../context.js';
import type { Adapter, AdapterUser, AuthConfig, OAuthConfig } from '../types.js';
import { TEST_SECRET } from './client.js';
import { ORIGIN, quietLogger } from './oauth-fixtures.js';

const RACERS = 50;
const tempDir = mkdtempSync(join(tmpdir(), 'kitgate-oauth-race-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

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
	make: () => { adapter: Required<Adapter>; count?: () => { users: number; accounts: number }; close: () => Promise<void> | void };
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
	}
];

describe.each(backends)('$name adapter', ({ make }) => {
	test.each([
		['with an email (createUser races on the unique email)', 'racer@example.test'],
		['without an email (linkAccount races; losers delete their user)', null]
	])(`${RACERS} concurrent first sign-ins %s: one user, one account`, async (_label, email) => {
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
				Array.from({ length: RACERS }, () => {
					const ctx = createContext(new Request(`${ORIGIN}/auth/callback/idp`), resolved);
					return completeSignIn(ctx, {
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
			expect(outcomes.filter((o) => 'error' in o)).toEqual([]);
			for (const { ctx } of outcomes) expect(ctx.setCookies.some((c) => c.name === 'kitgate.session-token' && c.value)).toBe(true);

			const owner = (await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'racer' })) as AdapterUser;
			expect(owner).not.toBeNull();
			expect((await adapter.getAccount('racer', 'idp'))?.userId).toBe(owner.id);
			expect(events.filter((e) => e === 'createUser')).toHaveLength(1);
			expect(events.filter((e) => e === 'linkAccount')).toHaveLength(1);
			// a real race: all of them got past the reads and tried to create the user
			expect(attempts.createUser).toBe(RACERS);
			expect(created).toHaveLength(email ? 1 : RACERS);
			// every other user made along the way was removed again
			const remaining = created.filter((id) => !deleted.includes(id));
			expect(remaining).toEqual([owner.id]);
			for (const id of deleted) expect(await adapter.getUser(id)).toBeNull();
			if (backend.count) expect(backend.count()).toEqual({ users: 1, accounts: 1 });
		} finally {
			await backend.close();
		}
	});
});

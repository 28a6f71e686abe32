// Hostile admin input where the database reads it, on a real PostgreSQL (and memory and SQLite
// beside it), through `Auth()`: searches with NUL bytes, LIKE wildcards, SQL metacharacters and
// unicode; ids and credential ids PostgreSQL cannot store; changes racing each other on real
// connections (a deletion against a ban, one address created twice at once). Never a 5xx, never
// a second user with one address, never an admin record of a deleted user.

import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { authjsPgAdapterTables, PostgresAdapter } from '../../adapters/postgres.js';
import { postgresFromDdl } from '../../adapters/test/authjs-databases.js';
import { SESSION_STRATEGIES } from '../test/stored-adapters.js';
import { memorySqliteAndPostgresAdapters } from '../test/stored-adapters-with-postgres.js';
import { adminWorld } from '../test/admin-fixture.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import type { Adapter } from '../types.js';

const connectionString = inject('databaseUrl');
// PostgreSQL (a schema of its own per world), memory and SQLite
const [postgres, ...memoryAndSqlite] = memorySqliteAndPostgresAdapters('admin-input-postgres');
const opened: PostgresAdapter[] = [];
afterAll(async () => {
	await Promise.all(opened.map((adapter) => adapter.close()));
});

// @auth/pg-adapter's own tables: integer user ids, so an id or a search that is no number must not reach SQL as one
let authjsUrl = '';
const drops: (() => Promise<void>)[] = [];
beforeAll(async () => {
	const made = await postgresFromDdl(connectionString, 'pg-adapter');
	authjsUrl = made.connectionString;
	drops.push(made.drop);
});
afterAll(async () => {
	for (const drop of drops) await drop();
});
function authjsPostgresAdapter(): Adapter {
	const adapter = PostgresAdapter({ connectionString: authjsUrl, tables: authjsPgAdapterTables });
	opened.push(adapter);
	return adapter;
}

const adapters: [string, () => Adapter][] = [postgres, ["@auth/pg-adapter's tables on postgres", authjsPostgresAdapter], ...memoryAndSqlite];

async function answer(response: Response): Promise<{ status: number; body: Record<string, unknown> }> {
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.each(adapters)('%s adapter', (name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		test('hostile searches are literal and never a 5xx', async () => {
			const world = adminWorld(makeAdapter(), strategy);
			const admin = await world.signedInAdmin();
			// a database shared by the tests of one adapter: an address of this test's own
			const bobEmail = `bob-${crypto.randomUUID().slice(0, 8)}@example.com`;
			await world.signedInUser(bobEmail);
			const searches = [
				'\u0000',
				'bob\u0000',
				'%',
				'_',
				'!',
				'!%',
				'\\',
				'\\%',
				"'; DROP TABLE users; --",
				'" OR 1=1 --',
				'$1',
				'%'.repeat(200),
				'\ufffd',
				'😀'.repeat(100),
				'ｂｏｂ',
				bobEmail.toUpperCase(),
				'\u202ebob'
			];
			for (const q of searches) {
				const response = await admin.request(`/auth/admin?q=${encodeURIComponent(q)}`, { headers: { accept: 'application/json' } });
				expect(response.status, JSON.stringify(q)).toBeLessThan(500);
				if (response.status !== 200) continue;
				const list = (await response.json()) as { total: number; users: { email: string }[] };
				// a wildcard or a metacharacter finds nobody; only the real address (any case) finds bob
				if (q === bobEmail.toUpperCase()) expect(list.users.map((u) => u.email)).toEqual([bobEmail]);
				else if (q !== 'bob\u0000') expect(list.total, JSON.stringify(q)).toBe(0);
			}
			const long = await admin.request(`/auth/admin?q=${'x'.repeat(10_000)}`, { headers: { accept: 'application/json' } });
			expect(await answer(long)).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
		});

		test('ids, credential ids and session ids the database cannot hold are 4xx, never a 5xx', async () => {
			const world = adminWorld(makeAdapter(), strategy);
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser(`bob-${crypto.randomUUID().slice(0, 8)}@example.com`);
			const tricks: [string, Record<string, unknown>][] = [
				['remove-passkey', { userId: bob.user.id, credentialID: 'a\u0000b' }],
				['remove-passkey', { userId: bob.user.id, credentialID: '\ud800' }],
				['remove-passkey', { userId: bob.user.id, credentialID: "' OR '1'='1" }],
				['end-session', { userId: bob.user.id, sessionId: '\u0000' }],
				['ban', { userId: '\ud800' }],
				['ban', { userId: "' OR '1'='1" }],
				['ban', { userId: '00000000-0000-0000-0000-000000000000' }],
				['create-user', { email: 'a\u0000@example.com' }],
				['create-user', { email: 'new@example.com', name: 'a\u0000b' }],
				['create-user', { email: 'new2@example.com', name: '\ud800' }],
				['set-role', { userId: bob.user.id, role: 'a\u0000' }],
				['ban', { userId: bob.user.id, reason: 'a\u0000b' }],
				['ban', { userId: bob.user.id, expires: '+275760-09-13T00:00:00.000Z' }],
				['ban', { userId: bob.user.id, expires: '9999-12-31T23:59:59Z' }],
				['ban', { userId: bob.user.id, days: 36_500 }]
			];
			for (const [op, fields] of tricks) {
				// @auth/pg-adapter's tables keep no passkeys: removing one there is a set-up answer (503 MissingAdapterMethod)
				if (op === 'remove-passkey' && name.includes('pg-adapter')) continue;
				const got = await answer(await admin.postJson(op, fields));
				expect(got.status, `${op} ${JSON.stringify(fields)}: ${JSON.stringify(got.body)}`).toBeLessThan(500);
			}
			// a lone surrogate would be stored as U+FFFD by PostgreSQL: refused, not mangled
			for (const [op, fields] of [
				['create-user', { email: 'surrogate@example.com', name: 'a\ud800' }],
				['ban', { userId: bob.user.id, reason: 'a\udc00' }]
			] as const) {
				expect(await answer(await admin.postJson(op, fields)), op).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
			}
			for (const query of ['%ED%A0%80', '%00', '%C0%AE', `${bob.user.id}%00`]) {
				const id = await admin.request(`/auth/admin/user?id=${query}`, { headers: { accept: 'application/json' } });
				expect(id.status, query).toBeLessThan(500);
			}
		});

		test('another spelling of an admin\'s id (leading zero, sign, spaces, case) is still that admin, or nobody', async () => {
			// sixty refused changes: more than rateLimit.account lets one admin make
			const world = adminWorld(makeAdapter(), strategy, {}, { rateLimit: { store: MemoryRateLimitStore(), account: { perIdentifier: 1000, perAddress: 1000 } } });
			const admin = await world.signedInAdmin();
			const other = await world.signedInAdmin(`other-${crypto.randomUUID().slice(0, 8)}@example.com`);
			for (const target of [admin, other]) {
				const id = target.user.id;
				for (const spelling of [`0${id}`, `00${id}`, `+${id}`, ` ${id}`, `${id} `, `${id}.0`, `${id}e0`, id.toUpperCase(), `${id}\t`, `0x${id}`]) {
					for (const op of ['ban', 'set-role', 'delete-user']) {
						const got = await answer(await admin.postJson(op, { userId: spelling, role: '' }));
						expect([400, 403, 404], `${op} ${JSON.stringify(spelling)}: ${JSON.stringify(got.body)}`).toContain(got.status);
					}
				}
				expect((await world.adapter.getUserAdmin(target.user.id))?.role).toBe('admin');
				expect((await world.adapter.getUserAdmin(target.user.id))?.bannedAt ?? null).toBeNull();
				expect(await target.session()).not.toBeNull();
			}
		});

		test('one address created five times at once, in five spellings, makes one user', async () => {
			const world = adminWorld(makeAdapter(), strategy);
			const admin = await world.signedInAdmin();
			const other = await world.signedInAdmin('other-admin@example.com');
			const local = `new-${crypto.randomUUID().slice(0, 8)}`;
			const spellings = [`${local}@example.com`, `${local.toUpperCase()}@example.com`, `${local}@Example.com`, ` ${local}@example.com`, `${local}@EXAMPLE.COM`];
			const answers = await Promise.all(spellings.map((email, i) => (i % 2 ? other : admin).postJson('create-user', { email }).then(answer)));
			expect(answers.filter((got) => got.status === 200)).toHaveLength(1);
			for (const got of answers.filter((got) => got.status !== 200)) expect(got).toEqual({ status: 409, body: { error: 'UserExists' } });
			expect((await admin.list(`?q=${local}%40example`)).total).toBe(1);
		});

		test('bans, role changes and deletions of one user at once: never a 5xx, no admin record of a deleted user', async () => {
			const world = adminWorld(makeAdapter(), strategy);
			const admin = await world.signedInAdmin();
			const other = await world.signedInAdmin('other-admin@example.com');
			for (let round = 0; round < 3; round++) {
				const bob = await world.signedInUser(`bob${round}-${crypto.randomUUID().slice(0, 8)}@example.com`);
				const answers = await Promise.all([
					admin.postJson('ban', { userId: bob.user.id, reason: 'r' }),
					other.postJson('delete-user', { userId: bob.user.id }),
					admin.postJson('set-role', { userId: bob.user.id, role: 'support' }),
					other.postJson('unban', { userId: bob.user.id })
				]).then((responses) => Promise.all(responses.map(answer)));
				for (const got of answers) expect(got.status, JSON.stringify(answers)).toBeLessThan(500);
				for (const got of answers.filter((got) => got.status !== 200)) expect(got.body.error).toBe('UserNotFound');
				expect(await world.adapter.getUser(bob.user.id)).toBeNull();
				expect(await world.adapter.getUserAdmin(bob.user.id)).toBeNull();
				expect(await bob.session()).toBeNull();
				expect((await world.auditOf(bob.user.id)).length).toBe(answers.filter((got) => got.status === 200).length);
			}
		});
	});
});

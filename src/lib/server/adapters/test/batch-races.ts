// Test helper: races on the SQL adapter where several writes go as one batch (D1, libSQL), whose
// reads cannot share the batch. A gate holds one adapter's next batch after its reads, another
// adapter of the same database writes meanwhile, then the batch runs: what the other wrote must
// survive, and nothing may be written for a row that went.

import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { AdapterAccount, AdapterAuthenticator } from '../../core/types.js';
import { sqlCore } from '../sql/adapter.js';
import type { SQLiteAdapter } from '../sqlite.js';

/**
 * Holds batches of a wrapped D1 binding or libSQL client on request.
 *
 * @example
 * const gate = batchGate();
 * const binding = { prepare: (q) => d1.prepare(q), batch: async (s) => (await gate.pass(), d1.batch(s)) };
 */
export interface BatchGate {
	/** Awaited by the wrapped `batch()` before it runs: at once, unless {@link hold} was called. */
	pass(): Promise<void>;
	/** Holds the next batch: `reached` resolves when it arrives, and it runs after `release()`. */
	hold(): { reached: Promise<void>; release: () => void };
}

/**
 * A gate that lets every batch through until told to hold one.
 *
 * @example
 * const { reached, release } = gate.hold();
 */
export function batchGate(): BatchGate {
	let held: { arrived: () => void; released: Promise<void> } | undefined;
	return {
		async pass() {
			const current = held;
			if (!current) return;
			held = undefined;
			current.arrived();
			await current.released;
		},
		hold() {
			let arrived!: () => void;
			let release!: () => void;
			const reached = new Promise<void>((resolve) => (arrived = resolve));
			const released = new Promise<void>((resolve) => (release = resolve));
			held = { arrived, released };
			return { reached, release };
		}
	};
}

/**
 * Registers the race tests: `make(gate)` gives an adapter whose batches pass `gate`, `make()` one
 * of the same database without a gate.
 *
 * @example
 * batchRaceTests('D1', (gate) => SQLiteAdapter({ d1: gate ? gated(d1, gate) : d1 }));
 */
export function batchRaceTests(label: string, make: (gate?: BatchGate) => Promise<SQLiteAdapter> | SQLiteAdapter): void {
	describe(`${label}: a write read before another one does not undo it`, () => {
		async function twoAdapters() {
			const gate = batchGate();
			const slow = await make(gate);
			const fast = await make();
			await slow.migrate();
			await fast.migrate();
			return { gate, slow, fast };
		}

		async function userWithAccount(adapter: SQLiteAdapter, fields: Partial<AdapterAccount> = {}) {
			const id = crypto.randomUUID();
			const user = await adapter.createUser({ id, email: `${id}@example.com`, emailVerified: null });
			const account: AdapterAccount = {
				userId: user.id,
				type: 'oidc',
				provider: 'idp',
				providerAccountId: id,
				access_token: 'access-0',
				refresh_token: 'refresh-0',
				expires_at: 1000,
				custom_a: 'a-0',
				custom_b: 'b-0',
				...fields
			};
			await adapter.linkAccount(account);
			return { user, account };
		}

		/** The rows of kitgate_account_fields (beside a mapped accounts table) for a provider account. */
		async function accountFieldRows(adapter: SQLiteAdapter, providerAccountId: string): Promise<unknown[]> {
			const db = adapter[sqlCore]();
			const table = await sql`select name from sqlite_master where type = 'table' and name = 'kitgate_account_fields'`.execute(db);
			if (table.rows.length === 0) return [];
			return (await sql`select * from kitgate_account_fields where provider_account_id = ${providerAccountId}`.execute(db)).rows;
		}

		function passkeyOf(userId: string): AdapterAuthenticator {
			return {
				credentialID: crypto.randomUUID(),
				userId,
				providerAccountId: crypto.randomUUID(),
				credentialPublicKey: 'cHVibGljLWtleQ',
				counter: 0,
				credentialDeviceType: 'multiDevice',
				credentialBackedUp: true,
				transports: 'internal'
			};
		}

		test('updateAccount: a rotated refresh token written while another update merges stays', async () => {
			const { gate, slow, fast } = await twoAdapters();
			const { account } = await userWithAccount(fast);
			const { reached, release } = gate.hold();
			const key = { provider: account.provider, providerAccountId: account.providerAccountId };
			const merging = slow.updateAccount({ ...key, access_token: 'access-1', custom_a: 'a-1' });
			await reached; // slow has read the account and merged; its batch waits
			await fast.updateAccount({ ...key, refresh_token: 'refresh-1', expires_at: 2000, custom_b: 'b-1' });
			release();
			const expected = { ...account, access_token: 'access-1', custom_a: 'a-1', refresh_token: 'refresh-1', expires_at: 2000, custom_b: 'b-1' };
			expect(await merging).toEqual(expected);
			expect(await fast.getAccount(account.providerAccountId, account.provider)).toEqual(expected);
		});

		test('updateAccount: an account unlinked while an update merges is not written back', async () => {
			const { gate, slow, fast } = await twoAdapters();
			const { account } = await userWithAccount(fast, { oauth_token_secret: 'secret-0' });
			const { reached, release } = gate.hold();
			const key = { provider: account.provider, providerAccountId: account.providerAccountId };
			const merging = slow.updateAccount({ ...key, access_token: 'access-1', custom_a: 'a-1' });
			await reached;
			await fast.unlinkAccount(key);
			release();
			expect(await merging).toBeNull();
			expect(await fast.getAccount(account.providerAccountId, account.provider)).toBeNull();
			// no row of the account is left behind: its fields beside a mapped accounts table went with it
			expect(await accountFieldRows(fast, account.providerAccountId)).toEqual([]);
		});

		test('updateAuthenticator: a rename and a recorded use at the same time both stay', async () => {
			const { gate, slow, fast } = await twoAdapters();
			const { user } = await userWithAccount(fast);
			const passkey = { ...passkeyOf(user.id), name: 'Phone', createdAt: new Date(1_700_000_000_000) };
			await fast.createAuthenticator(passkey);
			const { reached, release } = gate.hold();
			const renaming = slow.updateAuthenticator(passkey.credentialID, { name: 'Work phone' });
			await reached;
			const lastUsedAt = new Date(1_800_000_000_000);
			await fast.updateAuthenticator(passkey.credentialID, { lastUsedAt });
			release();
			await renaming;
			expect(await fast.getAuthenticator(passkey.credentialID)).toEqual({ ...passkey, name: 'Work phone', lastUsedAt });
		});

		test('updateAuthenticator: a passkey deleted while it is renamed gets no name back when registered again', async () => {
			const { gate, slow, fast } = await twoAdapters();
			const { user } = await userWithAccount(fast);
			const passkey = { ...passkeyOf(user.id), name: 'Phone' };
			await fast.createAuthenticator(passkey);
			const { reached, release } = gate.hold();
			const renaming = slow.updateAuthenticator(passkey.credentialID, { name: 'Secret project laptop' });
			await reached;
			await fast.deleteAuthenticator(passkey.credentialID);
			release();
			await renaming;
			const { name: _, ...unnamed } = passkey;
			await fast.createAuthenticator(unnamed);
			expect(await fast.getAuthenticator(passkey.credentialID)).toEqual(unnamed);
		});
	});

	describe(`${label}: concurrent writes of one key leave exactly one whole row`, () => {
		test('20 linkAccount of one provider account with different fields: the stored account is one attempt, whole', async () => {
			const adapter = await make();
			const id = crypto.randomUUID();
			const user = await adapter.createUser({ id, email: `${id}@example.com`, emailVerified: null });
			const attempts: AdapterAccount[] = Array.from({ length: 20 }, (_, index) => ({
				userId: user.id,
				type: 'oauth',
				provider: 'twitter',
				providerAccountId: id,
				oauth_token: `token-${index}`,
				oauth_token_secret: `secret-${index}`,
				custom_index: index
			}));
			const results = await Promise.allSettled(attempts.map((account) => adapter.linkAccount(account)));
			const winners = attempts.filter((_, index) => results[index]!.status === 'fulfilled');
			expect(winners).toHaveLength(1);
			expect(await adapter.getAccount(id, 'twitter')).toEqual(winners[0]);
		});

		test('8 createUser with one email and 8 createSession with details for one user at once: one user, every session whole', async () => {
			const adapter = await make();
			const email = `${crypto.randomUUID()}@example.com`;
			const users = await Promise.allSettled(Array.from({ length: 8 }, () => adapter.createUser({ id: crypto.randomUUID(), email, emailVerified: null })));
			const created = users.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
			expect(created).toHaveLength(1);
			const owner = created[0]!;
			const sessions = Array.from({ length: 8 }, (_, index) => ({
				sessionToken: crypto.randomUUID(),
				userId: owner.id,
				expires: new Date(Date.now() + 86_400_000),
				createdAt: new Date(1_700_000_000_000 + index),
				userAgent: `agent-${index}`
			}));
			await Promise.all(sessions.map((session) => adapter.createSession(session)));
			const listed = await adapter.listSessionsByUserId(owner.id);
			expect(listed.sort((a, b) => a.userAgent!.localeCompare(b.userAgent!))).toEqual(sessions);
		});
	});
}

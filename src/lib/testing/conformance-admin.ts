// The conformance tests of the adapter methods behind the admin routes (listUsers, getUserAdmin,
// setUserAdmin, createAuditEntry, listAuditEntries), checked when the adapter has them. Internal
// to `kitgate/testing`: runAdapterTests() registers them.
import type * as Vitest from 'vitest';
import type { Adapter, AdapterAuditEntry, AdapterUser } from '../server/core/types.js';

/**
 * What the admin tests need from the suite that registers them: vitest's functions, the adapter
 * (made in the suite's `beforeAll`, hence a getter), and its user factory.
 *
 * @example
 * registerAdminTests({ vitest, adapter: () => raw, createUser });
 */
export interface AdminTestContext {
	vitest: Pick<typeof Vitest, 'describe' | 'expect' | 'test'>;
	adapter: () => Adapter;
	/** Creates a user with random keys; `overrides` replace its fields. */
	createUser: (overrides?: Partial<AdapterUser>) => Promise<AdapterUser>;
}

/**
 * Registers the tests of the admin methods the adapter implements; a method it lacks skips its tests.
 *
 * @example
 * registerAdminTests({ vitest, adapter: () => raw, createUser });
 */
export function registerAdminTests({ vitest, adapter: current, createUser }: AdminTestContext): void {
	const { describe, expect, test } = vitest;
	const adapter = () => current() as Required<Adapter>;
	const has = (...methods: (keyof Adapter)[]) => methods.every((method) => typeof current()[method] === 'function');

	/** The ids `listUsers` returns for `search`, with the total it reports. */
	async function listed(search: string, limit = 100, offset = 0) {
		const page = await adapter().listUsers({ search, limit, offset });
		return { ids: page.users.map((user) => user.id), total: page.total };
	}

	describe('admin (optional methods)', () => {
		test('listUsers: one page of the matching users ordered by email then id, and the total of all matches', async () => {
			if (!has('listUsers')) return;
			const tag = randomTag();
			const lettered = [];
			for (const letter of ['c', 'a', 'e', 'b', 'd']) lettered.push(await createUser({ email: `${tag}-${letter}@example.com`, name: letter.toUpperCase() }));
			const byEmail = [...lettered].sort((a, b) => (a.email < b.email ? -1 : 1)).map((user) => user.id);
			// users without an email sort as '' (first); the id decides between them, so pages never repeat one
			const nameless = [await createUser({ email: '', name: `${tag} nameless` }), await createUser({ email: '', name: `${tag} nameless` })];

			const everything = await listed(tag);
			expect(everything.total).toBe(7);
			expect(new Set(everything.ids.slice(0, 2))).toEqual(new Set(nameless.map((user) => user.id)));
			expect(everything.ids.slice(2)).toEqual(byEmail);

			expect(await listed(tag, 2, 0)).toEqual({ ids: everything.ids.slice(0, 2), total: 7 });
			expect(await listed(tag, 2, 2)).toEqual({ ids: byEmail.slice(0, 2), total: 7 });
			expect(await listed(tag, 2, 6)).toEqual({ ids: byEmail.slice(4), total: 7 });
			expect(await listed(tag, 2, 50)).toEqual({ ids: [], total: 7 });
			expect((await listed(tag, 1, 0)).ids).not.toEqual((await listed(tag, 1, 1)).ids);
		});

		test('listUsers: a limit out of 1–100 and a negative offset are clamped', async () => {
			if (!has('listUsers')) return;
			const tag = randomTag();
			for (let index = 0; index < 3; index++) await createUser({ email: `${tag}-${index}@example.com` });
			const first = await listed(tag, 1, 0);
			expect(await listed(tag, 0, -5)).toEqual(first);
			expect((await listed(tag, 1000, 0)).ids).toHaveLength(3);
			expect((await listed(tag, 2.7, 0.9)).ids).toEqual((await listed(tag, 2, 0)).ids);
		});

		test('listUsers: search is trimmed and case-insensitive, matches part of the email or the name, or the exact id', async () => {
			if (!has('listUsers')) return;
			const tag = randomTag();
			const byEmail = await createUser({ email: `${tag}.ada@example.com`, name: 'Someone' });
			const byName = await createUser({ email: `${randomTag()}@example.com`, name: `Grace ${tag} Hopper` });
			const byId = await createUser({ email: `${randomTag()}@example.com`, name: 'Nobody' });
			// no digit in its email or name: a numbered id (e.g. "17") searched for cannot match them
			const bystander = await createUser({ email: `${randomLetters()}@example.com`, name: 'Bystander' });

			expect(await listed(`${tag}.ADA`)).toEqual({ ids: [byEmail.id], total: 1 });
			expect(await listed(`${tag} hOPPER`.toUpperCase())).toEqual({ ids: [byName.id], total: 1 });
			expect((await listed(`  ${tag}\t`)).total).toBe(2);
			expect((await listed(byId.id)).ids).toContain(byId.id);
			expect((await listed(byId.id)).ids).not.toContain(bystander.id);
			expect((await listed(`${tag}-nobody`)).total).toBe(0);
			// no search, or only spaces: every user
			const all = await listed('   ', 100, 0);
			expect(all.total).toBeGreaterThanOrEqual(4);
			expect(all.total).toBe((await adapter().listUsers({ limit: 1, offset: 0 })).total);
		});

		test('listUsers: % and _ in the search, and the escape character, are literal, not wildcards', async () => {
			if (!has('listUsers')) return;
			const tag = randomTag();
			const percent = await createUser({ email: `${randomTag()}@example.com`, name: `${tag} 100% sure` });
			await createUser({ email: `${randomTag()}@example.com`, name: `${tag} 100x sure` });
			const underscore = await createUser({ email: `${randomTag()}@example.com`, name: `${tag} a_b` });
			await createUser({ email: `${randomTag()}@example.com`, name: `${tag} axb` });
			const backslash = await createUser({ email: `${randomTag()}@example.com`, name: `${tag} c\\d` });
			const bang = await createUser({ email: `${randomTag()}@example.com`, name: `${tag} e!f` });

			expect(await listed(`${tag} 100%`)).toEqual({ ids: [percent.id], total: 1 });
			expect(await listed(`${tag} a_b`)).toEqual({ ids: [underscore.id], total: 1 });
			expect(await listed(`${tag} 1%0`)).toEqual({ ids: [], total: 0 });
			expect(await listed(`${tag}%`)).toEqual({ ids: [], total: 0 });
			expect(await listed(`${tag}_`)).toEqual({ ids: [], total: 0 });
			expect(await listed(`${tag} c\\d`)).toEqual({ ids: [backslash.id], total: 1 });
			expect(await listed(`${tag} c\\`)).toEqual({ ids: [backslash.id], total: 1 });
			expect(await listed(`${tag} c\\%`)).toEqual({ ids: [], total: 0 });
			// characters a LIKE pattern may use to escape
			expect(await listed(`${tag} e!`)).toEqual({ ids: [bang.id], total: 1 });
			expect(await listed(`${tag} e!f`)).toEqual({ ids: [bang.id], total: 1 });
			expect(await listed(`${tag} e!%`)).toEqual({ ids: [], total: 0 });
		});

		test('setUserAdmin writes only the given fields, getUserAdmin reads the whole record', async () => {
			if (!has('getUserAdmin', 'setUserAdmin')) return;
			const [user, other] = [await createUser(), await createUser()];
			expect(await adapter().getUserAdmin(user.id)).toBeNull();
			const empty = { userId: user.id, role: null, bannedAt: null, banReason: null, banExpires: null, createdAt: null, lastSignInAt: null };

			expect(await adapter().setUserAdmin({ userId: user.id, role: 'admin' })).toEqual({ ...empty, role: 'admin' });
			const ban = { bannedAt: new Date('2030-01-02T03:04:05.678Z'), banReason: 'Spam, again', banExpires: new Date('2030-02-03T04:05:06.789Z') };
			const banned = { ...empty, role: 'admin', ...ban };
			expect(await adapter().setUserAdmin({ userId: user.id, ...ban })).toEqual(banned);
			expect(await adapter().getUserAdmin(user.id)).toEqual(banned);
			// nothing given: nothing changes
			expect(await adapter().setUserAdmin({ userId: user.id })).toEqual(banned);

			const times = { createdAt: new Date('2029-12-31T23:59:59.999Z'), lastSignInAt: new Date('2030-03-04T05:06:07.008Z') };
			await adapter().setUserAdmin({ userId: user.id, ...times });
			await adapter().setUserAdmin({ userId: user.id, bannedAt: null, banReason: null, banExpires: null });
			expect(await adapter().getUserAdmin(user.id)).toEqual({ ...empty, role: 'admin', ...times });
			await adapter().setUserAdmin({ userId: user.id, role: null });
			expect(await adapter().getUserAdmin(user.id)).toEqual({ ...empty, ...times });

			expect(await adapter().getUserAdmin(other.id)).toBeNull();
			expect(await adapter().getUserAdmin(randomUUID())).toBeNull();
		});

		test('setUserAdmin of a user that does not exist rejects and stores nothing', async () => {
			if (!has('getUserAdmin', 'setUserAdmin')) return;
			const id = randomUUID();
			await expect(Promise.resolve().then(() => adapter().setUserAdmin({ userId: id, role: 'admin' }))).rejects.toThrow();
			expect(await adapter().getUserAdmin(id)).toBeNull();
		});

		test('concurrent setUserAdmin calls of different fields keep every field', async () => {
			if (!has('getUserAdmin', 'setUserAdmin')) return;
			for (let round = 0; round < 3; round++) {
				const user = await createUser();
				const fields = {
					role: 'support',
					bannedAt: new Date(1_900_000_000_001),
					banReason: 'Chargebacks',
					banExpires: new Date(1_900_000_000_002),
					createdAt: new Date(1_700_000_000_003),
					lastSignInAt: new Date(1_800_000_000_004)
				};
				await Promise.all(Object.entries(fields).map(([field, value]) => adapter().setUserAdmin({ userId: user.id, [field]: value })));
				expect(await adapter().getUserAdmin(user.id)).toEqual({ userId: user.id, ...fields });
			}
		});

		test('deleteUser removes the admin record with the user', async () => {
			if (!has('getUserAdmin', 'setUserAdmin')) return;
			const [doomed, kept] = [await createUser(), await createUser()];
			await adapter().setUserAdmin({ userId: doomed.id, role: 'admin', bannedAt: new Date() });
			await adapter().setUserAdmin({ userId: kept.id, role: 'admin' });
			await adapter().deleteUser(doomed.id);
			expect(await adapter().getUserAdmin(doomed.id)).toBeNull();
			expect((await adapter().getUserAdmin(kept.id))?.role).toBe('admin');
		});

		test('listAuditEntries: the rows where the user is the actor or the subject, newest first, at most limit', async () => {
			if (!has('createAuditEntry', 'listAuditEntries')) return;
			const [admin, user, stranger] = [randomUUID(), randomUUID(), randomUUID()];
			const entry = (at: number, actorId: string | null, subjectId: string | null, action: string, detail: string | null = null): AdapterAuditEntry => ({
				id: randomUUID(),
				at: new Date(at),
				actorId,
				subjectId,
				action,
				detail
			});
			const banned = entry(1_900_000_000_001, admin, user, 'ban', JSON.stringify({ reason: 'spam', expires: null }));
			const unbanned = entry(1_900_000_000_005, admin, user, 'unban');
			const scripted = entry(1_900_000_000_003, null, user, 'set-role', JSON.stringify({ role: 'support' }));
			const elsewhere = entry(1_900_000_000_004, admin, stranger, 'end-sessions');
			const impersonated = entry(1_900_000_000_002, admin, user, 'impersonated:POST /account/name');
			for (const created of [banned, unbanned, scripted, elsewhere, impersonated]) {
				expect(await adapter().createAuditEntry(created)).toEqual(created);
			}

			expect(await adapter().listAuditEntries(user, { limit: 50 })).toEqual([unbanned, scripted, impersonated, banned]);
			expect(await adapter().listAuditEntries(admin, { limit: 50 })).toEqual([unbanned, elsewhere, impersonated, banned]);
			expect(await adapter().listAuditEntries(user, { limit: 2 })).toEqual([unbanned, scripted]);
			expect(await adapter().listAuditEntries(stranger, { limit: 50 })).toEqual([elsewhere]);
			expect(await adapter().listAuditEntries(randomUUID(), { limit: 50 })).toEqual([]);
		});

		test('audit rows outlive the users they name', async () => {
			if (!has('createAuditEntry', 'listAuditEntries')) return;
			const [admin, user] = [await createUser(), await createUser()];
			const row: AdapterAuditEntry = { id: randomUUID(), at: new Date(1_900_000_000_321), actorId: admin.id, subjectId: user.id, action: 'delete-user', detail: null };
			await adapter().createAuditEntry(row);
			await adapter().deleteUser(user.id);
			await adapter().deleteUser(admin.id);
			expect(await adapter().listAuditEntries(user.id, { limit: 10 })).toEqual([row]);
			expect(await adapter().listAuditEntries(admin.id, { limit: 10 })).toEqual([row]);
		});
	});
}

/** A random lowercase tag that no other test's users contain. */
function randomTag(): string {
	return `t${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

/** Random lowercase letters only. */
function randomLetters(): string {
	return [...randomUUID().replace(/-/g, '')].map((digit) => String.fromCharCode(103 + parseInt(digit, 16))).join('');
}

function randomUUID(): string {
	return crypto.randomUUID();
}

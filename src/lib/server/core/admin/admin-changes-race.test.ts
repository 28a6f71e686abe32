// Admin changes racing each other, through `Auth()` on memory and SQLite under both session
// strategies: a ban, role change or session end posted while another admin deletes the user, two
// bans at once, a ban and an unban at once; and a copy of a database session (session.cache)
// racing the ban that should end it. None may answer a 500, leave an admin record of a
// deleted user, or leave an audit row of a change that did not happen.

import { describe, expect, test } from 'vitest';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from '../test/stored-adapters.js';
import { adminWorld } from '../test/admin-fixture.js';
import type { Adapter } from '../types.js';

const adapters = memoryAndSqliteAdapters('admin-race');

async function answer(response: Response): Promise<{ status: number; body: Record<string, unknown> }> {
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		const setUp = () => adminWorld(makeAdapter() as Adapter, strategy);

		test('a change posted while another admin deletes the user is UserNotFound or done, never a 500 or an orphan row', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const other = await world.signedInAdmin('other-admin@example.com');
			for (const op of ['ban', 'unban', 'set-role', 'end-sessions', 'delete-user']) {
				const bob = await world.signedInUser(`bob-${op}@example.com`);
				const [change, deletion] = await Promise.all([
					admin.postJson(op, { userId: bob.user.id, role: 'support', reason: 'spam' }),
					other.postJson('delete-user', { userId: bob.user.id })
				]);
				const changed = await answer(change);
				const deleted = await answer(deletion);
				expect([changed.status, deleted.status].every((status) => status < 500), `${op}: ${JSON.stringify([changed, deleted])}`).toBe(true);
				expect(await world.adapter.getUser(bob.user.id), op).toBeNull();
				expect(await world.adapter.getUserAdmin(bob.user.id), `${op}: no admin record of a deleted user`).toBeNull();
				expect(await bob.session(), op).toBeNull();
				const rows = await world.auditOf(bob.user.id);
				// one row per change that answered success, none for the one refused
				const succeeded = [changed, deleted].filter((got) => got.status === 200).length;
				expect(rows.length, `${op}: ${rows.map((row) => row.action).join(',')}`).toBe(succeeded);
				if (changed.status !== 200) expect(changed.body.error, op).toBe('UserNotFound');
			}
		});

		test('the user deleted between a change\'s check and its write: UserNotFound, no admin record, no audit row of the change', async () => {
			const adapter = makeAdapter();
			// the other admin's deletion lands just before the next write of an admin record
			let deleteFirst: string | undefined;
			const racing = new Proxy(adapter, {
				get(target, key, receiver) {
					if (key !== 'setUserAdmin') return Reflect.get(target, key, receiver);
					return async (changes: Parameters<typeof adapter.setUserAdmin>[0]) => {
						if (deleteFirst === changes.userId) {
							deleteFirst = undefined;
							await target.deleteUser(changes.userId);
						}
						return target.setUserAdmin(changes);
					};
				}
			});
			const world = adminWorld(racing, strategy);
			const admin = await world.signedInAdmin();
			for (const op of ['ban', 'unban', 'set-role']) {
				const bob = await world.signedInUser(`bob-${op}@example.com`);
				deleteFirst = bob.user.id;
				const got = await answer(await admin.postJson(op, { userId: bob.user.id, role: 'support', reason: 'spam' }));
				expect(got, op).toEqual({ status: 404, body: { error: 'UserNotFound' } });
				expect(await world.adapter.getUserAdmin(bob.user.id), op).toBeNull();
				expect(await world.auditOf(bob.user.id), op).toEqual([]);
			}
		});

		test('a deletion or passkey removal another admin made first: UserNotFound / InvalidRequest, one audit row, one event', async () => {
			const adapter = makeAdapter();
			// the other admin's identical change lands between this one's check and its write
			let first: string | undefined;
			const racing = new Proxy(adapter, {
				get(target, key, receiver) {
					if (key !== 'deleteUser' && key !== 'deleteAuthenticator') return Reflect.get(target, key, receiver);
					const method = Reflect.get(target, key, receiver) as (id: string) => Promise<unknown>;
					return async (id: string) => {
						if (first === id) {
							first = undefined;
							await method.call(target, id);
						}
						return method.call(target, id);
					};
				}
			});
			const world = adminWorld(racing, strategy);
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser('bob@example.com');
			const credentialID = await bob.addPasskey();
			first = credentialID;
			const removed = await answer(await admin.postJson('remove-passkey', { userId: bob.user.id, credentialID }));
			expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(500);
			if (removed.status !== 200) expect(removed.body.error).toBe('InvalidRequest');
			expect((await world.auditOf(bob.user.id)).filter((row) => row.action === 'remove-passkey')).toHaveLength(removed.status === 200 ? 1 : 0);
			first = bob.user.id;
			const deleted = await answer(await admin.postJson('delete-user', { userId: bob.user.id }));
			expect(deleted).toEqual({ status: 404, body: { error: 'UserNotFound' } });
			expect((await world.auditOf(bob.user.id)).filter((row) => row.action === 'delete-user')).toEqual([]);
			expect(world.events.filter(([name]) => name === 'deleteUser')).toEqual([]);
		});

		test('two bans, or a ban and an unban, at once leave one consistent record and no session', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const other = await world.signedInAdmin('other-admin@example.com');
			const bob = await world.signedInUser('bob@example.com');
			const both = await Promise.all([admin.postJson('ban', { userId: bob.user.id, reason: 'one' }), other.postJson('ban', { userId: bob.user.id, reason: 'two' })]);
			for (const response of both) expect(response.status).toBe(200);
			expect(await bob.session()).toBeNull();
			const record = await world.adapter.getUserAdmin(bob.user.id);
			expect(['one', 'two']).toContain(record?.banReason);
			expect(record?.bannedAt).not.toBeNull();
			expect((await world.auditOf(bob.user.id)).map((row) => row.action)).toEqual(['ban', 'ban']);
			const [unban, ban] = await Promise.all([admin.postJson('unban', { userId: bob.user.id }), other.postJson('ban', { userId: bob.user.id, reason: 'three' })]);
			expect(unban.status).toBe(200);
			expect(ban.status).toBe(200);
			const after = await world.adapter.getUserAdmin(bob.user.id);
			// whichever came last decides, and a ban keeps its reason with it
			expect(after?.bannedAt === null ? after?.banReason : 'three').toBe(after?.bannedAt === null ? null : after?.banReason);
		});
	});

	test('a ban, an end of sessions or a deletion ends a copy of a database session (session.cache) at once', async () => {
		for (const [op, cache] of [
			['ban', { maxAge: 300 }],
			['end-sessions', { maxAge: 300 }],
			['delete-user', { maxAge: 300 }]
		] as const) {
			const world = adminWorld(makeAdapter() as Adapter, 'database', {}, { session: { strategy: 'database', cache } });
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser(`bob-${op}@example.com`);
			world.clock.now += 5000;
			// the copy cookie is written on a read, then trusted for cache.maxAge
			expect((await bob.session())?.user?.email).toBe(`bob-${op}@example.com`);
			world.clock.now += 5000;
			expect((await bob.session())?.user?.email).toBe(`bob-${op}@example.com`);
			// the browser holds a copy beside its session cookie: the copy is what the attack is about
			expect(bob.client.jar.has('kitgate.session-cache')).toBe(true);
			const done = await admin.postJson(op, { userId: bob.user.id });
			expect(done.status, op).toBe(200);
			world.clock.now += 1000;
			expect(await bob.session(), op).toBeNull();
		}
	});
});

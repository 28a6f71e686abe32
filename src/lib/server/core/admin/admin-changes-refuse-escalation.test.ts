// Attacks by an admin (or a caller posing as one) on the admin changes, through `Auth()` on memory
// and SQLite under both session strategies: role strings that look like `admin`, prototype keys in
// JSON bodies, every change aimed at another admin or at oneself, create-user with an address
// already taken in another form, and `adminApi` with an actor who is not (or no longer) an admin.

import { describe, expect, test } from 'vitest';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from '../test/stored-adapters.js';
import { adminWorld, noticeOf } from '../test/admin-fixture.js';
import { adminApi } from './admin-api.js';
import type { Adapter } from '../types.js';

const adapters = memoryAndSqliteAdapters('admin-escalation');

async function answer(response: Response): Promise<{ status: number; body: unknown }> {
	const text = await response.text();
	return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		const setUp = () => adminWorld(makeAdapter() as Adapter, strategy);

		test('role strings that look like admin never make an admin; the real one does, and then nobody can change them', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser('bob@example.com');
			const lookalikes = ['Admin', 'ADMIN', ' admin', 'admin ', 'admin\u0000', 'admin\n', '\u0430dmin', 'ａｄｍｉｎ', 'admin\u200b', 'adm\u0131n', 'admin,admin', '["admin"]'];
			for (const role of lookalikes) {
				const got = await admin.postJson('set-role', { userId: bob.user.id, role });
				expect([200, 400], JSON.stringify(role)).toContain(got.status);
				const listed = (await admin.detail(bob.user.id)).user;
				expect(listed.isAdmin, JSON.stringify(role)).toBe(false);
			}
			for (const role of [['admin'], { 0: 'admin' }, 1, true]) {
				expect(await answer(await admin.postJson('set-role', { userId: bob.user.id, role })), JSON.stringify(role)).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
			}
			const made = await admin.postJson('set-role', { userId: bob.user.id, role: 'admin' });
			expect(made.status).toBe(200);
			expect((await admin.detail(bob.user.id)).user.isAdmin).toBe(true);
			// from now on bob is an admin: the one who made him cannot take it back
			expect(await answer(await admin.postJson('set-role', { userId: bob.user.id, role: '' }))).toEqual({ status: 403, body: { error: 'AdminTargetForbidden' } });
		});

		test('create-user makes an admin only with the real role; under a list of ids no role makes one', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			for (const role of ['Admin', 'admin\u200b', 'ａｄｍｉｎ']) {
				const made = await admin.postJson('create-user', { email: `lookalike-${crypto.randomUUID().slice(0, 6)}@example.com`, role });
				if (made.status !== 200) continue;
				const { userId } = (await made.json()) as { userId: string };
				expect((await admin.detail(userId)).user.isAdmin, role).toBe(false);
			}
			const real = await admin.postJson('create-user', { email: 'new-admin@example.com', role: 'admin' });
			const { userId } = (await real.json()) as { userId: string };
			expect((await admin.detail(userId)).user.isAdmin).toBe(true);
			expect(await answer(await admin.postJson('delete-user', { userId }))).toEqual({ status: 403, body: { error: 'AdminTargetForbidden' } });

			const byIds = adminWorld(makeAdapter() as Adapter, strategy, { admins: ['nobody'] });
			const listed = await byIds.signedInUser('listed@example.com');
			const ids = adminWorld(byIds.adapter, strategy, { admins: [listed.user.id] });
			const boss = ids.adminBrowser();
			await boss.signInByEmail('listed@example.com');
			const bob = await ids.signedInUser('bob@example.com');
			expect((await boss.postJson('set-role', { userId: bob.user.id, role: 'admin' })).status).toBe(200);
			expect((await boss.detail(bob.user.id)).user.isAdmin).toBe(false);
			// bob, with the role but not on the list, is refused like any user
			expect(await answer(await bob.postJson('ban', { userId: listed.user.id }))).toEqual({ status: 403, body: { error: 'AdminRequired' } });
		});

		test('a JSON body with prototype keys or objects names no user', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser('bob@example.com');
			const csrfToken = await admin.client.csrfToken();
			const bodies = [
				`{"csrfToken":"${csrfToken}","__proto__":{"userId":"${bob.user.id}"}}`,
				`{"csrfToken":"${csrfToken}","constructor":{"prototype":{"userId":"${bob.user.id}"}}}`,
				`{"csrfToken":"${csrfToken}","userId":{"toString":"${bob.user.id}"}}`,
				`{"csrfToken":"${csrfToken}","userId":"__proto__"}`,
				`{"csrfToken":"${csrfToken}","userId":"constructor"}`,
				`{"csrfToken":["${csrfToken}"],"userId":"${bob.user.id}"}`
			];
			for (const body of bodies) {
				const got = await answer(await admin.request('/auth/admin/ban', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
				expect(got.status, body).toBeGreaterThanOrEqual(400);
				expect(got.status, body).toBeLessThan(500);
			}
			for (const userId of [123, 0, true, null, 1e308, -1]) {
				const got = await answer(await admin.postJson('ban', { userId }));
				expect(got, JSON.stringify(userId)).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
			}
			// the query names bob, the body nobody: the body decides, and nobody is no one
			const inQuery = await admin.request(`/auth/admin/ban?userId=${bob.user.id}&csrfToken=${csrfToken}`, { form: { csrfToken, userId: 'nobody' }, headers: { 'x-auth-return-redirect': '1' } });
			expect(await answer(inQuery)).toEqual({ status: 404, body: { error: 'UserNotFound' } });
			const onlyQuery = await admin.request(`/auth/admin/ban?userId=${bob.user.id}&csrfToken=${csrfToken}`, { form: { csrfToken }, headers: { 'x-auth-return-redirect': '1' } });
			expect(await answer(onlyQuery)).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
			expect((await admin.detail(bob.user.id)).user.status).toBe('active');
			expect(await bob.session()).not.toBeNull();
			expect(await world.auditOf(bob.user.id)).toEqual([]);
			expect(({} as Record<string, unknown>).userId).toBeUndefined();
		});

		test('every change to another admin or to oneself is refused and leaves no row', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const other = await world.signedInAdmin('other-admin@example.com');
			const credentialID = await other.addPasskey();
			const ownPasskey = await admin.addPasskey();
			const fieldsFor = (passkey: string) => ({ role: 'user', reason: 'x', days: '1', sessionId: 'x', credentialID: passkey });
			const operations = ['set-role', 'ban', 'unban', 'end-session', 'end-sessions', 'reset-two-factor', 'remove-passkey', 'delete-user', 'impersonate'];
			for (const [target, passkey] of [[other, credentialID], [admin, ownPasskey]] as const) {
				const sessionId = (await admin.detail(target.user.id)).sessions[0]?.id ?? 'none';
				for (const op of operations) {
					const got = await answer(await admin.postJson(op, { userId: target.user.id, ...fieldsFor(passkey), sessionId }));
					expect(got, `${op} on ${target === admin ? 'self' : 'another admin'}`).toEqual({ status: 403, body: { error: 'AdminTargetForbidden' } });
				}
				expect((await world.adapter.getUserAdmin(target.user.id))?.role).toBe('admin');
				expect(await world.adapter.getAuthenticator(passkey)).not.toBeNull();
				expect(await target.session()).not.toBeNull();
			}
			expect(await world.auditOf(other.user.id)).toEqual([]);
			expect(await world.auditOf(admin.user.id)).toEqual([]);
		});

		test('create-user with an address taken in another case or with spaces is UserExists; never a second account', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			await world.signedInUser('bob@example.com');
			for (const email of ['BOB@example.com', 'Bob@Example.COM', ' bob@example.com ', 'bob@EXAMPLE.com']) {
				const got = await answer(await admin.postJson('create-user', { email }));
				expect(got, email).toEqual({ status: 409, body: { error: 'UserExists' } });
			}
			for (const email of ['bob@example.com\u0000', 'bob@example.com,eve@example.com', '<bob@example.com>', ['bob@example.com'], { email: 'bob@example.com' }]) {
				const got = await answer(await admin.postJson('create-user', { email }));
				expect(got.status, JSON.stringify(email)).toBe(400);
			}
			const listed = await admin.list('?q=bob');
			expect(listed.total).toBe(1);
		});

		test('adminApi refuses a non-admin, a deleted admin, a banned admin and an admin demoted between calls', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser('bob@example.com');
			const carol = await world.signedInUser('carol@example.com');
			const system = adminApi(world.config, { system: true, request: 'http://localhost:3000/' });
			const refusedBy = async (call: Promise<unknown>) => ((await call.then(() => null, (error: unknown) => error)) as { type?: string } | null)?.type;
			expect(await refusedBy(adminApi(world.config, { userId: bob.user.id }).ban(carol.user.id))).toBe('AdminRequired');
			expect(await refusedBy(adminApi(world.config, { userId: 'no-such-user' }).listUsers())).toBe('AdminRequired');
			const api = adminApi(world.config, { userId: admin.user.id, request: 'http://localhost:3000/' });
			expect((await api.listUsers()).total).toBe(3);
			await system.setRole(admin.user.id, null);
			expect(await refusedBy(api.ban(carol.user.id))).toBe('AdminRequired');
			await system.setRole(admin.user.id, 'admin');
			await system.ban(admin.user.id, { reason: 'rogue' });
			expect(await refusedBy(api.endSessions(carol.user.id))).toBe('AdminRequired');
			expect(await refusedBy(api.getUser(carol.user.id))).toBe('AdminRequired');
			await system.unban(admin.user.id);
			await system.deleteUser(admin.user.id);
			expect(await refusedBy(api.deleteUser(carol.user.id))).toBe('AdminRequired');
			expect(await carol.session()).not.toBeNull();
			expect((await world.auditOf(carol.user.id)).filter((row) => row.actorId !== null)).toEqual([]);
			// a banned admin's browser is refused too
			const second = await world.signedInAdmin('second@example.com');
			await system.ban(second.user.id);
			expect(noticeOf(await second.post('end-sessions', { userId: carol.user.id })).error ?? 'refused').not.toBeNull();
			expect(await carol.session()).not.toBeNull();
		});
	});
});

// Each admin change through the routes (`Auth()` on memory and SQLite, both session strategies):
// its effect on the stored user and their sessions, its audit row and its `adminAction` event;
// banning ends a JWT session and a database session at once.

import { describe, expect, test } from 'vitest';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from '../test/stored-adapters.js';
import { adminWorld, noticeOf } from '../test/admin-fixture.js';
import { UA_SAFARI } from '../test/account-fixture.js';
import type { Adapter } from '../types.js';

// SQLite joins as soon as its adapter stores admin records (the storage branch of issue 32)
const adapters = memoryAndSqliteAdapters('admin-changes').filter(([, make]) => typeof (make() as Adapter).listUsers === 'function');

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		const setUp = () => adminWorld(makeAdapter(), strategy);

		test('ban: every session of the user ends at once, the audit row and the event follow; unban lifts it', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const laptop = await world.signedInUser('bob@example.com');
			const phone = await world.signedInUser('bob@example.com', UA_SAFARI);
			expect((await laptop.session())?.user?.email).toBe('bob@example.com');
			const bob = laptop.user;

			const banned = await admin.post('ban', { userId: bob.id, reason: 'spam links', days: '7' });
			const bannedAt = world.clock.now;
			expect(banned.status).toBe(302);
			expect(noticeOf(banned).admin).toBe('banned');
			expect(new URL(banned.headers.get('location')!).pathname).toBe('/auth/admin/user');

			// both browsers are signed out on their next request
			expect(await laptop.session()).toBeNull();
			expect(await phone.session()).toBeNull();
			const record = await world.adapter.getUserAdmin(bob.id);
			expect(record?.bannedAt?.getTime()).toBe(bannedAt);
			expect(record?.banReason).toBe('spam links');
			expect(record?.banExpires?.getTime()).toBe(bannedAt + 7 * 86_400_000);
			const detail = await admin.detail(bob.id);
			expect(detail.user.status).toBe('banned');
			expect(detail.user.banReason).toBe('spam links');

			const [row] = await world.auditOf(bob.id);
			expect(row).toMatchObject({ action: 'ban', actorId: admin.user.id, subjectId: bob.id });
			expect(JSON.parse(row.detail!)).toEqual({ reason: 'spam links', expires: new Date(bannedAt + 7 * 86_400_000).toISOString() });
			expect(world.adminActions.at(-1)).toEqual({ action: 'ban', actorId: admin.user.id, subjectId: bob.id, detail: { reason: 'spam links', expires: record?.banExpires?.toISOString() }, impersonated: false });

			const unbanned = await admin.post('unban', { userId: bob.id });
			expect(noticeOf(unbanned).admin).toBe('unbanned');
			expect((await admin.detail(bob.id)).user.status).toBe('active');
			expect((await world.auditOf(bob.id))[0].action).toBe('unban');
		});

		test('a ban whose end has passed is no ban', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser('bob@example.com');
			await admin.post('ban', { userId: bob.user.id, days: '1' });
			expect((await admin.detail(bob.user.id)).user.status).toBe('banned');
			world.clock.now += 86_400_000 + 1000;
			const detail = await admin.detail(bob.user.id);
			expect(detail.user.status).toBe('active');
			expect(detail.user.banExpires).toBeNull();
		});

		test('end-session ends that one session, end-sessions ends them all; another user\'s session id is refused', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const laptop = await world.signedInUser('bob@example.com');
			const phone = await world.signedInUser('bob@example.com', UA_SAFARI);
			const carol = await world.signedInUser('carol@example.com');
			const sessions = (await admin.detail(laptop.user.id)).sessions;
			// JWT sessions are listed one by one too (account.listJwtSessions is on with an adapter that lists)
			{
				expect(sessions).toHaveLength(2);
				const safari = sessions.find((s) => s.browser === 'Safari')!;
				const carolsId = (await admin.detail(carol.user.id)).sessions[0].id;
				const foreign = await admin.postJson('end-session', { userId: laptop.user.id, sessionId: carolsId });
				expect(foreign.status).toBe(400);
				expect(await foreign.json()).toEqual({ error: 'InvalidRequest' });
				expect(await carol.session()).not.toBeNull();

				const ended = await admin.postJson('end-session', { userId: laptop.user.id, sessionId: safari.id });
				expect(await ended.json()).toMatchObject({ result: 'session-ended' });
				expect(await phone.session()).toBeNull();
				expect(await laptop.session()).not.toBeNull();
				expect((await world.auditOf(laptop.user.id))[0]).toMatchObject({ action: 'end-session', detail: JSON.stringify({ sessionId: safari.id }) });
			}
			const all = await admin.postJson('end-sessions', { userId: laptop.user.id });
			expect(await all.json()).toMatchObject({ result: 'sessions-ended' });
			expect(await laptop.session()).toBeNull();
			expect(await phone.session()).toBeNull();
			expect(await carol.session()).not.toBeNull();
			expect(world.adminActions.at(-1)).toMatchObject({ action: 'end-sessions', subjectId: laptop.user.id });
		});

		test('reset-two-factor removes the second factor, ends the sessions and mails the user', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser('bob@example.com');
			await world.adapter.setTwoFactor({ userId: bob.user.id, totpSecret: 'sealed', recoveryCodes: ['hash'], lastUsedStep: null, createdAt: new Date(world.clock.now) });
			expect((await admin.detail(bob.user.id)).twoFactor).toMatchObject({ enabled: true });

			const reset = await admin.post('reset-two-factor', { userId: bob.user.id });
			expect(noticeOf(reset).admin).toBe('two-factor-reset');
			expect(await world.adapter.getTwoFactor(bob.user.id)).toBeNull();
			expect(await bob.session()).toBeNull();
			expect(world.mails.at(-1)).toMatchObject({ kind: 'security-notice', change: 'two-factor-removed', identifier: 'bob@example.com' });
			expect((await world.auditOf(bob.user.id))[0]).toMatchObject({ action: 'reset-two-factor', actorId: admin.user.id });

			const again = await admin.post('reset-two-factor', { userId: bob.user.id });
			expect(noticeOf(again).adminError).toBe('TwoFactorNotEnabled');
		});

		test('remove-passkey removes that passkey of the user only', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser('bob@example.com');
			const bobsKey = await bob.addPasskey();
			const carol = await world.signedInUser('carol@example.com');
			const carolsKey = await carol.addPasskey();

			const foreign = await admin.post('remove-passkey', { userId: bob.user.id, credentialID: carolsKey });
			expect(noticeOf(foreign).adminError).toBe('InvalidRequest');
			expect(await world.adapter.getAuthenticator(carolsKey)).not.toBeNull();

			const removed = await admin.post('remove-passkey', { userId: bob.user.id, credentialID: bobsKey });
			expect(noticeOf(removed).admin).toBe('passkey-removed');
			expect(await world.adapter.getAuthenticator(bobsKey)).toBeNull();
			expect((await world.adapter.listAccountsByUserId(bob.user.id)).some((a) => a.type === 'webauthn')).toBe(false);
			expect(world.mails.at(-1)).toMatchObject({ change: 'passkey-removed', identifier: 'bob@example.com' });
			expect((await world.auditOf(bob.user.id))[0]).toMatchObject({ action: 'remove-passkey', detail: JSON.stringify({ credentialID: bobsKey }) });
		});

		test('delete-user deletes the user and ends their sessions; the audit trail stays', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser('bob@example.com');
			const deleted = await admin.post('delete-user', { userId: bob.user.id });
			expect(noticeOf(deleted).admin).toBe('user-deleted');
			expect(new URL(deleted.headers.get('location')!).pathname).toBe('/auth/admin');
			expect(await world.adapter.getUser(bob.user.id)).toBeNull();
			expect(await bob.session()).toBeNull();
			expect((await world.auditOf(bob.user.id))[0]).toMatchObject({ action: 'delete-user', subjectId: bob.user.id });
			expect(world.eventNames()).toContain('deleteUser');
			// the admin's own trail lists it too, the subject shown without an address once gone
			const trail = (await admin.detail(admin.user.id)).audit;
			expect(trail[0]).toMatchObject({ action: 'delete-user', subject: { id: bob.user.id, email: null }, actor: { id: admin.user.id, email: 'admin@example.com' } });
		});

		test('create-user stores a normalized address, refuses a taken one, and set-role makes an admin the others cannot change', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const created = await admin.postJson('create-user', { email: '  Dana@Example.COM ', name: 'Dana' });
			const body = (await created.json()) as { result: string; url: string; userId: string };
			expect(body.result).toBe('user-created');
			const dana = await world.adapter.getUser(body.userId);
			expect(dana).toMatchObject({ email: 'dana@example.com', name: 'Dana', emailVerified: null });
			expect(new URL(body.url).searchParams.get('id')).toBe(body.userId);
			expect((await world.adapter.getUserAdmin(body.userId))?.createdAt?.getTime()).toBe(world.clock.now);
			expect((await world.auditOf(body.userId))[0]).toMatchObject({ action: 'create-user', detail: JSON.stringify({ email: 'dana@example.com', role: null }) });

			const taken = await admin.postJson('create-user', { email: 'DANA@example.com' });
			expect(taken.status).toBe(409);
			expect(await taken.json()).toEqual({ error: 'UserExists' });

			const promoted = await admin.postJson('set-role', { userId: body.userId, role: 'admin' });
			expect(await promoted.json()).toMatchObject({ result: 'role-set' });
			expect((await admin.detail(body.userId)).user).toMatchObject({ role: 'admin', isAdmin: true });
			expect((await world.auditOf(body.userId))[0]).toMatchObject({ action: 'set-role', detail: JSON.stringify({ role: 'admin', previous: null }) });
			const refused = await admin.postJson('set-role', { userId: body.userId, role: '' });
			expect(refused.status).toBe(403);
			expect(await refused.json()).toEqual({ error: 'AdminTargetForbidden' });
		});

		test('a browser gets the admin pages (list and detail) with the notice of the last change', async () => {
			const world = setUp();
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser('bob@example.com');
			const list = await admin.request('/auth/admin?admin=banned', { headers: { accept: 'text/html' } });
			expect(list.status).toBe(200);
			expect(list.headers.get('content-type')).toMatch(/^text\/html/);
			expect(await list.text()).toContain('bob@example.com');
			const detail = await admin.request(`/auth/admin/user?id=${encodeURIComponent(bob.user.id)}`, { headers: { accept: 'text/html' } });
			expect(detail.status).toBe(200);
			expect(await detail.text()).toContain('bob@example.com');
		});
	});

	test.each(['jwt', 'database'] as const)('an impersonation started at POST /admin/impersonate is refused every admin route with ImpersonationForbidden, until stop-impersonating gives the admin back (%s sessions)', async (strategy) => {
		const world = adminWorld(makeAdapter(), strategy);
		const admin = await world.signedInAdmin();
		const bob = await world.signedInUser('bob@example.com');
		const carol = await world.signedInUser('carol@example.com');
		const started = await admin.post('impersonate', { userId: bob.user.id, confirm: 'yes' });
		expect(noticeOf(started).admin).toBe('impersonating');
		expect((await admin.session())?.user?.email).toBe('bob@example.com');
		const read = await admin.request('/auth/admin', { headers: { accept: 'application/json' } });
		expect(read.status).toBe(403);
		expect(await read.json()).toEqual({ error: 'ImpersonationForbidden' });
		const ban = await admin.postJson('ban', { userId: carol.user.id });
		expect(await ban.json()).toEqual({ error: 'ImpersonationForbidden' });
		expect(await carol.session()).not.toBeNull();
		expect((await world.auditOf(carol.user.id)).map((row) => row.action)).not.toContain('ban');
		const stopped = await admin.post('stop-impersonating');
		expect(noticeOf(stopped).admin).toBe('impersonation-stopped');
		expect(new URL(stopped.headers.get('location')!).searchParams.get('id')).toBe(bob.user.id);
		expect((await admin.session())?.user?.email).toBe('admin@example.com');
		expect((await admin.list()).total).toBeGreaterThanOrEqual(3);
		expect((await world.auditOf(bob.user.id)).map((row) => row.action)).toEqual(expect.arrayContaining(['impersonate', 'stop-impersonating']));
	});

});

test('without `admin` in the config there are no admin routes (404 UnknownAction)', async () => {
	const world = adminWorld(adapters[0][1](), 'jwt', null);
	const browser = world.adminBrowser();
	const read = await browser.request('/auth/admin', { headers: { accept: 'application/json' } });
	expect(read.status).toBe(404);
	expect(await read.json()).toEqual({ error: 'UnknownAction' });
	expect((await browser.postJson('ban', { userId: 'x' })).status).toBe(404);
});

test('admin changes count under rateLimit.account, per admin: over the limit, 429 RateLimited with Retry-After', async () => {
	const world = adminWorld(adapters[0][1](), 'database', {}, { rateLimit: { account: { perIdentifier: 2, perAddress: 100 } } });
	const admin = await world.signedInAdmin();
	const bob = await world.signedInUser('bob@example.com');
	expect((await admin.postJson('end-sessions', { userId: bob.user.id })).status).toBe(200);
	expect((await admin.postJson('unban', { userId: bob.user.id })).status).toBe(200);
	const limited = await admin.postJson('ban', { userId: bob.user.id });
	expect(limited.status).toBe(429);
	expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
	expect(await world.adapter.getUserAdmin(bob.user.id)).toMatchObject({ bannedAt: null });
	const form = await admin.post('ban', { userId: bob.user.id });
	expect(noticeOf(form).adminError).toBe('RateLimited');
	// the admin's own account changes are counted apart
	expect((await admin.changeJson('end-session', { sessionId: 'none' })).status).toBe(400);
});

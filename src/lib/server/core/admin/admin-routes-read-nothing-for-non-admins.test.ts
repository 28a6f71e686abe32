// Enumeration by a non-admin, measured where it would leak: the adapter. Whatever id, search or
// operation a signed-in non-admin (or a stranger) names, the admin routes read only the caller's
// own user and record before refusing, so neither the answer nor its timing can depend on another
// user. Also: no CORS opening on the JSON answers, and an admin cannot end a session of another
// user by naming it under a user they may change.

import { describe, expect, test } from 'vitest';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from '../test/stored-adapters.js';
import { adminWorld } from '../test/admin-fixture.js';
import type { Adapter } from '../types.js';

const adapters = memoryAndSqliteAdapters('admin-read-nothing');

/** The adapter, noting every call with its first argument while `watching` is on. */
function watched(adapter: Adapter) {
	const calls: [string, unknown][] = [];
	const state = { watching: false };
	const proxy = new Proxy(adapter, {
		get(target, key, receiver) {
			const value = Reflect.get(target, key, receiver);
			if (typeof value !== 'function' || typeof key !== 'string') return value;
			return (...args: unknown[]) => {
				if (state.watching) calls.push([key, args[0]]);
				return (value as (...a: unknown[]) => unknown).apply(target, args);
			};
		}
	});
	return { proxy, calls, state };
}

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		test('a non-admin\'s admin requests read nothing of any other user', async () => {
			const { proxy, calls, state } = watched(makeAdapter());
			const world = adminWorld(proxy, strategy);
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser('bob@example.com');
			const eve = await world.signedInUser('eve@example.com');
			const stranger = world.adminBrowser();
			state.watching = true;
			for (const caller of [eve, stranger]) {
				for (const path of ['/auth/admin', '/auth/admin?q=bob', `/auth/admin/user?id=${bob.user.id}`, `/auth/admin/user?id=${admin.user.id}`, '/auth/admin/user?id=nobody']) {
					const got = await caller.request(path, { headers: { accept: 'application/json' } });
					expect(got.status, path).toBe(403);
				}
				for (const op of ['ban', 'set-role', 'delete-user', 'end-session', 'remove-passkey', 'create-user', 'reset-two-factor']) {
					for (const userId of [bob.user.id, admin.user.id, 'nobody']) {
						const got = await caller.postJson(op, { userId, email: 'bob@example.com', role: 'admin', sessionId: 'x', credentialID: 'x' });
						expect(got.status, `${op} ${userId}`).toBe(403);
					}
				}
			}
			state.watching = false;
			// the proxy saw the callers' own reads: the check below is not vacuous
			expect(calls.length).toBeGreaterThan(0);
			const others = calls.filter(([, arg]) => {
				const text = JSON.stringify(arg ?? null);
				return text.includes(bob.user.id) || text.includes(admin.user.id) || text.includes('bob@') || text.includes('nobody');
			});
			expect(others).toEqual([]);
			expect(calls.map(([method]) => method).filter((method) => ['listUsers', 'listAuditEntries', 'getUserByEmail', 'createUser', 'setUserAdmin'].includes(method))).toEqual([]);
			expect(eve.user.id).not.toBe(bob.user.id);
		});

		test('the admin JSON opens no CORS door, and a session id of another user is refused like a missing one', async () => {
			const world = adminWorld(makeAdapter(), strategy, {}, { account: { listJwtSessions: true } } as never);
			const admin = await world.signedInAdmin();
			const bob = await world.signedInUser('bob@example.com');
			const carol = await world.signedInUser('carol@example.com');
			const list = await admin.request('/auth/admin', { headers: { accept: 'application/json', origin: 'https://evil.example' } });
			expect(list.status).toBe(200);
			expect(list.headers.get('access-control-allow-origin')).toBeNull();
			expect(list.headers.get('access-control-allow-credentials')).toBeNull();
			const carolsSession = (await admin.detail(carol.user.id)).sessions[0]?.id;
			if (strategy === 'database') expect(carolsSession).toBeDefined();
			if (carolsSession) {
				const got = await admin.postJson('end-session', { userId: bob.user.id, sessionId: carolsSession });
				expect(await got.json()).toEqual({ error: 'InvalidRequest' });
				expect(await carol.session()).not.toBeNull();
			}
			const bobsPasskey = await bob.addPasskey();
			const wrongOwner = await admin.postJson('remove-passkey', { userId: carol.user.id, credentialID: bobsPasskey });
			expect(await wrongOwner.json()).toEqual({ error: 'InvalidRequest' });
			expect(await world.adapter.getAuthenticator(bobsPasskey)).not.toBeNull();
			expect(await world.auditOf(carol.user.id)).toEqual([]);
		});
	});
});

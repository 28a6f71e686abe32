// Hostile input to the admin routes, generated (`Auth()` on memory, JWT sessions): any JSON body
// to any operation, any query to the list and the detail, from the signed-in admin, is answered
// with a success or a 4xx with a stable code, never a 500, and never changes an admin.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { isErrorType } from '../errors.js';
import { adminWorld } from '../test/admin-fixture.js';

const OPERATIONS = ['create-user', 'set-role', 'ban', 'unban', 'end-session', 'end-sessions', 'reset-two-factor', 'remove-passkey', 'delete-user', 'impersonate'];
const FIELDS = ['userId', 'role', 'reason', 'expires', 'days', 'sessionId', 'credentialID', 'email', 'name', 'callbackUrl'];

describe('hostile input to the admin routes', () => {
	test('any JSON body to any change: a result or a 4xx with a known code, and the admins stay admins', async () => {
		// no rate limit: every generated change must reach the operation's own checks
		const world = adminWorld(MemoryAdapter(), 'jwt', {}, { rateLimit: false });
		const statuses = new Set<number>();
		const admin = await world.signedInAdmin();
		const bob = await world.signedInUser('bob@example.com');
		const ids = [admin.user.id, bob.user.id, 'nobody', '', '../x', '%', '\u0000'];
		const body = fc.dictionary(
			fc.constantFrom(...FIELDS),
			fc.oneof(fc.constantFrom(...ids), fc.string({ maxLength: 40 }), fc.integer(), fc.constant(null), fc.array(fc.constantFrom(...ids), { maxLength: 2 }), fc.object({ maxDepth: 1 }))
		);
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...OPERATIONS), body, async (operation, fields) => {
				const response = await admin.postJson(operation, fields);
				expect(response.status, `${operation} ${JSON.stringify(fields)}`).toBeLessThan(500);
				statuses.add(response.status);
				const answer = (await response.json()) as { result?: string; error?: string };
				if (response.status >= 400) expect(isErrorType(answer.error), JSON.stringify(answer)).toBe(true);
				else expect(typeof answer.result).toBe('string');
				// the admin-on-admin rule holds whatever came in
				expect((await world.adapter.getUserAdmin(admin.user.id))?.role).toBe('admin');
				expect(await world.adapter.getUser(admin.user.id)).not.toBeNull();
			}),
			{ numRuns: 150, seed: 32 }
		);
		// the generator reaches the operations: some changes go through, and none was rate-limited
		expect(statuses.has(200)).toBe(true);
		expect(statuses.has(429)).toBe(false);
	});

	test('any query to the list and the detail: 200 or a 4xx with a known code', async () => {
		const world = adminWorld(MemoryAdapter(), 'jwt');
		const admin = await world.signedInAdmin();
		const query = fc.array(fc.tuple(fc.constantFrom('q', 'page', 'id', 'admin', 'adminError'), fc.string({ maxLength: 300 })), { maxLength: 4 });
		await fc.assert(
			fc.asyncProperty(fc.constantFrom('/auth/admin', '/auth/admin/user'), query, async (path, pairs) => {
				const response = await admin.request(`${path}?${new URLSearchParams(pairs).toString()}`, { headers: { accept: 'application/json' } });
				expect(response.status, `${path} ${JSON.stringify(pairs)}`).toBeLessThan(500);
				if (response.status >= 400) expect(isErrorType(((await response.json()) as { error?: string }).error)).toBe(true);
			}),
			{ numRuns: 150, seed: 32 }
		);
	});
});

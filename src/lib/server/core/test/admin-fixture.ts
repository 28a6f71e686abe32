// Shared set-up of the admin route tests: the account test world (email links and account mails
// captured, passkeys, a clock) with `admin` on, an admin signed in by email, and helpers that call
// the admin routes through `Auth()` and read the audit trail and the `adminAction` events.

import { expect } from 'vitest';
import type { Adapter, AdminOptions, AuthConfig } from '../types.js';
import type { AdminUserDetail, AdminUserList } from '../admin-types.js';
import { accountWorld, UA_FIREFOX } from './account-fixture.js';

/** An `adminAction` event as recorded. */
export interface RecordedAdminAction {
	action: string;
	actorId: string | null;
	subjectId: string | null;
	detail: Record<string, unknown> | null;
	impersonated: boolean;
}

/**
 * One admin test world on `adapter` with `strategy` sessions and `admin` options (default
 * `{ admins: 'role' }`; null: no `admin` in the config).
 *
 * @example
 * const world = adminWorld(MemoryAdapter(), 'jwt');
 * const admin = await world.signedInAdmin();
 */
export function adminWorld(adapter: Adapter, strategy: 'jwt' | 'database', admin: AdminOptions | null = {}, overrides: Partial<AuthConfig> = {}) {
	const world = accountWorld(adapter, strategy, { admin: admin ?? undefined, ...overrides });
	const adminActions: RecordedAdminAction[] = [];
	world.config.events = { ...world.config.events, adminAction: (message) => void adminActions.push(message) };

	function adminBrowser(userAgent = UA_FIREFOX) {
		const b = world.browser(userAgent);

		/** `GET /auth/admin` as JSON. */
		async function list(query = ''): Promise<AdminUserList> {
			const response = await b.request(`/auth/admin${query}`, { headers: { accept: 'application/json' } });
			expect(response.status, `GET /auth/admin${query}`).toBe(200);
			return (await response.json()) as AdminUserList;
		}

		/** `GET /auth/admin/user?id=` as JSON. */
		async function detail(userId: string): Promise<AdminUserDetail> {
			const response = await b.request(`/auth/admin/user?id=${encodeURIComponent(userId)}`, { headers: { accept: 'application/json' } });
			expect(response.status, `GET /auth/admin/user?id=${userId}`).toBe(200);
			return (await response.json()) as AdminUserDetail;
		}

		/** Posts an admin change as a form with this browser's CSRF token (unless given), a second after the last one (the trail is ordered by time). */
		async function post(operation: string, fields: Record<string, string> = {}): Promise<Response> {
			world.clock.now += 1000;
			const csrfToken = fields.csrfToken ?? (await b.client.csrfToken());
			return b.request(`/auth/admin/${operation}`, { form: { ...fields, csrfToken } });
		}

		/** Posts an admin change as JSON (a script caller). */
		async function postJson(operation: string, fields: Record<string, unknown> = {}): Promise<Response> {
			world.clock.now += 1000;
			const csrfToken = await b.client.csrfToken();
			return b.request(`/auth/admin/${operation}`, { json: { csrfToken, ...fields } });
		}

		return { ...b, list, detail, post, postJson };
	}

	/** A browser signed in by email as `address`, whose user is then given the role `admin`. */
	async function signedInAdmin(address = 'admin@example.com', userAgent = UA_FIREFOX) {
		const b = adminBrowser(userAgent);
		await b.signInByEmail(address);
		const user = await world.userOf(address);
		await world.adapter.setUserAdmin({ userId: user.id, role: 'admin' });
		return Object.assign(b, { user });
	}

	/** A browser of a plain user signed in by email. */
	async function signedInUser(address: string, userAgent = UA_FIREFOX) {
		const b = adminBrowser(userAgent);
		await b.signInByEmail(address);
		return Object.assign(b, { user: await world.userOf(address) });
	}

	/** The audit rows of `userId` as the adapter keeps them, newest first. */
	function auditOf(userId: string) {
		return world.adapter.listAuditEntries(userId, { limit: 100 });
	}

	return { ...world, adminActions, adminBrowser, signedInAdmin, signedInUser, auditOf };
}

/** The `?admin=` or `?adminError=` of a redirect. */
export function noticeOf(response: Response): { admin: string | null; adminError: string | null; error: string | null } {
	const location = response.headers.get('location');
	const query = location ? new URL(location).searchParams : new URLSearchParams();
	return { admin: query.get('admin'), adminError: query.get('adminError'), error: query.get('error') };
}

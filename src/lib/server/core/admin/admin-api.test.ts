// `adminApi(config, actor)`: the actor is checked to be an admin on every call (never cached: a
// demoted admin is refused on their next call), a script (`{ system: true }`) may change admins
// and is audited without an actor, targets must exist, and inputs are validated before anything
// is read. On memory and SQLite, both session strategies.

import { describe, expect, test } from 'vitest';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from '../test/stored-adapters.js';
import { TEST_SECRET } from '../test/client.js';
import type { AccountEmailParams } from '../../../index.js';
import type { Adapter, AdminOptions, AuthConfig, EmailConfig } from '../types.js';
import { adminApi } from './admin-api.js';

const adapters = memoryAndSqliteAdapters('admin-api').filter(([, make]) => typeof (make() as Adapter).listUsers === 'function');

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		async function world(admin: AdminOptions = {}, extra: Partial<AuthConfig> = {}) {
			const adapter = makeAdapter();
			const clock = { now: Date.UTC(2026, 5, 1, 12) };
			const actions: unknown[] = [];
			const config: AuthConfig = {
				providers: [],
				secret: TEST_SECRET,
				adapter,
				session: { strategy },
				admin,
				now: () => clock.now,
				events: { adminAction: (message) => void actions.push(message) },
				...extra
			};
			const boss = await adapter.createUser({ id: 'boss', email: 'boss@example.com', emailVerified: null });
			const other = await adapter.createUser({ id: 'other', email: 'other@example.com', emailVerified: null });
			const user = await adapter.createUser({ id: 'user', email: 'user@example.com', emailVerified: null });
			await adapter.setUserAdmin({ userId: 'boss', role: 'admin' });
			await adapter.setUserAdmin({ userId: 'other', role: 'admin' });
			return { adapter, config, clock, actions, boss, other, user };
		}

		test('an admin actor is checked on every call: demoted, the next call is AdminRequired', async () => {
			const { adapter, config } = await world();
			const api = adminApi(config, { userId: 'boss' });
			expect((await api.listUsers()).total).toBe(3);
			await adapter.setUserAdmin({ userId: 'boss', role: null });
			await expect(api.listUsers()).rejects.toMatchObject({ type: 'AdminRequired' });
			await expect(adminApi(config, { userId: 'user' }).getUser('user')).rejects.toMatchObject({ type: 'AdminRequired' });
			await expect(adminApi(config, { userId: 'no-such' }).listUsers()).rejects.toMatchObject({ type: 'AdminRequired' });
		});

		test('a non-admin actor learns nothing: the same refusal for a user who exists and one who does not', async () => {
			const { config } = await world();
			const api = adminApi(config, { userId: 'user' });
			const refusals = await Promise.all([api.getUser('boss'), api.getUser('nobody'), api.ban('boss'), api.ban('nobody')].map((call) => call.catch((error: unknown) => error)));
			for (const refusal of refusals) expect(refusal).toMatchObject({ type: 'AdminRequired', message: 'Only an admin may do this.' });
		});

		test('a script may change an admin, audited without an actor; an admin may not', async () => {
			const { adapter, config, actions } = await world();
			await expect(adminApi(config, { userId: 'boss' }).ban('other')).rejects.toMatchObject({ type: 'AdminTargetForbidden' });
			await expect(adminApi(config, { userId: 'boss' }).setRole('boss', null)).rejects.toMatchObject({ type: 'AdminTargetForbidden' });
			await adminApi(config, { system: true }).setRole('other', null);
			expect((await adapter.getUserAdmin('other'))?.role).toBeNull();
			const [row] = await adapter.listAuditEntries('other', { limit: 5 });
			expect(row).toMatchObject({ action: 'set-role', actorId: null, subjectId: 'other', detail: JSON.stringify({ role: null, previous: 'admin' }) });
			expect(actions).toEqual([{ action: 'set-role', actorId: null, subjectId: 'other', detail: { role: null, previous: 'admin' }, impersonated: false }]);
		});

		test('an admin list of ids decides under admins: [ids], whatever the role', async () => {
			const { config } = await world({ admins: ['user'] });
			await expect(adminApi(config, { userId: 'boss' }).listUsers()).rejects.toMatchObject({ type: 'AdminRequired' });
			const detail = await adminApi(config, { userId: 'user' }).getUser('boss');
			expect(detail.user).toMatchObject({ id: 'boss', isAdmin: false, role: 'admin' });
			expect(detail.canAct).toBe(true);
			expect(detail.canImpersonate).toBe(true);
		});

		test('targets must exist, inputs are checked before anything changes', async () => {
			const { adapter, config, clock } = await world();
			const api = adminApi(config, { userId: 'boss' });
			await expect(api.ban('nobody')).rejects.toMatchObject({ type: 'UserNotFound' });
			await expect(api.ban('user', { reason: 'r'.repeat(501) })).rejects.toMatchObject({ type: 'InvalidRequest' });
			await expect(api.ban('user', { expires: new Date(clock.now - 1) })).rejects.toMatchObject({ type: 'InvalidRequest', message: 'A ban must end in the future.' });
			await expect(api.ban('user', { expires: 'tomorrow-ish' })).rejects.toMatchObject({ type: 'InvalidRequest' });
			await expect(api.ban('user', { days: 0 })).rejects.toMatchObject({ type: 'InvalidRequest' });
			await expect(api.setRole('user', 'ad min')).rejects.toMatchObject({ type: 'InvalidRequest' });
			await expect(api.createUser({ email: 'two@example.com, three@example.com' })).rejects.toMatchObject({ type: 'InvalidRequest' });
			await expect(api.createUser({ email: 'USER@example.com' })).rejects.toMatchObject({ type: 'UserExists' });
			expect(await adapter.getUserAdmin('user')).toBeNull();
			expect(await api.listAudit('user')).toEqual([]);
			await api.ban('user', { reason: ' spam\nagain ', expires: new Date(clock.now + 3_600_000).toISOString() });
			expect(await adapter.getUserAdmin('user')).toMatchObject({ banReason: 'spam\nagain', banExpires: new Date(clock.now + 3_600_000) });
			const [entry] = await api.listAudit('user');
			expect(entry).toMatchObject({ action: 'ban', actor: { id: 'boss', email: 'boss@example.com' }, subject: { id: 'user', email: 'user@example.com' } });
		});

		test('the list pages by pageSize, ordered by email, with the total', async () => {
			const { adapter, config } = await world({ pageSize: 2 });
			for (const name of ['dora', 'carl', 'amy']) await adapter.createUser({ id: name, email: `${name}@example.com`, emailVerified: null });
			const api = adminApi(config, { userId: 'boss' });
			const pages = await Promise.all([1, 2, 3, 4].map((page) => api.listUsers({ page })));
			expect(pages.map((p) => p.users.map((u) => u.id))).toEqual([['amy', 'boss'], ['carl', 'dora'], ['other', 'user'], []]);
			expect(pages.every((p) => p.total === 6 && p.pageSize === 2)).toBe(true);
			expect((await api.listUsers({ search: 'CAR' })).users.map((u) => u.id)).toEqual(['carl']);
			expect((await api.listUsers({ search: 'dora' })).users[0]).toMatchObject({ status: 'active', twoFactor: false, isAdmin: false });
		});

		test('resetTwoFactor from a script mails the notice linking to the given site; without a known site it changes nothing', async () => {
			const mails: AccountEmailParams[] = [];
			const email: EmailConfig = { id: 'email', name: 'Email', type: 'email', sendVerificationRequest: () => undefined, sendAccountEmail: (params) => void mails.push(params) };
			const { adapter, config } = await world({}, { providers: [email] });
			await adapter.setTwoFactor({ userId: 'user', totpSecret: 'sealed', recoveryCodes: [], lastUsedStep: null });
			await expect(adminApi(config, { system: true }).resetTwoFactor('user')).rejects.toMatchObject({ type: 'Configuration', message: expect.stringMatching(/pass `request`/) });
			expect(await adapter.getTwoFactor('user')).not.toBeNull();
			await adminApi(config, { system: true, request: 'https://app.example.com/' }).resetTwoFactor('user');
			expect(await adapter.getTwoFactor('user')).toBeNull();
			expect(mails).toHaveLength(1);
			expect(mails[0]).toMatchObject({ kind: 'security-notice', change: 'two-factor-removed', identifier: 'user@example.com', url: 'https://app.example.com' });
		});

		test('adminApi needs an actor and the admin option', async () => {
			const { config } = await world();
			expect(() => adminApi(config, {} as never)).toThrow(/needs an actor/);
			expect(() => adminApi(config, { userId: '' })).toThrow(/needs an actor/);
			const off = { ...config, admin: undefined };
			await expect(adminApi(off, { system: true }).listUsers()).rejects.toThrow(/needs `admin` in the config/);
		});
	});
});

// Who is an admin and on whom an admin may act: the pure predicates on plain values, and
// `isAdmin` reading the stored user and role on every call (a changed role counts at once).

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { TEST_SECRET } from '../test/client.js';
import type { AdapterUser, AdminOptions, AuthConfig } from '../types.js';
import { adminByRuleOf, isAdmin, mayActOn } from './admin-authorization.js';

describe('adminByRuleOf', () => {
	test('"role": the stored role must be one of adminRoles', () => {
		const options = { admins: 'role' as const, adminRoles: ['admin', 'owner'] };
		expect(adminByRuleOf(options, 'u1', 'owner')).toBe(true);
		expect(adminByRuleOf(options, 'u1', 'Admin')).toBe(false);
		expect(adminByRuleOf(options, 'u1', null)).toBe(false);
	});
	test('a list: the user id must be in it, whatever the role', () => {
		const options = { admins: ['u1'], adminRoles: ['admin'] };
		expect(adminByRuleOf(options, 'u1', null)).toBe(true);
		expect(adminByRuleOf(options, 'u2', 'admin')).toBe(false);
	});
	test('a function: undecided here (its answer decides)', () => {
		expect(adminByRuleOf({ admins: () => true, adminRoles: ['admin'] }, 'u1', 'admin')).toBeUndefined();
	});
});

describe('mayActOn (the admin-on-admin rule)', () => {
	test('an admin may act on a non-admin other than themselves', () => {
		expect(mayActOn('a1', { id: 'u2', isAdmin: false })).toBe(true);
	});
	test('an admin may not act on another admin, nor on themselves', () => {
		expect(mayActOn('a1', { id: 'a2', isAdmin: true })).toBe(false);
		expect(mayActOn('a1', { id: 'a1', isAdmin: true })).toBe(false);
		expect(mayActOn('a1', { id: 'a1', isAdmin: false })).toBe(false);
	});
	test('a server script may act on anyone', () => {
		expect(mayActOn(null, { id: 'a2', isAdmin: true })).toBe(true);
	});
});

describe('isAdmin(userOrSession, config)', () => {
	async function world(admin: AdminOptions) {
		const adapter = MemoryAdapter();
		const config: AuthConfig = { providers: [], secret: TEST_SECRET, adapter, session: { strategy: 'jwt' }, admin };
		const user: AdapterUser = await adapter.createUser({ id: 'u1', email: 'ada@example.com', emailVerified: null });
		return { adapter, config, user };
	}

	test('reads the stored role on every call: a role given or taken counts at once', async () => {
		const { adapter, config, user } = await world({ admins: 'role' });
		expect(await isAdmin(user, config)).toBe(false);
		await adapter.setUserAdmin({ userId: 'u1', role: 'admin' });
		expect(await isAdmin(user, config)).toBe(true);
		expect(await isAdmin('u1', config)).toBe(true);
		expect(await isAdmin({ user: { id: 'u1' }, expires: '' }, config)).toBe(true);
		await adapter.setUserAdmin({ userId: 'u1', role: null });
		expect(await isAdmin(user, config)).toBe(false);
	});

	test('the fields of the object given are not trusted: the stored user decides', async () => {
		const { config } = await world({ admins: 'role' });
		expect(await isAdmin({ id: 'u1', role: 'admin' } as never, config)).toBe(false);
		expect(await isAdmin({ id: 'nobody' }, config)).toBe(false);
	});

	test('an impersonated session, a banned admin, and no admin config are never admins', async () => {
		const { adapter, config } = await world({ admins: ['u1'] });
		expect(await isAdmin('u1', config)).toBe(true);
		const impersonated = { user: { id: 'u1' }, expires: '', impersonation: { admin: { id: 'x', name: null, email: null }, expires: '' } };
		expect(await isAdmin(impersonated, config)).toBe(false);
		await adapter.setUserAdmin({ userId: 'u1', bannedAt: new Date(0), banExpires: null });
		expect(await isAdmin('u1', config)).toBe(false);
		const { config: off } = await world(undefined as never);
		expect(await isAdmin('u1', off)).toBe(false);
	});

	test('a function decides with the user and their role; one that throws or answers a truthy non-true says no', async () => {
		const seen: unknown[] = [];
		const { adapter, config } = await world({ admins: ({ user, role }) => (seen.push([user.email, role]), role === 'staff') });
		await adapter.setUserAdmin({ userId: 'u1', role: 'staff' });
		expect(await isAdmin('u1', config)).toBe(true);
		expect(seen).toEqual([['ada@example.com', 'staff']]);
		const errors: unknown[] = [];
		const throwing = await world({ admins: () => { throw new Error('down'); } });
		throwing.config.logger = { error: (code) => void errors.push(code) };
		expect(await isAdmin('u1', throwing.config)).toBe(false);
		expect(errors).toEqual(['AdminRequired']);
		const truthy = await world({ admins: () => 'yes' as never });
		expect(await isAdmin('u1', truthy.config)).toBe(false);
	});
});

// The start-up checks of `admin`: a bad `admins`, `adminRoles`, `pageSize` or
// `impersonationMaxAge`, no adapter, or an adapter without the admin methods each stop the app
// with a message naming what to change; a good config gets its defaults.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { TEST_SECRET } from '../test/client.js';
import { resolveConfig } from './resolve-config.js';
import type { Adapter, AdminOptions, AuthConfig } from '../types.js';
import { resolveAdminOptions } from './admin-options.js';

function start(admin: unknown, adapter: Adapter | null = MemoryAdapter(), strategy: 'jwt' | 'database' = 'jwt') {
	const config: AuthConfig = { providers: [], secret: TEST_SECRET, adapter: adapter ?? undefined, session: { strategy }, admin: admin as AdminOptions };
	return () => resolveConfig(config);
}

describe('admin options at start-up', () => {
	test('left out: no admin routes, nothing checked', () => {
		expect(resolveAdminOptions(undefined, { strategy: 'jwt' })).toBeUndefined();
		expect(start(undefined, null)().admin).toBeUndefined();
	});

	test('defaults: admins by role "admin", 20 a page, impersonation at most an hour', () => {
		expect(start({})().admin).toEqual({ admins: 'role', adminRoles: ['admin'], impersonationMaxAge: 3600, pageSize: 20 });
	});

	test.each([
		['a string other than "role"', { admins: 'everyone' }, /admin\.admins must be "role".*got "everyone"/],
		['a list with a non-string', { admins: ['u1', 7] }, /non-empty strings.*got 7/],
		['adminRoles empty', { adminRoles: [] }, /admin\.adminRoles must be a non-empty list/],
		['pageSize 0', { pageSize: 0 }, /admin\.pageSize must be a whole number from 1 to 100; got 0/],
		['pageSize 101', { pageSize: 101 }, /got 101/],
		['pageSize 2.5', { pageSize: 2.5 }, /got 2\.5/],
		['impersonationMaxAge 0', { impersonationMaxAge: 0 }, /admin\.impersonationMaxAge must be a number of seconds above 0; got 0/],
		['impersonationMaxAge negative', { impersonationMaxAge: -5 }, /got -5/],
		['not an object', 'yes', /admin must be an object/],
		['a misspelt key', { pagesize: 10 }, /admin: unknown option `pagesize` \(did you mean `pageSize`\?\)/]
	])('%s is refused with what to change', (_name, admin, message) => {
		expect(start(admin)).toThrow(message);
	});

	test('no adapter: MissingAdapter', () => {
		expect(start({}, null)).toThrow(expect.objectContaining({ type: 'MissingAdapter', message: expect.stringMatching(/needs an adapter/) }));
	});

	test('an adapter without the admin methods: MissingAdapterMethod naming the first one missing', () => {
		const { listUsers: _omitted, ...rest } = MemoryAdapter();
		expect(start({}, rest)).toThrow(expect.objectContaining({ type: 'MissingAdapterMethod', message: expect.stringMatching(/no `listUsers` method/) }));
		const { deleteSessionsByUserId: _gone, ...noBulkDelete } = MemoryAdapter();
		// JWT sessions do not need it; database sessions (a ban deletes them all) do
		expect(start({}, noBulkDelete, 'jwt')().admin).toBeDefined();
		expect(start({}, noBulkDelete, 'database')).toThrow(/no `deleteSessionsByUserId` method/);
	});
});

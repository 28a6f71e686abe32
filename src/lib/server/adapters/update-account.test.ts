// `updateAccount` (kitgate's optional adapter method for refreshed tokens) on every adapter:
// it merges the given fields into the stored account and never moves it to another user.

import { describe, expect, test } from 'vitest';
import { everyAdapter } from './test/every-adapter.js';

const adapters = everyAdapter('update-account', { authjsTables: 'all' });

describe.each(adapters)('updateAccount (%s)', (_name, make) => {
	test('merges new token fields, keeps the others, and returns the account', async () => {
		const adapter = make();
		const id = crypto.randomUUID();
		const user = await adapter.createUser({ id, email: `${id}@example.com`, emailVerified: null });
		await adapter.linkAccount({
			userId: user.id,
			type: 'oidc',
			provider: 'idp',
			providerAccountId: id,
			access_token: 'old-access',
			refresh_token: 'old-refresh',
			id_token: 'id-token',
			expires_at: 1000,
			scope: 'openid',
			custom_field: 'kept'
		});
		const updated = await adapter.updateAccount({
			provider: 'idp',
			providerAccountId: id,
			access_token: 'new-access',
			refresh_token: 'new-refresh',
			expires_at: 2000,
			scope: undefined
		});
		const expected = {
			userId: user.id,
			type: 'oidc',
			provider: 'idp',
			providerAccountId: id,
			access_token: 'new-access',
			refresh_token: 'new-refresh',
			id_token: 'id-token',
			expires_at: 2000,
			scope: 'openid',
			custom_field: 'kept'
		};
		expect(updated).toEqual(expected);
		expect(await adapter.getAccount(id, 'idp')).toEqual(expected);
	});

	test('an unknown account gives null; the owner and type cannot be changed', async () => {
		const adapter = make();
		expect(await adapter.updateAccount({ provider: 'idp', providerAccountId: 'nobody' })).toBeNull();
		const id = crypto.randomUUID();
		const user = await adapter.createUser({ id, email: `${id}@example.com`, emailVerified: null });
		await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'idp', providerAccountId: id, access_token: 'a' });
		await adapter.updateAccount({ provider: 'idp', providerAccountId: id, userId: 'someone-else', type: 'oidc', access_token: 'b' });
		expect(await adapter.getAccount(id, 'idp')).toMatchObject({ userId: user.id, type: 'oauth', access_token: 'b' });
	});
});

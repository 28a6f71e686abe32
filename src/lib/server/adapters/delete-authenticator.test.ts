// `deleteAuthenticator` (kitgate's optional adapter method for removing a passkey) on every
// adapter: it removes exactly one authenticator, returns it, and answers null when there is none.

import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { AdapterAuthenticator } from '../core/types.js';
import { everyAdapter } from './test/every-adapter.js';

const adapters = everyAdapter('delete-authenticator', { authjsTables: 'with-passkeys' });

function authenticatorOf(userId: string): AdapterAuthenticator {
	const credentialID = randomBytes(16).toString('base64url');
	return {
		credentialID,
		userId,
		providerAccountId: credentialID,
		credentialPublicKey: randomBytes(77).toString('base64url'),
		counter: 3,
		credentialDeviceType: 'multiDevice',
		credentialBackedUp: true,
		transports: 'internal,hybrid'
	};
}

describe.each(adapters)('deleteAuthenticator (%s)', (_name, make) => {
	test('removes one authenticator, returns it, and leaves the user’s others', async () => {
		const adapter = make();
		const id = crypto.randomUUID();
		const user = await adapter.createUser({ id, email: `${id}@example.com`, emailVerified: null });
		const doomed = await adapter.createAuthenticator(authenticatorOf(user.id));
		const kept = await adapter.createAuthenticator(authenticatorOf(user.id));
		expect(await adapter.deleteAuthenticator(doomed.credentialID)).toEqual(doomed);
		expect(await adapter.getAuthenticator(doomed.credentialID)).toBeNull();
		expect(await adapter.listAuthenticatorsByUserId(user.id)).toEqual([kept]);
	});

	test('answers null for an unknown credential', async () => {
		const adapter = make();
		expect(await adapter.deleteAuthenticator(randomBytes(16).toString('base64url'))).toBeNull();
	});
});

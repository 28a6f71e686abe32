// Test helper: a passkey row as the adapter tests hand it to createAuthenticator.

import type { AdapterAuthenticator } from '../../core/types.js';

/**
 * A passkey of `userId` named `credentialID` (also its `providerAccountId`): public key `pk`,
 * counter 0, single-device, not backed up, no transports — `fields` change any of these.
 *
 * @example
 * await adapter.createAuthenticator(storedPasskey('u-1', 'c-1', { credentialBackedUp: true }));
 */
export function storedPasskey(userId: string, credentialID: string, fields: Partial<AdapterAuthenticator> = {}): AdapterAuthenticator {
	return {
		credentialID,
		userId,
		providerAccountId: credentialID,
		credentialPublicKey: 'pk',
		counter: 0,
		credentialDeviceType: 'singleDevice',
		credentialBackedUp: false,
		...fields
	};
}

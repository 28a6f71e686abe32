// The passkeys a person has in the account and admin views (account-overviews.ts, admin-views.ts),
// and the clock those views are dated by.

import type { PasskeyInfo } from '../../server/core/account-types.js';

/**
 * The time `minutes` before the views' now (1 June 2026, 12:00 UTC), as an ISO string; a negative
 * number is in the future.
 *
 * @example
 * const signedInAt = minutesBefore(2);
 */
export const minutesBefore = (minutes: number) => new Date(Date.UTC(2026, 5, 1, 12) - minutes * 60_000).toISOString();

const DAY = 60 * 24;

/**
 * A synced passkey on a work laptop, last used at `lastUsedAt`, and a nameless security key never
 * used; both removable.
 *
 * @example
 * const passkeys = laptopAndSecurityKey(minutesBefore(30));
 */
export function laptopAndSecurityKey(lastUsedAt: string): PasskeyInfo[] {
	return [
		{
			credentialID: 'Zm9vYmFyLXN5bmNlZC0xMjM0NTY',
			name: 'Work laptop',
			authenticatorName: 'iCloud Keychain',
			createdAt: minutesBefore(20 * DAY),
			lastUsedAt,
			credentialDeviceType: 'multiDevice',
			credentialBackedUp: true,
			transports: ['internal', 'hybrid'],
			canRemove: true
		},
		{
			credentialID: 'YmF6cXV4LWtleS05ODc2NTQ',
			name: null,
			authenticatorName: 'YubiKey 5 Series',
			createdAt: minutesBefore(3 * DAY),
			lastUsedAt: null,
			credentialDeviceType: 'singleDevice',
			credentialBackedUp: false,
			transports: ['usb'],
			canRemove: true
		}
	];
}

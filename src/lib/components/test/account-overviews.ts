// Overviews (`GET /auth/account`) in the states the account components show: several items of each
// kind, nothing connected, a stale sign-in with one passkey left, JWT sessions, and features off.
// Shared by the component tests and the stories.

import type { AccountOverview } from '../../server/core/account-types.js';
import { laptopAndSecurityKey, minutesBefore } from './passkey-views.js';

const AT = minutesBefore;

/** A user with an OAuth account and an email account, two passkeys and three sessions, signed in two minutes ago. */
export const fullOverview: AccountOverview = {
	user: { id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com', emailVerified: AT(60 * 24 * 31), image: null },
	sessionStrategy: 'database',
	signedInAt: AT(2),
	freshUntil: AT(-8),
	accounts: [
		{ provider: 'github', providerName: 'GitHub', type: 'oauth', providerAccountId: '583231', canUnlink: true },
		{ provider: 'email', providerName: 'Email', type: 'email', providerAccountId: 'ada@example.com', canUnlink: false }
	],
	linkable: [
		{ id: 'github', name: 'GitHub' },
		{ id: 'google', name: 'Google' }
	],
	passkeys: laptopAndSecurityKey(AT(2)),
	sessions: [
		{ id: 'kY3mQ9xT2bV7wLp4sN8rZa', current: true, createdAt: AT(2), lastSeenAt: AT(0), expires: AT(-60 * 24 * 30), browser: 'Firefox', os: 'Linux' },
		{ id: 'Pq7wE1rT5yU9iO3pA6sD2f', current: false, createdAt: AT(60 * 26), lastSeenAt: AT(60 * 3), expires: AT(-60 * 24 * 29), browser: 'Safari', os: 'iOS' },
		{ id: 'Zx4cV8bN2mL6kJ0hG3fD9s', current: false, createdAt: AT(60 * 24 * 9), lastSeenAt: AT(60 * 24 * 8), expires: AT(-60 * 24 * 21), browser: null, os: null }
	],
	canChangeEmail: true,
	canDeleteAccount: true,
	csrfToken: 'csrf-token-of-this-browser',
	basePath: '/auth',
	passkeyProvider: 'passkey',
	twoFactor: { enabled: false, enabledAt: null, recoveryCodesLeft: 0 }
};

/** A new user: nothing connected, no passkeys, signed in on this device only, no name. */
export const emptyOverview: AccountOverview = {
	...fullOverview,
	user: { ...fullOverview.user, name: null, emailVerified: null },
	accounts: [],
	linkable: [],
	passkeys: [],
	sessions: [fullOverview.sessions[0]]
};

/** Signed in long ago (sensitive changes need a new sign-in first), one passkey left besides the GitHub account. */
export const staleOverview: AccountOverview = {
	...fullOverview,
	signedInAt: AT(60 * 5),
	freshUntil: null,
	passkeys: [{ ...fullOverview.passkeys[0], canRemove: false }]
};

/** The GitHub account is the only way in: it cannot be disconnected. */
export const lastWayOverview: AccountOverview = {
	...fullOverview,
	user: { ...fullOverview.user, emailVerified: null },
	accounts: [{ ...fullOverview.accounts[0], canUnlink: false }],
	linkable: [{ id: 'github', name: 'GitHub' }],
	passkeys: []
};

/** JWT sessions: only this device is listed, the others end all at once. */
export const jwtOverview: AccountOverview = {
	...fullOverview,
	sessionStrategy: 'jwt',
	sessions: [{ ...fullOverview.sessions[0], id: 'current' }]
};

/** No passkey provider, email changes and deletion turned off, no email address. */
export const restrictedOverview: AccountOverview = {
	...fullOverview,
	user: { ...fullOverview.user, email: null, emailVerified: null },
	accounts: [fullOverview.accounts[0]],
	passkeys: [],
	passkeyProvider: null,
	twoFactor: null,
	canChangeEmail: false,
	canDeleteAccount: false
};

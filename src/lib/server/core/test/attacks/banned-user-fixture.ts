// What the ban attack tests share: a password sign-in that finds stored users by address (the
// password is "right"), a stored user, and a ban as the admin routes make one.

import Credentials from '../../../providers/credentials.js';
import { revokeSessions } from '../../session/revocation.js';
import type { Adapter, AdapterUser, AuthConfig, CredentialsConfig } from '../../types.js';
import { address } from './flows.js';

/** A credentials provider signing in the stored user of `email` with the password "right". */
export function passwordOfStoredUsers(adapter: () => Required<Adapter>): CredentialsConfig {
	return Credentials({
		credentials: { email: {}, password: { type: 'password' } },
		authorize: async ({ email, password }) => {
			if (password !== 'right') return null;
			const user = await adapter().getUserByEmail(String(email));
			return user && { id: user.id, email: user.email, name: user.name };
		}
	});
}

/** Stores a user `name` with a unique address of its own, verified at `now`. */
export function storeUser(adapter: Required<Adapter>, name: string, now: number): Promise<AdapterUser> {
	return Promise.resolve(adapter.createUser({ id: crypto.randomUUID(), email: address(name), emailVerified: new Date(now), name }));
}

/** Bans `userId` as the admin routes do (the record, then every session ends), then moves the clock a second on. */
export async function banAsAdminsDo(adapter: Required<Adapter>, config: AuthConfig, clock: { now: number }, userId: string, banExpires: Date | null = null): Promise<void> {
	await adapter.setUserAdmin({ userId, bannedAt: new Date(clock.now), banReason: 'spam', banExpires });
	await revokeSessions(userId, config);
	clock.now += 1000;
}

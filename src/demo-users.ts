// The demo's credentials users, kept in the demo's database like any other user so that signing in
// with the demo IdP (same email) reaches the same person: the demo user, an admin (admin.admins:
// 'role', so its stored role makes it one) and two more people for the admin pages to list.
// A real app checks a password hash; the demo has one shared password.

import type { Adapter, User } from '$lib/index.js';

/** Credentials of the demo user, printed by `npm start`. */
export const DEMO_CREDENTIALS = { username: 'demo', password: 'demo-password' } as const;

/** Every demo account: username, profile and stored role (all with the demo password). */
const DEMO_USERS = [
	{ username: 'demo', name: 'Demo User', email: 'demo@kitgate.dev', role: null },
	{ username: 'admin', name: 'Demo Admin', email: 'admin@example.com', role: 'admin' },
	{ username: 'ada', name: 'Ada Lovelace', email: 'ada@example.com', role: null },
	{ username: 'grace', name: 'Grace Hopper', email: 'grace@example.com', role: null }
] as const;

/** The stored user of one demo account, created (with its role) when missing. */
async function storedDemoUser(adapter: Required<Adapter>, account: (typeof DEMO_USERS)[number]): Promise<User> {
	const user =
		(await adapter.getUserByEmail(account.email)) ??
		(await adapter.createUser({ id: crypto.randomUUID(), name: account.name, email: account.email, emailVerified: null }));
	// the stored role is what makes the admin one; put back at each sign-in so the demo always has an admin
	if (account.role && (await adapter.getUserAdmin(user.id))?.role !== account.role) await adapter.setUserAdmin({ userId: user.id, role: account.role });
	return user;
}

let seeded: Promise<void> | undefined;

/** Stores every demo account once per process (the admin pages list them before they ever sign in). */
function seedDemoUsers(adapter: Required<Adapter>): Promise<void> {
	seeded ??= Promise.all(DEMO_USERS.map((account) => storedDemoUser(adapter, account))).then(
		() => undefined,
		(error: unknown) => {
			seeded = undefined;
			throw error;
		}
	);
	return seeded;
}

/** The stored demo user whose credentials match (the demo accounts are created on first use), else null. */
export async function demoUser(adapter: Required<Adapter>, username: unknown, password: unknown): Promise<User | null> {
	const account = DEMO_USERS.find((candidate) => candidate.username === username);
	if (!account || password !== DEMO_CREDENTIALS.password) return null;
	await seedDemoUsers(adapter);
	return storedDemoUser(adapter, account);
}

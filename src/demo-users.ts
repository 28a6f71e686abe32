// The demo's one credentials user, kept in the demo's database like any other user so that
// signing in with the demo IdP (same email) reaches the same person. A real app checks a password hash.

import type { Adapter, User } from '$lib/index.js';

/** Credentials of the demo user, printed by `npm start`. */
export const DEMO_CREDENTIALS = { username: 'demo', password: 'demo-password' } as const;

const DEMO_EMAIL = 'demo@kitgate.dev';

/** The stored demo user when the credentials match (created on first use), else null. */
export async function demoUser(adapter: Required<Adapter>, username: unknown, password: unknown): Promise<User | null> {
	if (username !== DEMO_CREDENTIALS.username || password !== DEMO_CREDENTIALS.password) return null;
	const existing = await adapter.getUserByEmail(DEMO_EMAIL);
	return existing ?? adapter.createUser({ id: crypto.randomUUID(), name: 'Demo User', email: DEMO_EMAIL, emailVerified: null });
}

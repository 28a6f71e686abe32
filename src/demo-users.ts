// The demo's one credentials user. A real app checks a password hash from its database.

import type { User } from '$lib/index.js';

/** Credentials of the demo user, printed by `npm start`. */
export const DEMO_CREDENTIALS = { username: 'demo', password: 'demo-password' } as const;

/** The demo user when the credentials match, else null. */
export function demoUser(username: unknown, password: unknown): User | null {
	if (username === DEMO_CREDENTIALS.username && password === DEMO_CREDENTIALS.password) {
		return { id: 'demo-user', name: 'Demo User', email: 'demo@kitgate.dev' };
	}
	return null;
}

// The credentials provider: sign in with fields the app checks itself (`authorize`).
// Export path: `kitgate/providers/credentials`.

import type { CredentialsConfig } from '../core/types.js';

/** Options of `Credentials()`: everything of a credentials provider, id and name optional. */
export type CredentialsOptions = Partial<Omit<CredentialsConfig, 'type' | 'authorize'>> &
	Pick<CredentialsConfig, 'authorize'>;

/**
 * A credentials provider (default id `credentials`).
 *
 * @example
 * Credentials({
 *   credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
 *   authorize: async ({ username, password }) => (await isRightPassword(username, password)) ? { id: "1", name: username } : null
 * })
 */
export default function Credentials(options: CredentialsOptions): CredentialsConfig {
	return {
		id: 'credentials',
		name: 'Credentials',
		credentials: {},
		...options,
		type: 'credentials'
	};
}

export { Credentials };

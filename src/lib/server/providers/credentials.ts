// The credentials provider: sign in with fields the app checks itself (`authorize`).
// Export path: `kitgate/providers/credentials`.

import { checkedWhenResolved, exactKeys } from '../core/config/option-keys.js';
import type { CredentialsConfig } from '../core/types.js';

/** Options of `Credentials()`: everything of a credentials provider, id and name optional. */
export type CredentialsOptions = Partial<Omit<CredentialsConfig, 'type' | 'authorize'>> &
	Pick<CredentialsConfig, 'authorize'>;

/** Every option of `Credentials()`, checked against `CredentialsOptions` by the compiler. */
const CREDENTIALS_OPTION_KEYS = exactKeys<CredentialsOptions>()(['id', 'name', 'style', 'credentials', 'authorize', 'minFailureMs']);

/**
 * A credentials provider (default id `credentials`). An option it does not know (e.g.
 * `authorise`) stops the app when the config is resolved.
 *
 * @example
 * Credentials({
 *   credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
 *   authorize: async ({ username, password }) => (await isRightPassword(username, password)) ? { id: "1", name: username } : null
 * })
 */
export default function Credentials(options: CredentialsOptions): CredentialsConfig {
	const provider: CredentialsConfig = {
		id: 'credentials',
		name: 'Credentials',
		credentials: {},
		...options,
		type: 'credentials'
	};
	return checkedWhenResolved(provider, options, CREDENTIALS_OPTION_KEYS);
}

export { Credentials };

// The app the client's unit tests sign in to: JWT sessions, a memory adapter, and a credentials
// provider whose one valid pair is ada/lovelace (Ada, ada@example.com). No globals are touched here.

import { MemoryAdapter } from '../../server/adapters/memory.js';
import { TEST_SECRET } from '../../server/core/test/client.js';
import type { AuthConfig } from '../../server/core/types.js';
import Credentials from '../../server/providers/credentials.js';

/**
 * The app's config: Ada's credentials provider first, then `more.providers`; the rest of `more`
 * (callbacks, a base path) over the defaults.
 *
 * @example
 * const browser = engineBrowser(adaApp({ callbacks: { jwt: ({ token }) => token } }));
 */
export function adaApp(more: Partial<AuthConfig> = {}): AuthConfig {
	return {
		secret: TEST_SECRET,
		trustHost: true,
		adapter: MemoryAdapter(),
		session: { strategy: 'jwt' },
		...more,
		providers: [
			Credentials({
				credentials: { username: {}, password: { type: 'password' } },
				authorize: ({ username, password }) => (username === 'ada' && password === 'lovelace' ? { id: 'u1', name: 'Ada', email: 'ada@example.com' } : null)
			}),
			...(more.providers ?? [])
		]
	};
}

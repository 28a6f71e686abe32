// Test helper: the engine as the suites that try every route start it (fuzz.test.ts and
// fuzz-integrations.test.ts through hostile-requests.ts's fuzzConfig, one-way-to-fail.test.ts).

import { MemoryAdapter } from '../../adapters/memory.js';
import type { AuthConfig } from '../types.js';
import { TEST_SECRET } from './client.js';

/**
 * The test secret and a trusted host, a fresh memory adapter, JWT sessions and passkeys on; `rest`
 * brings the providers and whatever else the suite sets (logger, rate limits), and may override any of it.
 *
 * @example
 * const config = memoryJwtConfig({ providers: [Credentials({ authorize: () => null }), Passkey()] });
 */
export function memoryJwtConfig(rest: Partial<AuthConfig> & Pick<AuthConfig, 'providers'>): AuthConfig {
	return { secret: TEST_SECRET, trustHost: true, adapter: MemoryAdapter(), session: { strategy: 'jwt' }, experimental: { enableWebAuthn: true }, ...rest };
}

// Attacks: configuration values that switch protections off by accident. (Failed before the fix: login CSRF.)
//
// `skipCSRFCheck` is resolved as `config.skipCSRFCheck !== undefined`: any value turns every CSRF
// check off, including `false` and `null` (a JavaScript config, a value read from the environment,
// `skipCSRFCheck: isTest && skipCSRFCheck`). Auth.js compares with its `skipCSRFCheck` symbol.

import { describe, expect, test } from 'vitest';
import Credentials from '../../../providers/credentials.js';
import type { AuthConfig } from '../../types.js';
import { TEST_SECRET, testClient } from '../client.js';

describe('skipCSRFCheck', () => {
	test.each([false, null, 0, ''])('skipCSRFCheck: %j keeps the CSRF check', async (value) => {
		const config = {
			secret: TEST_SECRET,
			trustHost: true,
			logger: { error: () => {}, warn: () => {}, debug: () => {} },
			skipCSRFCheck: value,
			providers: [Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: String(username), email: `${String(username)}@example.com` }) })]
		} as unknown as AuthConfig;
		// a cross-site form: no CSRF cookie, no token
		const victim = testClient(config);
		const response = await victim.request('/auth/callback/credentials', { form: { username: 'mallory' } });
		const session = (await (await victim.request('/auth/session')).json()) as { user?: { email?: string } } | null;
		console.log(`skipCSRFCheck: ${JSON.stringify(value)} -> ${response.status} ${response.headers.get('location')}; session: ${JSON.stringify(session?.user ?? null)}`);
		expect(session).toBeNull();
	});
});

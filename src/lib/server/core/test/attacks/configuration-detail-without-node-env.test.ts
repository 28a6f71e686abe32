// Attack on the engine's own answer to a configuration that cannot work (`configurationErrorAnswer`
// from `runAuthRaw`): it shows what to change ("detail") whenever NODE_ENV is not "production".
// A Cloudflare Worker (or Deno, Bun without NODE_ENV, a Node server started without it) has no
// NODE_ENV: there a broken production deployment shows every visitor which variables are missing
// and which options and providers the config has. Detail must be opt-in (development known), not
// the default of a runtime that does not say.

import { afterEach, beforeEach, expect, test } from 'vitest';
import { Auth } from '../../auth.js';
import Credentials from '../../../providers/credentials.js';
import type { AuthConfig } from '../../types.js';
import { quietLogger } from '../oauth-fixtures.js';

const saved = process.env.NODE_ENV;
beforeEach(() => {
	// as on a Worker: no NODE_ENV at all
	delete process.env.NODE_ENV;
});
afterEach(() => {
	process.env.NODE_ENV = saved;
});

const broken = (): AuthConfig => ({
	// no secret (AUTH_SECRET is not set in the tests), and a provider with an internal id
	secret: undefined,
	trustHost: true,
	logger: quietLogger().logger,
	providers: [Credentials({ id: 'internal-staff-login', authorize: () => null })]
});

test('a runtime without NODE_ENV (a Worker): the configuration error page names no variable, option or provider', async () => {
	expect(process.env.AUTH_SECRET).toBeUndefined();
	const response = await Auth(new Request('https://app.example.com/auth/signin', { headers: { accept: 'text/html' } }), broken());
	expect(response.status).toBe(503);
	const html = await response.text();
	expect(html).not.toContain('AUTH_SECRET');
	expect(html).not.toContain('kitgate-error-detail');
});

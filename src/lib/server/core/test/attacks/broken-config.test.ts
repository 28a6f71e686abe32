// A configuration that cannot work must never be a bare 500 on every page. Express: ExpressAuth()
// refuses to start, saying what to set. SvelteKit with a per-request (lazy) config: the auth routes
// answer 503 (the error page; JSON for the session route), a page that reads the session gets
// SvelteKit's 503 error page, and pages that do not use auth render as usual. No secret is shown.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ExpressAuth } from '../../../express/index.js';
import Credentials from '../../../providers/credentials.js';
import type { AuthConfig } from '../../types.js';
import { Browser, startApp, type AppServer } from '../integrations.js';
import { quietLogger } from '../oauth-fixtures.js';

const broken = (): AuthConfig => ({
	// no secret, and AUTH_SECRET is not set in the tests
	secret: undefined,
	trustHost: true,
	logger: quietLogger().logger,
	providers: [Credentials({ authorize: () => null })]
});

test('Express: ExpressAuth refuses to start without a secret, naming AUTH_SECRET', () => {
	expect(process.env.AUTH_SECRET).toBeUndefined();
	expect(() => ExpressAuth(broken())).toThrow(/AUTH_SECRET/);
});

describe('SvelteKit with a lazy config that cannot work', () => {
	let app: AppServer;
	beforeAll(async () => {
		app = await startApp('sveltekit');
		app.use(broken());
	});
	afterAll(() => app.close());

	test('the session route answers 503 { error: "Configuration" }', async () => {
		const answer = await new Browser().request(`${app.origin}/auth/session`);
		expect(answer.status).toBe(503);
		expect(await answer.json()).toEqual({ error: 'Configuration' });
	});

	test('the sign-in page answers 503 with the error page, no secret in it', async () => {
		const answer = await new Browser().request(`${app.origin}/auth/signin`, { headers: { accept: 'text/html' } });
		expect(answer.status).toBe(503);
		const html = await answer.text();
		expect(html).toContain('Configuration');
		expect(html).not.toMatch(/secret[^<]*[A-Za-z0-9+/]{32}/i);
	});

	test('a page that reads the session answers 503; a page that does not use auth renders', async () => {
		expect((await new Browser().request(`${app.origin}/`)).status).toBe(503);
		const plain = await new Browser().request(`${app.origin}/signin`, { headers: { accept: 'text/html' } });
		expect(plain.status).toBe(200);
		expect(await plain.text()).toContain('sign in');
	});
});

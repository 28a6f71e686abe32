// A configuration that cannot start (here: no AUTH_SECRET). In development (`vite dev`) the error
// is said in the terminal once and shown in the browser on every page, with what to set and
// where; SvelteKit's bare "500 Internal Error" page never appears. In production the server still
// stops at start-up, and no page ever shows the detail (issue 31, item 7).

import type { Handle } from '@sveltejs/kit';
import { afterEach, describe, expect, test, vi } from 'vitest';
import Credentials from '../providers/credentials.js';
import type { SvelteKitAuthConfig } from './index.js';
import { kitEvent } from './test/events.js';

/** A config like the guide's, with no secret (none in the test's environment either). */
function configWithoutSecret(logged: unknown[][]): SvelteKitAuthConfig {
	return {
		logger: { error: (...args: unknown[]) => void logged.push(args) },
		providers: [Credentials({ credentials: { username: {}, password: { type: 'password' } }, authorize: () => null })]
	};
}

/** What `handle` answers for a request to `path`, as SvelteKit calls it. */
async function answer(handle: Handle, path: string, accept = 'text/html') {
	const event = kitEvent(`http://localhost:5173${path}`, { headers: { accept } });
	const response = await handle({ event, resolve: async () => new Response('the page', { status: 200 }) });
	return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
}

afterEach(() => {
	vi.doUnmock('$app/environment');
	vi.resetModules();
});

describe('in development (vite dev)', () => {
	test('the start-up error is logged once and every page shows what to set and where', async () => {
		expect(process.env.AUTH_SECRET).toBeUndefined();
		const { SvelteKitAuth } = await import('./index.js');
		const logged: unknown[][] = [];
		const { handle } = SvelteKitAuth(configWithoutSecret(logged));
		expect(logged).toHaveLength(1);
		expect(String((logged[0][1] as Error).message)).toContain('AUTH_SECRET');

		for (const path of ['/', '/dashboard', '/signin', '/auth/signin']) {
			const page = await answer(handle, path);
			expect(page.status, path).toBe(503);
			expect(page.type).toContain('text/html');
			expect(page.body).not.toContain('the page');
			expect(page.body).not.toContain('Internal Error');
			// what to set and where, as the terminal says it
			expect(page.body).toContain('Missing environment variable AUTH_SECRET.');
			expect(page.body).toContain('Set it in .env in development');
		}
		// the session route stays JSON for scripts
		const session = await answer(handle, '/auth/session', 'application/json');
		expect(session.status).toBe(503);
		expect(JSON.parse(session.body)).toEqual({ error: 'Configuration' });
		// said once in the terminal, not once per request
		expect(logged).toHaveLength(1);
	});
});

describe('in production', () => {
	test('the server stops at start-up, naming AUTH_SECRET (as before)', async () => {
		vi.doMock('$app/environment', () => ({ dev: false, building: false, browser: false, version: 'test' }));
		const { SvelteKitAuth } = await import('./index.js');
		expect(() => SvelteKitAuth(configWithoutSecret([]))).toThrow(/AUTH_SECRET/);
	});
});

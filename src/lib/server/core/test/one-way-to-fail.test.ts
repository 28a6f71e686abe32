// The inconsistencies the failure table removed, each pinned: the same code gets the same status
// on every route, the error page offers a retry exactly when the table says so, and script callers
// get the table's status (not a 200) for a failed sign-in.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import Credentials from '../../providers/credentials.js';
import Passkey from '../../providers/passkey.js';
import { failures, type ErrorType } from '../errors.js';
import type { AuthConfig } from '../types.js';
import { testClient } from './client.js';
import { memoryJwtConfig } from './memory-jwt-config.js';

const SCRIPT = { 'x-auth-return-redirect': '1' };

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
	return memoryJwtConfig({
		logger: { error: () => {}, warn: () => {} },
		providers: [
			Credentials({ credentials: { username: {}, password: { type: 'password' } }, authorize: ({ password }) => (password === 'right' ? { id: '1', name: 'Ada' } : null) }),
			Passkey()
		],
		...overrides
	});
}

describe('MissingCSRF is 403 on every state-changing route', () => {
	const posts: [string, Record<string, string>][] = [
		['/auth/signin/credentials', { username: 'ada', password: 'right' }],
		['/auth/callback/credentials', { username: 'ada', password: 'right' }],
		['/auth/signout', {}],
		['/auth/session', {}],
		['/auth/webauthn-authenticators/passkey', { credentialID: 'x' }]
	];

	test.each(posts)('POST %s without a token, from a script', async (path, form) => {
		const client = testClient(config());
		await client.csrfToken();
		const response = await client.request(path, { form, headers: SCRIPT });
		expect(response.status).toBe(failures.MissingCSRF.status);
		expect(((await response.json()) as { error: string }).error).toBe('MissingCSRF');
	});

	test('a browser form post without a token is sent back to the sign-in page', async () => {
		const client = testClient(config());
		const response = await client.request('/auth/callback/credentials', { form: { username: 'ada', password: 'right' } });
		expect(response.status).toBe(302);
		expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('MissingCSRF');
	});
});

describe('script callers get the table’s status and the page to show', () => {
	test('a refused password is 401 with the sign-in page’s URL, as a rate-limited one is 429', async () => {
		// a store of its own: the process's store may hold another file's failures for 'ada'
		const client = testClient(config({ rateLimit: { store: MemoryRateLimitStore(), credentials: { perIdentifier: 1, perAddress: 0, windowSeconds: 60 } } }));
		const csrfToken = await client.csrfToken();
		const refused = await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada', password: 'wrong' }, headers: SCRIPT });
		expect(refused.status).toBe(401);
		const body = (await refused.json()) as { error: string; url: string };
		expect(body.error).toBe('CredentialsSignin');
		expect(new URL(body.url).searchParams.get('code')).toBe('credentials');
		const limited = await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada', password: 'wrong' }, headers: SCRIPT });
		expect(limited.status).toBe(429);
		expect(((await limited.json()) as { error: string }).error).toBe('RateLimited');
		expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
	});

	test('a success is still 200 { url }', async () => {
		const client = testClient(config());
		const csrfToken = await client.csrfToken();
		const ok = await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada', password: 'right' }, headers: SCRIPT });
		expect(ok.status).toBe(200);
		expect(await ok.json()).toEqual({ url: 'http://localhost:3000/' });
	});
});

describe('the error page', () => {
	test.each(Object.keys(failures) as ErrorType[])('%s: a sign-in link exactly when the table allows a retry, never an empty one', async (type) => {
		const response = await testClient(config()).request(`/auth/error?error=${type}`);
		const html = await response.text();
		expect(html).not.toMatch(/href=""/);
		expect(/href="[^"]*\/auth\/signin"/.test(html), type).toBe(failures[type].retry);
		expect(response.status).toBeLessThan(500);
	});

	test('an unknown provider shows the error page with a way back to sign in', async () => {
		const response = await testClient(config()).request('/auth/signin/nope', { method: 'POST', form: {}, headers: { accept: 'text/html' } });
		const location = new URL(response.headers.get('location')!);
		expect(location.pathname).toBe('/auth/error');
		const page = await testClient(config()).request(`${location.pathname}${location.search}`);
		expect(page.status).toBe(404);
		expect(await page.text()).toMatch(/href="http:\/\/localhost:3000\/auth\/signin"/);
	});
});

describe('server-side failures are 503 with their code, wherever they happen', () => {
	test('a missing adapter method on the session route and on a passkey route', async () => {
		const { getSessionAndUser: _a, createAuthenticator: _b, ...partial } = MemoryAdapter();
		const client = testClient(config({ adapter: partial, session: { strategy: 'database' } }));
		const session = await client.request('/auth/session', { headers: { cookie: 'kitgate.session-token=abc' } });
		expect([session.status, await session.json()]).toEqual([503, { error: 'MissingAdapterMethod' }]);
		const options = await client.request('/auth/webauthn-options/passkey?action=register&email=ada@example.com');
		expect([options.status, await options.json()]).toEqual([503, { error: 'MissingAdapterMethod' }]);
	});

	test('an unexpected exception on a JSON route is 503 Configuration, as a thrown configuration error is', async () => {
		for (const thrown of [new TypeError('bug'), new (await import('../errors.js')).InvalidConfiguration('bad')]) {
			const client = testClient(config({ callbacks: { session: () => { throw thrown; } } }));
			const csrfToken = await client.csrfToken();
			await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada', password: 'right' } });
			const response = await client.request('/auth/session');
			expect([response.status, await response.json()]).toEqual([503, { error: 'Configuration' }]);
		}
	});
});

describe('transport-level failures have codes of their own', () => {
	test('a body over 64 KB is 413 PayloadTooLarge from the engine, as from the Express integration', async () => {
		const client = testClient(config());
		const csrfToken = await client.csrfToken();
		const response = await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada', password: 'x'.repeat(70_000) }, headers: SCRIPT });
		expect(response.status).toBe(413);
		expect(((await response.json()) as { error: string }).error).toBe('PayloadTooLarge');
	});

	test('a route called with a method it does not take is 405 MethodNotAllowed with Allow', async () => {
		const response = await testClient(config()).request('/auth/csrf', { method: 'POST', form: {} });
		expect(response.status).toBe(405);
		expect(response.headers.get('allow')).toBe('GET');
		expect(await response.json()).toEqual({ error: 'MethodNotAllowed' });
	});
});

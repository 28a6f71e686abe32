import { describe, expect, test } from 'vitest';
import { checkSession } from './session-check.js';
import type { AuthConfig } from './types.js';

const request = { url: 'https://app.example/protected', headers: new Headers() };

describe('checkSession', () => {
	test('a configuration kitgate refuses rejects the promise, never throws at the call', async () => {
		let returned: Promise<unknown> | undefined;
		expect(() => {
			returned = checkSession(request, { providers: [], secret: 'short' } as AuthConfig);
		}).not.toThrow();
		await expect(returned).rejects.toThrow();
	});

	test('a request without a session cookie reads no session and sets nothing', async () => {
		const check = await checkSession(request, { providers: [], secret: 'a-secret-of-at-least-thirty-two-characters!' });
		expect(check).toEqual({ session: null, setCookies: [], cookies: [] });
	});
});

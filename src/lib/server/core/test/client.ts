// A tiny browser stand-in for integration tests: sends Web Requests to `Auth()` and keeps cookies.

import { Auth } from '../auth.js';
import { parseCookies } from '../request/cookies.js';
import type { AuthConfig } from '../types.js';
import { cookieHeaderOf, encodeRequest, sendCookies, type TestRequestBody } from './test-request.js';

/** Options of one test request. */
export interface TestRequestInit extends TestRequestBody {
	headers?: Record<string, string>;
}

/** A cookie-keeping client for one config; clients handed one `jar` are one browser on several servers. */
export function testClient(config: AuthConfig, origin = 'http://localhost:3000', jar = new Map<string, string>()) {
	async function request(path: string, init: TestRequestInit = {}): Promise<Response> {
		const headers = new Headers(init.headers);
		sendCookies(headers, jar);
		const { method, body } = encodeRequest(init, headers);
		const response = await Auth(new Request(new URL(path, origin), { method, headers, body }), config);
		for (const line of response.headers.getSetCookie()) {
			const [pair] = line.split(';');
			const name = pair.slice(0, pair.indexOf('='));
			const value = pair.slice(pair.indexOf('=') + 1);
			if (/max-age=0/i.test(line) || value === '') jar.delete(name);
			else jar.set(name, value);
		}
		return response;
	}
	async function csrfToken(): Promise<string> {
		const response = await request('/auth/csrf');
		return ((await response.json()) as { csrfToken: string }).csrfToken;
	}
	return { request, csrfToken, jar, cookies: () => parseCookies(cookieHeaderOf(jar)) };
}

/** A secret good enough for tests. */
export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789';

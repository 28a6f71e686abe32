// A tiny browser stand-in for integration tests: sends Web Requests to `Auth()` and keeps cookies.

import { Auth } from '../auth.js';
import { parseCookies } from '../request/cookies.js';
import type { AuthConfig } from '../types.js';

/** Options of one test request. */
export interface TestRequestInit {
	method?: string;
	headers?: Record<string, string>;
	/** A form body (urlencoded). */
	form?: Record<string, string>;
	/** A JSON body. */
	json?: unknown;
	/** A raw body with its own content-type header. */
	body?: BodyInit;
}

/** A cookie-keeping client for one config; clients handed one `jar` are one browser on several servers. */
export function testClient(config: AuthConfig, origin = 'http://localhost:3000', jar = new Map<string, string>()) {
	async function request(path: string, init: TestRequestInit = {}): Promise<Response> {
		const headers = new Headers(init.headers);
		if (jar.size && !headers.has('cookie')) {
			headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
		}
		let body: BodyInit | undefined = init.body;
		if (init.form) {
			headers.set('content-type', 'application/x-www-form-urlencoded');
			body = new URLSearchParams(init.form).toString();
		} else if (init.json !== undefined) {
			headers.set('content-type', 'application/json');
			body = JSON.stringify(init.json);
		}
		const method = init.method ?? (body !== undefined ? 'POST' : 'GET');
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
	return { request, csrfToken, jar, cookies: () => parseCookies([...jar].map(([k, v]) => `${k}=${v}`).join('; ')) };
}

/** A secret good enough for tests. */
export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789';

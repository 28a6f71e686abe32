// The Cookie header a test browser would send, for the requests a test writes by hand (raw paths,
// bodies a browser would not send).

import type { Browser } from '../integrations.js';

/**
 * The `Cookie` header `browser` holds for `origin`'s host ('' when it holds none).
 *
 * @example
 * await fetch(`${origin}/auth/admin/ban`, { method: 'POST', headers: { cookie: cookieHeader(eve.browser, origin) } });
 */
export function cookieHeader(browser: Browser, origin: string): string {
	const cookies = browser.jar.get(new URL(origin).host);
	return cookies ? [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') : '';
}

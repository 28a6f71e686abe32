// A small browser stand-in for the client's unit tests: `fetch` hands each request to the real
// engine (`Auth()`) with a cookie jar, `location` records navigations, and `window` is an event
// target that records the client's session announcements. `engineFetch` is that `fetch` alone, for a
// test that stands in for the rest of the browser itself.

import { vi } from 'vitest';
import { Auth } from '../../server/core/auth.js';
import type { AuthConfig } from '../../server/core/types.js';
import { SESSION_CHANGED, type SessionChange } from '../session-events.js';

export const ORIGIN = 'http://localhost:3000';
export const PAGE = `${ORIGIN}/page`;

/** What the stand-in saw. */
export interface EngineBrowser {
	/** Requests sent, as `METHOD path`. */
	requests: string[];
	/** Where the helpers navigated. */
	navigations: string[];
	/** The session changes the helpers announced on `window`. */
	announced: SessionChange[];
	/** The cookies the browser holds. */
	jar: Map<string, string>;
}

/**
 * Stubs `fetch`, `location` and `window` for one test (undo with `vi.unstubAllGlobals()`).
 *
 * @example
 * const browser = engineBrowser(config);
 * await signIn('credentials', { username, password }, { redirect: false });
 * expect(browser.jar.has('kitgate.session-token')).toBe(true);
 */
export function engineBrowser(config: AuthConfig): EngineBrowser {
	const seen: EngineBrowser = { requests: [], navigations: [], announced: [], jar: new Map() };
	vi.stubGlobal('fetch', engineFetch(config, { page: PAGE, jar: seen.jar, onRequest: ({ method, url }) => seen.requests.push(`${method} ${url.pathname}`) }));
	vi.stubGlobal('location', {
		get href() {
			return seen.navigations.at(-1) ?? PAGE;
		},
		set href(url: string) {
			seen.navigations.push(url);
		},
		reload: () => seen.navigations.push('reload')
	});
	const window = new EventTarget();
	window.addEventListener(SESSION_CHANGED, (event) => seen.announced.push((event as CustomEvent<SessionChange>).detail));
	vi.stubGlobal('window', window);
	return seen;
}

/** Where a stand-in `fetch` is, what it keeps, and who hears of each request. */
export interface EngineFetchOptions {
	/** The page's URL: relative requests resolve against it. */
	page: string;
	/** The browser's cookies, sent with each request and updated from each response. */
	jar: Map<string, string>;
	/** Told of each request before it is sent: its method, the URL as given and as resolved. */
	onRequest?: (sent: { method: string; input: string; url: URL }) => void;
}

/**
 * A `fetch` that hands each request to the real engine (`Auth()`) with a cookie jar; it stubs
 * nothing itself (hand it to `vi.stubGlobal('fetch', …)`).
 *
 * @example
 * const jar = new Map<string, string>();
 * vi.stubGlobal('fetch', engineFetch(config, { page: PAGE, jar }));
 */
export function engineFetch(config: AuthConfig, { page, jar, onRequest }: EngineFetchOptions) {
	return async (input: string, init: RequestInit = {}): Promise<Response> => {
		const url = new URL(input, page);
		onRequest?.({ method: init.method ?? 'GET', input, url });
		const headers = new Headers(init.headers);
		if (jar.size) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
		const response = await Auth(new Request(url, { ...init, headers }), config);
		for (const line of response.headers.getSetCookie()) {
			const [pair] = line.split(';');
			const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
			if (/max-age=0/i.test(line) || !value) jar.delete(name);
			else jar.set(name, value);
		}
		return response;
	};
}

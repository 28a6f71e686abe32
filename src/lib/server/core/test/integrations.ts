// Both integrations served over real HTTP for end-to-end tests of whole flows: an Express 5 app
// with `ExpressAuth` and `getSession`, and the SvelteKit app in fixtures/sveltekit-app (built by
// the global set-up, served through adapter-node's handler) with `handle` and the form actions.
// Each test swaps in its own config; `Browser` is a cookie-keeping client that talks to them.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { inject } from 'vitest';
import { ExpressAuth, getSession } from '../../express/index.js';
import type { AuthConfig } from '../types.js';
import { encodeRequest, sendCookies } from './test-request.js';

/** The two integrations every flow test runs on. */
export const INTEGRATIONS = ['express', 'sveltekit'] as const;
export type Integration = (typeof INTEGRATIONS)[number];

/** Options of the app around kitgate. */
export interface AppOptions {
	/** Express `trust proxy` (default false). */
	trustProxy?: boolean | number;
	/** SvelteKit: a hook after kitgate's reads `locals.auth()` on every request, as many apps do. */
	readSessionInHook?: boolean;
}

/** One integration listening on 127.0.0.1. */
export interface AppServer {
	integration: Integration;
	/** e.g. `http://127.0.0.1:41234` */
	origin: string;
	/**
	 * Serves `config` from now on. Express validates it here, as `ExpressAuth(config)` does at start-up.
	 * A function is a lazy config: it is called for every request (SvelteKit: `SvelteKitAuth(async (event) => …)`;
	 * Express: `ExpressAuth(config())` and `getSession(req, config())` per request), so it can build a new
	 * config, adapter included, each time.
	 */
	use(config: AuthConfig | (() => AuthConfig), options?: AppOptions): void;
	close(): Promise<void>;
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;


/** Starts one integration with no config yet (`use` before the first request). */
export async function startApp(integration: Integration): Promise<AppServer> {
	return integration === 'express' ? startExpressApp() : startSvelteKitApp();
}

/**
 * Starts both integrations; the returned object closes them with `closeAll`.
 *
 * @example
 * const apps = await startApps();
 * apps.express.use(config);
 */
export async function startApps(): Promise<Record<Integration, AppServer> & { closeAll(): Promise<void> }> {
	const [expressApp, svelteKitApp] = await Promise.all([startApp('express'), startApp('sveltekit')]);
	return {
		express: expressApp,
		sveltekit: svelteKitApp,
		closeAll: async () => {
			await Promise.all([expressApp.close(), svelteKitApp.close()]);
		}
	};
}

async function startExpressApp(): Promise<AppServer> {
	let config: AuthConfig | (() => AuthConfig) | undefined;
	let middleware: Middleware | undefined;
	const configNow = () => (typeof config === 'function' ? config() : (config as AuthConfig));
	const app = express();
	app.set('trust proxy', false);
	app.use('/auth', (req, res, next) => {
		if (typeof config === 'function') return (ExpressAuth(config()) as Middleware)(req, res, next);
		if (!middleware) return next(new Error('no config: call use(config) first'));
		middleware(req, res, next);
	});
	// a page of the app: the session as the app sees it
	app.get('/', async (req, res) => {
		res.json({ session: await getSession(req, configNow(), res) });
	});
	app.get('/protected', async (req, res) => {
		const session = await getSession(req, configNow(), res);
		if (!session?.user) return res.redirect(303, `/auth/signin?callbackUrl=${encodeURIComponent('/protected')}`);
		res.type('text/plain').send(`signed in as ${session.user.email}`);
	});
	const server = await listen(app);
	return {
		integration: 'express',
		origin: originOf(server),
		use(next, options = {}) {
			middleware = typeof next === 'function' ? undefined : (ExpressAuth(next) as Middleware);
			config = next;
			app.set('trust proxy', options.trustProxy ?? false);
		},
		close: () => closeServer(server)
	};
}

/** The kitgate config the SvelteKit fixture app reads on every request (see fixtures/sveltekit-app/src/harness.ts). */
interface HarnessGlobal {
	__kitgateHarness?: { config: AuthConfig | (() => AuthConfig); readSessionInHook?: boolean };
}

let svelteKitStarted = false;

/**
 * adapter-node reads ORIGIN once, when its handler module loads: the port is chosen first and the
 * app is served as a correctly deployed adapter-node app would be (`ORIGIN` set). One per test file.
 */
async function startSvelteKitApp(): Promise<AppServer> {
	if (svelteKitStarted) throw new Error('The SvelteKit test app serves one origin per test file: start it once (startApps).');
	svelteKitStarted = true;
	const port = await freePort();
	process.env.ORIGIN = `http://127.0.0.1:${port}`;
	const handlerModule = pathToFileURL(join(inject('harnessBuild'), 'handler.js')).href;
	const { handler } = (await import(/* @vite-ignore */ handlerModule)) as { handler: Middleware };
	const server = await listen((req: IncomingMessage, res: ServerResponse) =>
		handler(req, res, () => {
			res.statusCode = 404;
			res.end('not found');
		}),
		port
	);
	return {
		integration: 'sveltekit',
		origin: originOf(server),
		use(next, options = {}) {
			(globalThis as HarnessGlobal).__kitgateHarness = { config: next, readSessionInHook: options.readSessionInHook };
		},
		close: () => closeServer(server)
	};
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void, port = 0): Promise<Server> {
	return new Promise((resolve, reject) => {
		const server = createServer(handler);
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve(server));
	});
}

async function freePort(): Promise<number> {
	const probe = await listen(() => undefined);
	const { port } = probe.address() as AddressInfo;
	await closeServer(probe);
	return port;
}

function originOf(server: Server): string {
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: Server): Promise<void> {
	server.closeAllConnections();
	return new Promise((resolve) => server.close(() => resolve()));
}

/** Options of one browser request. */
export interface BrowserRequest {
	method?: string;
	headers?: Record<string, string>;
	/** A urlencoded form body; POST unless `method` says otherwise. */
	form?: Record<string, string>;
	/** A JSON body. */
	json?: unknown;
	/** Sent as the `Origin` header of a POST; default the URL's own origin (a same-site form). */
	origin?: string | null;
}

/**
 * A browser stand-in: keeps cookies per host (path `/`, no expiry handling beyond `Max-Age=0`),
 * sends `Origin` on POSTs like a browser, and does not follow redirects unless asked.
 *
 * @example
 * const browser = new Browser();
 * const token = await browser.csrfToken(app.origin);
 * await browser.request(`${app.origin}/auth/callback/credentials`, { form: { csrfToken: token, username: 'ada' } });
 */
export class Browser {
	/** Cookies by host, then by name. */
	readonly jar = new Map<string, Map<string, string>>();

	/** Sends one request (redirects are returned, not followed). */
	async request(url: string | URL, init: BrowserRequest = {}): Promise<Response> {
		const target = new URL(url);
		const headers = new Headers(init.headers);
		sendCookies(headers, this.jar.get(target.host));
		const { method, body } = encodeRequest(init, headers);
		if (method === 'POST' && init.origin !== null && !headers.has('origin')) headers.set('origin', init.origin ?? target.origin);
		const response = await fetch(target, { method, headers, body, redirect: 'manual' });
		this.store(target.host, response);
		return response;
	}

	/** Follows the redirects of `response` (GET each `Location`), at most 10, and returns the last answer. */
	async follow(response: Response): Promise<Response> {
		let current = response;
		let url = current.url;
		for (let hop = 0; hop < 10 && current.status >= 300 && current.status < 400; hop++) {
			const location = current.headers.get('location');
			if (!location) break;
			url = new URL(location, url).href;
			await current.arrayBuffer().catch(() => undefined);
			current = await this.request(url);
		}
		return current;
	}

	/** A fresh CSRF token from `GET {origin}/auth/csrf` (its cookie is kept). */
	async csrfToken(origin: string): Promise<string> {
		const response = await this.request(`${origin}/auth/csrf`);
		return ((await response.json()) as { csrfToken: string }).csrfToken;
	}

	/** The session as the app's own page sees it (`getSession` / `locals.auth()`). */
	async session(origin: string): Promise<{ user?: { name?: string | null; email?: string | null }; expires: string } | null> {
		const response = await this.request(`${origin}/`);
		return ((await response.json()) as { session: never }).session;
	}

	/** The value of cookie `name` for `origin`'s host. */
	cookie(origin: string, name: string): string | undefined {
		return this.jar.get(new URL(origin).host)?.get(name);
	}

	private store(host: string, response: Response): void {
		let cookies = this.jar.get(host);
		if (!cookies) this.jar.set(host, (cookies = new Map()));
		for (const line of response.headers.getSetCookie()) {
			const [pair] = line.split(';');
			const at = pair.indexOf('=');
			const name = pair.slice(0, at).trim();
			const value = pair.slice(at + 1);
			if (/max-age=0/i.test(line) || /expires=thu, 01 jan 1970/i.test(line) || value === '') cookies.delete(name);
			else cookies.set(name, value);
		}
	}
}

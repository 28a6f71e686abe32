// The real Auth.js for compatibility tests: bench/reference's pinned @auth/core, @auth/express and
// adapters (installed on first use), loaded by a dynamic import so that kitgate's type check never needs them.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureReferenceInstalled, REFERENCE_DIR } from '../../../../../bench/install-reference.js';
import type { Browser } from './integrations.js';

/** What a test passes to Auth.js: its own config shape, loosely typed here (Auth.js checks it). */
export type AuthjsConfig = Record<string, unknown>;

/** The parts of Auth.js the tests use (bench/reference/compat.js). */
export interface AuthjsReference {
	/** `encode` of `@auth/core/jwt`: the session JWT as Auth.js makes it. */
	encode(params: { token?: Record<string, unknown>; secret: string | string[]; salt: string; maxAge?: number }): Promise<string>;
	/** `decode` of `@auth/core/jwt`. */
	decode(params: { token?: string; secret: string | string[]; salt: string }): Promise<Record<string, unknown> | null>;
	/** The credentials provider of `@auth/express`. */
	Credentials(options: { credentials?: Record<string, unknown>; authorize: (credentials: Record<string, unknown>) => unknown }): unknown;
	/** `@auth/pg-adapter` over a `pg` pool. */
	PostgresAdapter(pool: unknown): unknown;
	/** `@auth/drizzle-adapter` on its default SQLite tables, over a better-sqlite3 database. */
	DrizzleSqliteAdapter(database: unknown): unknown;
	/** `ExpressAuth(config)` under /auth on 127.0.0.1. */
	startAuthjsExpress(config: AuthjsConfig): Promise<{ origin: string; close(): Promise<void> }>;
}

/**
 * Installs bench/reference when a pinned package is missing (first run), then loads it.
 *
 * @example
 * beforeAll(async () => { authjs = await loadAuthjs(); }, 300_000);
 */
export async function loadAuthjs(): Promise<AuthjsReference> {
	await ensureReferenceInstalled();
	return (await import(/* @vite-ignore */ pathToFileURL(join(REFERENCE_DIR, 'compat.js')).href)) as AuthjsReference;
}

/** Auth.js's size of one session cookie chunk (lib/utils/cookie.ts: 4096 - 160). */
export const AUTHJS_CHUNK_SIZE = 3936;

/**
 * `value` under `name` as Auth.js stores it: whole when it fits, else chunks `name.0`, `name.1`, …
 *
 * @example
 * browser.jar.set(host, new Map(Object.entries(authjsCookies('authjs.session-token', jwe))));
 */
export function authjsCookies(name: string, value: string): Record<string, string> {
	if (value.length <= AUTHJS_CHUNK_SIZE) return { [name]: value };
	const chunks: Record<string, string> = {};
	for (let index = 0; index * AUTHJS_CHUNK_SIZE < value.length; index++) {
		chunks[`${name}.${index}`] = value.slice(index * AUTHJS_CHUNK_SIZE, (index + 1) * AUTHJS_CHUNK_SIZE);
	}
	return chunks;
}

/**
 * Signs `username` in on an @auth/express app with its credentials provider, as a browser does
 * (CSRF token, form post); the browser keeps the cookies Auth.js set.
 *
 * @example
 * await authjsCredentialsSignIn(browser, authjsApp.origin, 'ada');
 */
export async function authjsCredentialsSignIn(browser: Browser, origin: string, username: string): Promise<void> {
	const csrfToken = await browser.csrfToken(origin);
	const response = await browser.request(`${origin}/auth/callback/credentials`, { form: { csrfToken, username } });
	if (response.status !== 302 || response.headers.get('location')?.includes('error')) {
		throw new Error(`Auth.js credentials sign-in failed: ${response.status} ${response.headers.get('location')}`);
	}
}

/**
 * Signs `email` in on an @auth/express app with its email provider: requests the link (caught by
 * the provider's `sendVerificationRequest` into `links`) and opens it, as a browser does.
 *
 * @example
 * await authjsEmailSignIn(browser, authjsApp.origin, 'ada@example.com', links);
 */
export async function authjsEmailSignIn(browser: Browser, origin: string, email: string, links: string[]): Promise<void> {
	const csrfToken = await browser.csrfToken(origin);
	const sent = links.length;
	const request = await browser.request(`${origin}/auth/signin/email`, { form: { csrfToken, email } });
	if (request.status !== 302 || links.length !== sent + 1) throw new Error(`Auth.js sent no sign-in link: ${request.status} ${request.headers.get('location')}`);
	const callback = await browser.request(links[sent]);
	if (callback.status !== 302 || callback.headers.get('location')?.includes('error')) {
		throw new Error(`Auth.js email callback failed: ${callback.status} ${callback.headers.get('location')}`);
	}
}

/**
 * An email provider as Auth.js takes it, whose mail is a link pushed onto `links`.
 *
 * @example
 * const links: string[] = []; providers: [authjsEmailProvider(links)]
 */
export function authjsEmailProvider(links: string[]): Record<string, unknown> {
	return {
		id: 'email',
		type: 'email',
		name: 'Email',
		from: 'auth@example.com',
		maxAge: 24 * 60 * 60,
		options: {},
		sendVerificationRequest: ({ url }: { url: string }) => void links.push(url)
	};
}

/**
 * Moves the Auth.js session cookie (all its chunks) from one origin's jar to another's: the same
 * browser, once the site runs kitgate instead (the tests serve the two apps on two ports).
 *
 * @example
 * carrySessionCookies(browser, authjsApp.origin, app.origin);
 */
export function carrySessionCookies(browser: Browser, from: string, to: string): Record<string, string> {
	const source = browser.jar.get(new URL(from).host) ?? new Map<string, string>();
	const carried = Object.fromEntries([...source].filter(([name]) => /^(__Secure-)?authjs\.session-token(\.\d+)?$/.test(name)));
	const target = browser.jar.get(new URL(to).host) ?? new Map<string, string>();
	for (const [name, value] of Object.entries(carried)) target.set(name, value);
	browser.jar.set(new URL(to).host, target);
	return carried;
}

// A signed-in session for an app's tests (`kitgate/testing`): the engine starts it as a sign-in
// would (its own JWT encoding, cookie names and `jwt` callback, or a row through the app's adapter).

import { resolveConfig } from '../server/core/config/resolve-config.js';
import { createContext } from '../server/core/request/context.js';
import type { OutgoingCookie } from '../server/core/request/cookies.js';
import { establishSession } from '../server/core/session/session.js';
import type { GuardedAdapter } from '../server/core/store/adapter-guard.js';
import type { Account, AdapterUser, AuthConfig, User } from '../server/core/types.js';

/**
 * The app's configuration as {@link createTestSession} needs it: what decides the session
 * (`secret`, `session`, `adapter`, `jwt`, `cookies`, `callbacks.jwt`, `basePath`). `providers` may
 * be left out: a test session is started without a provider, so their variables need not be set.
 *
 * @example
 * const config: TestSessionConfig = { secret: process.env.AUTH_SECRET, adapter: SQLiteAdapter({ filename: '.data/auth.sqlite' }) };
 */
export type TestSessionConfig = Omit<AuthConfig, 'providers'> & { providers?: AuthConfig['providers'] };

/**
 * Options of {@link createTestSession}.
 *
 * @example
 * const options: TestSessionOptions = { config, user: { email: 'ada@example.com' }, origin: 'http://localhost:4173' };
 */
export interface TestSessionOptions {
	/** The app's configuration (or just its `secret`, and `adapter` for database sessions). */
	config: TestSessionConfig;
	/**
	 * Who is signed in. With an adapter: the stored user with this `id`, else with this `email`,
	 * else a new one made from these fields (`email` is then required). Without one, the JWT's
	 * `sub` is `id` (a random UUID when absent).
	 */
	user: User;
	/** The app's public origin, e.g. `http://localhost:4173`: `https:` gives `__Secure-` cookie names. */
	origin: string | URL;
	/** The account handed to the app's `jwt` callback, as a sign-in with that provider would (default `null`). */
	account?: Account | null;
	/** The `User-Agent` a database session row records (default none). */
	userAgent?: string;
}

/**
 * A cookie in the shape Playwright's `browserContext.addCookies()` takes.
 *
 * @example
 * await context.addCookies(session.cookies);
 */
export interface TestCookie {
	/** The engine's cookie name (`kitgate.session-token`, `__Secure-` over https, `.0`, `.1`… for chunks). */
	name: string;
	/** The value as the browser stores it. */
	value: string;
	/** The origin's host name (or the config's cookie `domain`). */
	domain: string;
	/** The cookie path (`/` unless the config says otherwise). */
	path: string;
	/** Unix time in seconds. */
	expires: number;
	/** Always true for the session cookie unless the config says otherwise. */
	httpOnly: boolean;
	/** True over https (or with `useSecureCookies`). */
	secure: boolean;
	/** `Lax` unless the config says otherwise. */
	sameSite: 'Strict' | 'Lax' | 'None';
}

/**
 * A started session: its cookies for a browser, the same as a `Cookie` header for `fetch`, and
 * the user it belongs to.
 *
 * @example
 * const response = await fetch(`${origin}/auth/session`, { headers: { cookie: session.cookieHeader } });
 */
export interface TestSession {
	/** The signed-in user (the stored one, with an adapter). */
	user: User | AdapterUser;
	/** The session cookie (several when a large JWT is split into chunks). */
	cookies: TestCookie[];
	/** `name=value; …` of `cookies`, for a request's `Cookie` header. */
	cookieHeader: string;
	/** When the session ends. */
	expires: Date;
}

/**
 * Starts a session for `user` the way a sign-in starts one, without going through a sign-in: the
 * app's engine accepts its cookie. Under JWT sessions the cookie is encrypted with the app's
 * secret (and `jwt.encode`, after the `jwt` callback); under database sessions a session row is
 * created through the app's adapter. A second factor is not asked for. For tests only: anyone
 * holding the app's secret or database can do the same.
 *
 * @example
 * import { createTestSession } from 'kitgate/testing';
 *
 * const session = await createTestSession({
 * 	config: { secret: process.env.AUTH_SECRET },
 * 	user: { id: 'ada', email: 'ada@example.com', name: 'Ada' },
 * 	origin: 'http://localhost:4173'
 * });
 * await context.addCookies(session.cookies); // Playwright
 * await fetch('http://localhost:4173/dashboard', { headers: { cookie: session.cookieHeader } });
 */
export async function createTestSession(options: TestSessionOptions): Promise<TestSession> {
	const origin = new URL(options.origin).origin;
	// providers play no part in a session; without them their variables need not be set in a test
	const config = resolveConfig({ ...options.config, providers: [], trustHost: true });
	const headers = new Headers(options.userAgent ? { 'user-agent': options.userAgent } : {});
	const ctx = createContext(new Request(`${origin}${config.basePath}/session`, { headers }), config, { requestUrlIsPublic: true });
	const user = config.adapter ? await storedUser(config.adapter, options.user) : { ...options.user, id: options.user.id ?? crypto.randomUUID() };
	const started = await establishSession(ctx, { user, account: options.account ?? null });
	if (!started) throw new Error('createTestSession: the app\'s jwt callback returned null, so no session was started.');
	const written = ctx.setCookies.filter((cookie) => cookie.value !== '' && cookie.options.maxAge !== 0);
	const cookies = written.map((cookie) => toTestCookie(cookie, new URL(origin).hostname));
	const expires = written[0]?.options.expires ?? new Date(ctx.now + config.session.maxAge * 1000);
	return { user, cookies, cookieHeader: cookies.map(({ name, value }) => `${name}=${value}`).join('; '), expires };
}

/** The stored user `wanted` names (by id, then email), or a new one made from it. */
async function storedUser(adapter: GuardedAdapter, wanted: User): Promise<AdapterUser> {
	const byId = wanted.id ? await adapter.getUser(wanted.id) : null;
	if (byId) return byId;
	const byEmail = wanted.email ? await adapter.getUserByEmail(wanted.email) : null;
	if (byEmail) return byEmail;
	if (!wanted.email) throw new TypeError('createTestSession: no stored user has this id; give `user.email` to create one.');
	return adapter.createUser({
		...wanted,
		id: wanted.id ?? crypto.randomUUID(),
		email: wanted.email,
		name: wanted.name ?? null,
		image: wanted.image ?? null,
		emailVerified: wanted.emailVerified instanceof Date ? wanted.emailVerified : null
	});
}

const SAME_SITE = { lax: 'Lax', strict: 'Strict', none: 'None' } as const;

/** A Set-Cookie of the engine as Playwright takes it; the value as the browser would store it. */
function toTestCookie(cookie: OutgoingCookie, hostname: string): TestCookie {
	const { options } = cookie;
	return {
		name: cookie.name,
		value: /^[\w.~-]*$/.test(cookie.value) ? cookie.value : encodeURIComponent(cookie.value),
		domain: options.domain ?? hostname,
		path: options.path ?? '/',
		expires: options.expires ? Math.floor(options.expires.getTime() / 1000) : -1,
		httpOnly: options.httpOnly ?? false,
		secure: options.secure ?? false,
		sameSite: SAME_SITE[options.sameSite ?? 'lax']
	};
}

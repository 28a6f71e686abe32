// `migrateSessionsFrom: "authjs"` through `Auth()`: which cookie is read, what replaces it, what is
// cleared. Tokens come from a jose oracle of Auth.js's format; test/authjs-sessions.test.ts uses the real @auth/core.

import { hkdfSync } from 'node:crypto';
import { EncryptJWT, base64url, calculateJwkThumbprint } from 'jose';
import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import Credentials from '../../providers/credentials.js';
import { authjsSessionCookieName } from '../request/cookies.js';
import { resolveConfig } from '../config/resolve-config.js';
import { InvalidConfiguration } from '../errors.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import { encodeJwt } from '../crypto/jwt.js';
import { revokeSessions } from './revocation.js';
import { TEST_SECRET, testClient } from '../test/client.js';
import { ownClockAndLog } from '../test/credentials-fixture.js';
import { quietLogger } from '../test/oauth-fixtures.js';
import type { AuthConfig, JWT, Session } from '../types.js';

const NOW = Date.UTC(2030, 0, 1, 12);
const OLD_SECRET = 'old-secret-old-secret-old-secret-0123456789';
const OTHER_SECRET = 'someone-elses-secret-someone-elses-secret-01';
const HTTP = 'http://localhost:3000';
const HTTPS = 'https://example.com';
const PLAIN = 'authjs.session-token';
const SECURE = '__Secure-authjs.session-token';
const ADA: JWT = { name: 'Ada', email: 'ada@example.com', picture: null, sub: 'user-1' };

/** A token in Auth.js's format (what @auth/core's `encode` makes), from jose and node:crypto. */
async function authjsToken(claims: JWT, options: { secret?: string; salt?: string; maxAge?: number; now?: number } = {}) {
	const { secret = TEST_SECRET, salt = PLAIN, maxAge = 30 * 86_400, now = NOW } = options;
	const key = new Uint8Array(hkdfSync('sha256', secret, salt, `Auth.js Generated Encryption Key (${salt})`, 64));
	const kid = await calculateJwkThumbprint({ kty: 'oct', k: base64url.encode(key) }, 'sha512');
	const seconds = Math.floor(now / 1000);
	return new EncryptJWT(claims)
		.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512', kid })
		.setIssuedAt(seconds)
		.setExpirationTime(seconds + maxAge)
		.setJti(crypto.randomUUID())
		.encrypt(key);
}

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
	return {
		...ownClockAndLog({ now: NOW }, quietLogger()),
		providers: [Credentials({ minFailureMs: 0, authorize: ({ username }) => (username ? { id: String(username), name: String(username) } : null) })],
		migrateSessionsFrom: 'authjs',
		...overrides
	};
}

/** GET /auth/session with exactly `cookie` as the Cookie header. */
async function readWith(cfg: AuthConfig, cookie: string, origin = HTTP) {
	const client = testClient(cfg, origin);
	const response = await client.request('/auth/session', { headers: { cookie } });
	const setCookies = response.headers.getSetCookie();
	return {
		status: response.status,
		session: (await response.json()) as Session | null,
		setCookies,
		/** Names the answer removes (Max-Age=0). */
		cleared: setCookies.filter((line) => /max-age=0/i.test(line)).map((line) => line.slice(0, line.indexOf('='))).sort(),
		/** Names the answer sets to a value. */
		set: setCookies.filter((line) => !/max-age=0/i.test(line)).map((line) => line.slice(0, line.indexOf('='))).sort(),
		client
	};
}

/** `name=value` for a value split the way Auth.js splits large cookies (`.0`, `.1`, …). */
function chunked(name: string, value: string, size = 3936): string {
	const parts: string[] = [];
	for (let index = 0; index * size < value.length; index++) parts.push(`${name}.${index}=${value.slice(index * size, (index + 1) * size)}`);
	return parts.join('; ');
}

describe('authjsSessionCookieName', () => {
	test('Auth.js names its session cookie after the scheme, as its defaultCookies do', () => {
		expect(authjsSessionCookieName(false)).toBe(PLAIN);
		expect(authjsSessionCookieName(true)).toBe(SECURE);
	});
});

describe('JWT sessions from an Auth.js cookie', () => {
	test('a valid cookie is a session; the answer sets kitgate\'s cookie and clears the Auth.js one', async () => {
		const read = await readWith(config(), `${PLAIN}=${await authjsToken(ADA)}`);
		expect(read.session).toMatchObject({ user: { name: 'Ada', email: 'ada@example.com', image: null } });
		expect(read.set).toEqual(['kitgate.session-token']);
		expect(read.cleared).toEqual([PLAIN]);
	});

	test('the next request, with kitgate\'s cookie only, has the same session', async () => {
		const cfg = config();
		const first = await readWith(cfg, `${PLAIN}=${await authjsToken({ ...ADA, role: 'admin' })}`);
		const kitgateCookie = first.setCookies.find((line) => line.startsWith('kitgate.session-token='))!.split(';')[0];
		const second = await readWith(
			config({ callbacks: { session: ({ session, token }) => ({ ...session, role: token?.role }) } }),
			kitgateCookie
		);
		expect(second.session).toMatchObject({ user: { name: 'Ada' }, role: 'admin' });
		expect(second.setCookies).toEqual([]);
	});

	test('over HTTPS the __Secure- cookie is read; an unprefixed one (settable over plain HTTP) is not', async () => {
		const secure = await readWith(config(), `${SECURE}=${await authjsToken(ADA, { salt: SECURE })}`, HTTPS);
		expect(secure.session?.user.name).toBe('Ada');
		expect(secure.set).toEqual(['__Secure-kitgate.session-token']);
		expect(secure.cleared).toEqual([SECURE]);
		expect(secure.setCookies.find((line) => line.startsWith(SECURE))).toMatch(/; Secure/i);

		const injected = await readWith(config(), `${PLAIN}=${await authjsToken(ADA, { salt: PLAIN })}`, HTTPS);
		expect(injected.session).toBeNull();
		expect(injected.setCookies).toEqual([]);
	});

	test('a token is bound to its cookie name: one made for another name (or __Host-) is no session', async () => {
		// salt of the HTTPS cookie, served as the HTTP one
		const swapped = await readWith(config(), `${PLAIN}=${await authjsToken(ADA, { salt: SECURE })}`);
		expect(swapped.session).toBeNull();
		expect(swapped.cleared).toEqual([PLAIN, 'kitgate.session-token']);
		// Auth.js never writes a __Host- session cookie: not read, whatever its salt
		const host = '__Host-authjs.session-token';
		const hostCookie = await readWith(config(), `${host}=${await authjsToken(ADA, { salt: host })}`, HTTPS);
		expect(hostCookie.session).toBeNull();
		expect(hostCookie.setCookies).toEqual([]);
		// another Auth.js cookie's salt (its PKCE verifier cookie is made by the same encode)
		const pkce = await readWith(config(), `${PLAIN}=${await authjsToken(ADA, { salt: 'authjs.pkce.code_verifier' })}`);
		expect(pkce.session).toBeNull();
	});

	test('chunked cookies (.0, .1, …) are joined, and every chunk is cleared', async () => {
		const token = await authjsToken({ ...ADA, blob: 'x'.repeat(6000) });
		const cookie = chunked(PLAIN, token);
		const read = await readWith(config(), cookie);
		expect(read.session?.user.name).toBe('Ada');
		expect(read.cleared).toEqual(cookie.split('; ').map((pair) => pair.slice(0, pair.indexOf('='))));
		expect(read.cleared.length).toBeGreaterThan(1);
		expect(read.set.every((name) => name.startsWith('kitgate.session-token'))).toBe(true);
	});

	test('a broken chunk set is no session and is cleared', async () => {
		const token = await authjsToken({ ...ADA, blob: 'x'.repeat(9000) });
		const [first, , third] = chunked(PLAIN, token).split('; ');
		const read = await readWith(config(), `${first}; ${third}`);
		expect(read.session).toBeNull();
		expect(read.cleared).toEqual([`${PLAIN}.0`, `${PLAIN}.2`, 'kitgate.session-token']);
	});

	test('any secret of the rotation opens it; a foreign secret does not', async () => {
		const rotated = config({ secret: [TEST_SECRET, OLD_SECRET] });
		expect((await readWith(rotated, `${PLAIN}=${await authjsToken(ADA, { secret: OLD_SECRET })}`)).session?.user.name).toBe('Ada');
		const foreign = await readWith(rotated, `${PLAIN}=${await authjsToken(ADA, { secret: OTHER_SECRET })}`);
		expect(foreign).toMatchObject({ status: 200, session: null, cleared: [PLAIN, 'kitgate.session-token'] });
	});

	test('tampered, expired, garbage: no session, never a 5xx, the cookie cleared', async () => {
		const token = await authjsToken(ADA);
		const parts = token.split('.');
		parts[3] = parts[3].slice(0, 10) + (parts[3][10] === 'A' ? 'B' : 'A') + parts[3].slice(11);
		const expired = await authjsToken(ADA, { maxAge: 60, now: NOW - 3600_000 });
		for (const value of [parts.join('.'), expired, 'not-a-jwe', 'e30..AAAA.AAAA.AAAA']) {
			const read = await readWith(config(), `${PLAIN}=${value}`);
			expect(read).toMatchObject({ status: 200, session: null, cleared: [PLAIN, 'kitgate.session-token'] });
		}
	});

	test('a kitgate cookie wins over an Auth.js one beside it, which is cleared', async () => {
		const cfg = config();
		const kitgate = await encodeJwt({ token: { ...ADA, name: 'Kit' }, secret: TEST_SECRET, salt: 'kitgate.session-token', maxAge: 3600, now: NOW });
		const read = await readWith(cfg, `kitgate.session-token=${kitgate}; ${PLAIN}=${await authjsToken({ ...ADA, name: 'Eve' })}`);
		expect(read.session?.user.name).toBe('Kit');
		expect(read.cleared).toEqual([PLAIN]);
		expect(read.set).toEqual([]);
	});

	test('even an invalid or broken kitgate cookie outranks an Auth.js one (a tossed cookie cannot take over)', async () => {
		const eve = await authjsToken({ ...ADA, sub: 'eve', name: 'Eve' });
		for (const kitgate of ['kitgate.session-token=garbage', 'kitgate.session-token.0=abc; kitgate.session-token.2=def']) {
			const read = await readWith(config(), `${kitgate}; ${PLAIN}=${eve}`);
			expect(read.session).toBeNull();
			expect(read.cleared).toContain(PLAIN);
		}
	});

	test('the jwt and session callbacks run on the Auth.js token, custom claims included', async () => {
		const seen: JWT[] = [];
		const cfg = config({
			callbacks: {
				jwt: ({ token }) => {
					seen.push(token);
					return { ...token, visits: Number(token.visits ?? 0) + 1 };
				},
				session: ({ session, token }) => ({ ...session, role: token?.role, visits: token?.visits })
			}
		});
		const read = await readWith(cfg, `${PLAIN}=${await authjsToken({ ...ADA, role: 'editor' })}`);
		expect(seen[0]).toMatchObject({ ...ADA, role: 'editor', iat: NOW / 1000 });
		expect(read.session).toMatchObject({ role: 'editor', visits: 1 });
	});

	test('a jwt callback that returns null ends the session and clears both cookies', async () => {
		const read = await readWith(config({ callbacks: { jwt: () => null } }), `${PLAIN}=${await authjsToken(ADA)}`);
		expect(read.session).toBeNull();
		expect(read.cleared).toEqual([PLAIN, 'kitgate.session-token']);
	});

	test('revokeSessions(userId) also ends the user\'s Auth.js sessions', async () => {
		// a store of its own: the process-wide one would revoke user-1 in the other tests too
		const cfg = config({ now: () => NOW + 1000, session: { revocationStore: MemoryRateLimitStore() } });
		await revokeSessions('user-1', cfg);
		const read = await readWith(cfg, `${PLAIN}=${await authjsToken(ADA)}`);
		expect(read.session).toBeNull();
		expect(read.cleared).toContain(PLAIN);
	});

	test('an app with its own jwt.decode (carried over from Auth.js) reads the Auth.js cookie with it, under that cookie\'s name', async () => {
		const salts: string[] = [];
		const cfg = config({
			jwt: {
				decode: ({ token, salt }) => {
					salts.push(salt);
					return token === 'custom-format' ? { ...ADA, name: 'Custom' } : null;
				}
			}
		});
		expect((await readWith(cfg, `${PLAIN}=custom-format`)).session?.user.name).toBe('Custom');
		expect(salts).toContain(PLAIN);
		// Auth.js's own format is still read
		expect((await readWith(cfg, `${PLAIN}=${await authjsToken(ADA)}`)).session?.user.name).toBe('Ada');
	});

	test('sign-out clears the Auth.js cookie (and fires signOut with its token)', async () => {
		const signOuts: unknown[] = [];
		const cfg = config({ events: { signOut: (message) => void signOuts.push(message) } });
		const client = testClient(cfg);
		const csrfToken = await client.csrfToken();
		client.jar.set(PLAIN, await authjsToken(ADA));
		const response = await client.request('/auth/signout', { form: { csrfToken } });
		expect(response.status).toBe(302);
		const cleared = response.headers.getSetCookie().filter((line) => /max-age=0/i.test(line)).map((line) => line.split('=')[0]);
		expect(cleared).toEqual(expect.arrayContaining([PLAIN, 'kitgate.session-token']));
		expect(signOuts).toEqual([{ token: expect.objectContaining({ sub: 'user-1' }) }]);
		expect(client.jar.has(PLAIN)).toBe(false);
	});

	test('sign-in clears an Auth.js cookie the browser still has', async () => {
		const client = testClient(config());
		const csrfToken = await client.csrfToken();
		client.jar.set(PLAIN, await authjsToken(ADA));
		await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'bob' } });
		expect(client.jar.has(PLAIN)).toBe(false);
		expect(((await (await client.request('/auth/session')).json()) as Session).user.name).toBe('bob');
	});

	test('update (POST /auth/session) works on an Auth.js cookie', async () => {
		const cfg = config({
			callbacks: { jwt: ({ token, trigger, session }) => (trigger === 'update' ? { ...token, theme: session } : token), session: ({ session, token }) => ({ ...session, theme: token?.theme }) }
		});
		const client = testClient(cfg);
		const csrfToken = await client.csrfToken();
		client.jar.set(PLAIN, await authjsToken(ADA));
		const response = await client.request('/auth/session', { json: { csrfToken, data: 'dark' } });
		expect(await response.json()).toMatchObject({ theme: 'dark' });
		expect(client.jar.has(PLAIN)).toBe(false);
		expect(client.jar.has('kitgate.session-token')).toBe(true);
	});

	test('without the option an Auth.js cookie is ignored and left alone', async () => {
		const read = await readWith(config({ migrateSessionsFrom: undefined }), `${PLAIN}=${await authjsToken(ADA)}`);
		expect(read.session).toBeNull();
		expect(read.setCookies).toEqual([]);
	});
});

describe('database sessions from an Auth.js cookie', () => {
	async function withRow(expires = new Date(NOW + 30 * 86_400_000 - 3600_000)) {
		const adapter = MemoryAdapter();
		const user = await adapter.createUser({ id: 'u-1', name: 'Ada', email: 'ada@example.com', emailVerified: null });
		// what Auth.js's database strategy stores: a random UUID token, the user's id, the expiry
		const sessionToken = crypto.randomUUID();
		await adapter.createSession({ sessionToken, userId: user.id, expires });
		return { adapter, sessionToken };
	}

	test('the token is looked up; kitgate\'s cookie carries the same token, the row\'s expiry unchanged', async () => {
		const { adapter, sessionToken } = await withRow();
		const read = await readWith(config({ adapter }), `${PLAIN}=${sessionToken}`);
		expect(read.session).toMatchObject({ user: { name: 'Ada', email: 'ada@example.com' } });
		expect(read.setCookies.find((line) => line.startsWith('kitgate.session-token='))).toContain(`kitgate.session-token=${sessionToken};`);
		expect(read.cleared).toEqual([PLAIN]);
		expect((await adapter.getSessionAndUser(sessionToken))?.session.expires.getTime()).toBe(NOW + 30 * 86_400_000 - 3600_000);
	});

	test('an unknown or expired token is no session and is cleared (the expired row deleted)', async () => {
		const { adapter, sessionToken } = await withRow(new Date(NOW - 1000));
		const expired = await readWith(config({ adapter }), `${PLAIN}=${sessionToken}`);
		expect(expired).toMatchObject({ session: null, cleared: [PLAIN, 'kitgate.session-token'] });
		expect(await adapter.getSessionAndUser(sessionToken)).toBeNull();
		const unknown = await readWith(config({ adapter }), `${PLAIN}=${crypto.randomUUID()}`);
		expect(unknown).toMatchObject({ session: null, cleared: [PLAIN, 'kitgate.session-token'] });
	});

	test('sign-out deletes the Auth.js session row and clears its cookie', async () => {
		const { adapter, sessionToken } = await withRow();
		const client = testClient(config({ adapter }));
		const csrfToken = await client.csrfToken();
		client.jar.set(PLAIN, sessionToken);
		await client.request('/auth/signout', { form: { csrfToken } });
		expect(client.jar.has(PLAIN)).toBe(false);
		expect(await adapter.getSessionAndUser(sessionToken)).toBeNull();
	});
});

describe('configuration', () => {
	test('only "authjs" is accepted', () => {
		expect(() => resolveConfig(config({ migrateSessionsFrom: 'next-auth' as 'authjs' }))).toThrow(InvalidConfiguration);
		expect(() => resolveConfig(config({ migrateSessionsFrom: 'next-auth' as 'authjs' }))).toThrow(/migrateSessionsFrom must be "authjs"/);
	});

	test('kitgate\'s session cookie may not take Auth.js\'s name while its cookies are read', () => {
		for (const name of [PLAIN, SECURE]) {
			const cfg = config({ cookies: { sessionToken: { name, options: {} } } });
			expect(() => resolveConfig(cfg)).toThrow(/the name of Auth\.js's session cookie/);
		}
		expect(() => resolveConfig(config({ migrateSessionsFrom: undefined, cookies: { sessionToken: { name: PLAIN, options: {} } } }))).not.toThrow();
	});
});

// Attacks on `migrateSessionsFrom: "authjs"`: can an attacker get a session he should not through
// the Auth.js cookie kitgate now reads? Tokens are made by the real @auth/core; requests go to `Auth()`.
//
// HOLDS: a token is bound to the cookie name it was made for (HTTP/HTTPS names swapped, Auth.js's
// other encrypted cookies, a __Host- name, kitgate's own tokens under Auth.js's name and back); only
// the scheme's own name is read (no unprefixed cookie on HTTPS, whatever X-Forwarded-Proto says
// when the public URL is fixed; no __Secure- one on HTTP); a kitgate cookie, even a broken set of
// chunks, outranks a tossed Auth.js cookie; revoked users, oversized chunk sets and JWT cookies
// under database sessions are no session and no 5xx.

import { beforeAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Credentials from '../../../providers/credentials.js';
import { encodeJwt } from '../../crypto/jwt.js';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import { revokeSessions } from '../../session/revocation.js';
import type { AuthConfig, Session } from '../../types.js';
import { authjsCookies, loadAuthjs, type AuthjsReference } from '../authjs-reference.js';
import { TEST_SECRET, testClient } from '../client.js';
import { quietLogger } from '../oauth-fixtures.js';

const PLAIN = 'authjs.session-token';
const SECURE = '__Secure-authjs.session-token';
const HTTP = 'http://localhost:3000';
const HTTPS = 'https://example.com';
const VICTIM = { name: 'Ada', email: 'ada@example.com', sub: 'ada' };
const ATTACKER = { name: 'Eve', email: 'eve@example.com', sub: 'eve' };

let authjs: AuthjsReference;
beforeAll(async () => {
	authjs = await loadAuthjs();
}, 300_000);

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
	return {
		secret: TEST_SECRET,
		trustHost: true,
		logger: quietLogger().logger,
		session: { revocationStore: MemoryRateLimitStore() },
		providers: [Credentials({ minFailureMs: 0, authorize: () => null })],
		migrateSessionsFrom: 'authjs',
		...overrides
	};
}

/** The session `cookie` gives at `origin`, and the status and cookies of the answer. */
async function sessionWith(cookie: string, options: { origin?: string; config?: AuthConfig; headers?: Record<string, string> } = {}) {
	const client = testClient(options.config ?? config(), options.origin ?? HTTP);
	const response = await client.request('/auth/session', { headers: { ...options.headers, cookie } });
	const setsKitgate = response.headers.getSetCookie().some((line) => /kitgate\.session-token(\.\d+)?=[^;]/.test(line) && !/max-age=0/i.test(line));
	return { status: response.status, session: (await response.json()) as Session | null, setsKitgate };
}

const encode = (token: Record<string, unknown>, salt: string, secret = TEST_SECRET) => authjs.encode({ token, secret, salt });

describe('a token is bound to the cookie it was made for', () => {
	test('the HTTPS cookie\'s token served under the HTTP name, and the other way round', async () => {
		expect(await sessionWith(`${PLAIN}=${await encode(ATTACKER, SECURE)}`)).toMatchObject({ status: 200, session: null, setsKitgate: false });
		expect(await sessionWith(`${SECURE}=${await encode(ATTACKER, PLAIN)}`, { origin: HTTPS })).toMatchObject({ status: 200, session: null });
	});

	test('Auth.js\'s other encrypted cookies (PKCE, state, nonce, callback URL) are no session', async () => {
		for (const salt of ['authjs.pkce.code_verifier', 'authjs.state', 'authjs.nonce', 'authjs.callback-url', 'authjs.csrf-token']) {
			expect((await sessionWith(`${PLAIN}=${await encode({ value: 'x', ...ATTACKER }, salt)}`)).session, salt).toBeNull();
		}
	});

	test('a __Host- session cookie is never read (Auth.js writes none)', async () => {
		const host = '__Host-authjs.session-token';
		expect((await sessionWith(`${host}=${await encode(ATTACKER, host)}`, { origin: HTTPS })).session).toBeNull();
	});

	test('kitgate\'s tokens are not Auth.js\'s and Auth.js\'s are not kitgate\'s', async () => {
		const kitgateUnderAuthjsName = await encodeJwt({ token: ATTACKER, secret: TEST_SECRET, salt: PLAIN, maxAge: 3600 });
		expect((await sessionWith(`${PLAIN}=${kitgateUnderAuthjsName}`)).session).toBeNull();
		const authjsUnderKitgateName = await encode(ATTACKER, 'kitgate.session-token');
		expect((await sessionWith(`kitgate.session-token=${authjsUnderKitgateName}`)).session).toBeNull();
	});
});

describe('only the scheme\'s own name is read', () => {
	test('on HTTPS an unprefixed cookie (anyone on the network can set one over plain HTTP) is ignored', async () => {
		expect(await sessionWith(`${PLAIN}=${await encode(ATTACKER, PLAIN)}`, { origin: HTTPS })).toMatchObject({ session: null, setsKitgate: false });
	});

	test('a forwarded "http" does not make an HTTPS site read it when its URL is configured', async () => {
		const fixed = config({ url: HTTPS });
		const read = await sessionWith(`${PLAIN}=${await encode(ATTACKER, PLAIN)}`, { origin: HTTPS, config: fixed, headers: { 'x-forwarded-proto': 'http' } });
		expect(read.session).toBeNull();
	});

	test('on HTTP a __Secure- cookie is ignored', async () => {
		expect((await sessionWith(`${SECURE}=${await encode(ATTACKER, SECURE)}`)).session).toBeNull();
	});
});

describe('cookie tossing', () => {
	test('an old Auth.js cookie tossed beside a newer kitgate session does not replace it', async () => {
		const victim = await encodeJwt({ token: VICTIM, secret: TEST_SECRET, salt: 'kitgate.session-token', maxAge: 3600 });
		const read = await sessionWith(`kitgate.session-token=${victim}; ${PLAIN}=${await encode(ATTACKER, PLAIN)}`);
		expect(read.session?.user.name).toBe('Ada');
	});

	test('nor when the attacker also tosses a chunk that breaks the victim\'s chunked kitgate cookie', async () => {
		const victim = await encodeJwt({ token: { ...VICTIM, blob: 'v'.repeat(5000) }, secret: TEST_SECRET, salt: 'kitgate.session-token', maxAge: 3600 });
		const chunks = `kitgate.session-token.0=${victim.slice(0, 3896)}; kitgate.session-token.1=${victim.slice(3896)}`;
		const read = await sessionWith(`${chunks}; kitgate.session-token.4=x; ${PLAIN}=${await encode(ATTACKER, PLAIN)}`);
		expect(read.session).toBeNull();
		expect(read.setsKitgate).toBe(false);
	});

	test('a garbage kitgate cookie beside an Auth.js one is no session, not the Auth.js user', async () => {
		expect((await sessionWith(`kitgate.session-token=x; ${PLAIN}=${await encode(ATTACKER, PLAIN)}`)).session).toBeNull();
	});
});

describe('what is refused stays refused', () => {
	test('a user revoked with revokeSessions is not let back in by an Auth.js cookie', async () => {
		const cfg = config();
		const token = await encode(ATTACKER, PLAIN);
		// revocations cover tokens issued before the revocation's millisecond
		await new Promise((resolve) => setTimeout(resolve, 5));
		await revokeSessions('eve', cfg);
		expect((await sessionWith(`${PLAIN}=${token}`, { config: cfg })).session).toBeNull();
	});

	test('more than ten chunks: no session, no 5xx', async () => {
		const token = await encode({ ...ATTACKER, blob: 'b'.repeat(45_000) }, PLAIN);
		const cookies = authjsCookies(PLAIN, token);
		expect(Object.keys(cookies).length).toBeGreaterThan(10);
		const read = await sessionWith(Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; '));
		expect(read).toMatchObject({ status: 200, session: null });
	});

	test('a JWT cookie sent to an app with database sessions is no session, not an adapter error', async () => {
		const adapter = MemoryAdapter();
		const read = await sessionWith(`${PLAIN}=${await encode(ATTACKER, PLAIN)}`, { config: config({ adapter, session: { strategy: 'database' } }) });
		expect(read).toMatchObject({ status: 200, session: null });
	});
});

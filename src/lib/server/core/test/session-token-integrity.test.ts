// The JWT session cookie is a self-contained token (ASVS V9): a compact JWE, `dir` + `A256CBC-HS512`,
// under a key HKDF derives from AUTH_SECRET with the cookie name as salt. Whatever else a browser
// sends as that cookie is no session, and the cookie is cleared: a JWE or JWS under another
// algorithm (`none` included), a header that names its own key (`jwk`, `jku`, `x5u`, a foreign
// `kid`), a token outside its `nbf`..`exp`, a value kitgate sealed for another purpose (the OAuth
// check cookies, the pending second step) and a session another app issued. Each refusal has a
// control: the same claims, made as kitgate makes them, are a session. Through `Auth()`; unit: no socket.

import { CompactEncrypt, EncryptJWT, SignJWT } from 'jose';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import Credentials from '../../providers/credentials.js';
import { encryptJwe } from '../crypto/jwe.js';
import { deriveKey, encodeJwt } from '../crypto/jwt.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import { purposeKey } from '../two-factor/purpose-seal.js';
import type { AuthConfig, OAuthConfig, Session } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { ownClockAndLog } from './credentials-fixture.js';
import { quietLogger, setsSession } from './oauth-fixtures.js';
import { policyWorld } from './two-factor-fixture.js';

const COOKIE = 'kitgate.session-token';
const NOW = Date.UTC(2030, 0, 1, 12);
const SECONDS = NOW / 1000;
/** kitgate's session key for this app and cookie. */
const { key, kid } = deriveKey(TEST_SECRET, COOKIE);
/** What a session made by a sign-in of "ada" holds, valid an hour. */
const CLAIMS = { sub: 'ada', name: 'Ada', email: 'ada@example.com', iat: SECONDS, exp: SECONDS + 3600 };

/** An OAuth provider with explicit endpoints: starting a sign-in contacts nothing. */
const GITHUB_LIKE: OAuthConfig = {
	id: 'gh',
	name: 'GH',
	type: 'oauth',
	clientId: 'c',
	clientSecret: 's',
	authorization: 'https://gh.example.test/authorize',
	token: 'https://gh.example.test/token',
	userinfo: 'https://gh.example.test/user'
};

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
	return {
		...ownClockAndLog({ now: NOW }, quietLogger()),
		rateLimit: { store: MemoryRateLimitStore() },
		providers: [Credentials({ minFailureMs: 0, authorize: ({ username }) => (typeof username === 'string' ? { id: username, name: username } : null) }), GITHUB_LIKE],
		...overrides
	};
}

/** The session a browser sending only `value` as the session cookie gets, and whether its cookie is cleared. */
async function sessionFrom(value: string, overrides: Partial<AuthConfig> = {}) {
	const client = testClient(config(overrides));
	client.jar.set(COOKIE, value);
	const response = await client.request('/auth/session');
	const cleared = response.headers.getSetCookie().some((line) => line.startsWith(`${COOKIE}=;`) && /max-age=0/i.test(line));
	return { session: (await response.json()) as Session | null, cleared };
}

async function expectNoSession(value: string, overrides: Partial<AuthConfig> = {}) {
	const { session, cleared } = await sessionFrom(value, overrides);
	expect(session).toBeNull();
	expect(cleared, 'the cookie is cleared').toBe(true);
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('control', () => {
	test('the claims below, encrypted as kitgate does (dir, A256CBC-HS512, its key and kid), are a session', async () => {
		const { session } = await sessionFrom((await encryptJwe(CLAIMS, key, { kid })));
		expect(session?.user?.name).toBe('Ada');
		// and so are they when jose makes the JWE with the same key
		const byJose = await new EncryptJWT(CLAIMS).setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' }).encrypt(key);
		expect((await sessionFrom(byJose)).session?.user?.name).toBe('Ada');
	});
});

describe('algorithms: only dir + A256CBC-HS512 (9.1.2)', () => {
	test('an unsecured token (alg none), as a JWT or with a valid token’s parts under a none header, is no session', async () => {
		await expectNoSession(`${json({ alg: 'none', typ: 'JWT' })}.${json(CLAIMS)}.`);
		const [, encryptedKey, iv, ciphertext, tag] = (await encryptJwe(CLAIMS, key, { kid })).split('.');
		await expectNoSession([json({ alg: 'none', enc: 'A256CBC-HS512', kid }), encryptedKey, iv, ciphertext, tag].join('.'));
		await expectNoSession([json({ alg: 'none' }), encryptedKey, iv, ciphertext, tag].join('.'));
	});

	test('a signed JWS (HS256 under the session key, or under AUTH_SECRET itself) is no session', async () => {
		for (const secret of [key, new TextEncoder().encode(TEST_SECRET)]) {
			await expectNoSession(await new SignJWT(CLAIMS).setProtectedHeader({ alg: 'HS256' }).sign(secret));
		}
	});

	test('a JWE under another content encryption or key management, made with the session key’s own bytes, is no session', async () => {
		const made = [
			await new EncryptJWT(CLAIMS).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(key.slice(0, 32)),
			await new EncryptJWT(CLAIMS).setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' }).encrypt(key.slice(0, 32)),
			await new EncryptJWT(CLAIMS).setProtectedHeader({ alg: 'A256KW', enc: 'A256CBC-HS512' }).encrypt(key.slice(0, 32)),
			await new EncryptJWT(CLAIMS).setProtectedHeader({ alg: 'PBES2-HS256+A128KW', enc: 'A256CBC-HS512' }).encrypt(new TextEncoder().encode(TEST_SECRET)),
			await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(CLAIMS))).setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512', zip: 'DEF' } as never).encrypt(key)
		];
		for (const token of made) await expectNoSession(token);
	});
});

describe('keys: only the one derived from AUTH_SECRET and the cookie name (9.1.1, 9.1.3)', () => {
	test('a JWE under the attacker’s key is no session, whether its header names that key (jwk), a URL for it (jku, x5u) or kitgate’s own kid; nothing is fetched', async () => {
		const fetched: string[] = [];
		vi.stubGlobal('fetch', async (input: string | URL | Request) => {
			fetched.push(String(input instanceof Request ? input.url : input));
			return new Response(JSON.stringify({ keys: [] }), { headers: { 'content-type': 'application/json' } });
		});
		const attackerKey = new Uint8Array(64).fill(7);
		const attackerJwk = { kty: 'oct', k: Buffer.from(attackerKey).toString('base64url') };
		for (const header of [
			{ jwk: attackerJwk },
			{ jku: 'https://attacker.example.test/keys.json' },
			{ x5u: 'https://attacker.example.test/cert.pem' },
			{ kid }
		]) {
			const token = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(CLAIMS)))
				.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512', ...header } as never)
				.encrypt(attackerKey);
			await expectNoSession(token);
		}
		expect(fetched).toEqual([]);
	});

	test('a header naming a key source is refused even on a token made with the right key (no header field beyond alg, enc, kid, typ, cty)', async () => {
		for (const header of [{ jku: 'https://attacker.example.test/keys.json' }, { x5u: 'https://attacker.example.test/cert.pem' }, { jwk: { kty: 'oct', k: 'AA' } }]) {
			const token = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(CLAIMS)))
				.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512', kid, ...header } as never)
				.encrypt(key);
			await expectNoSession(token);
		}
	});

	test('a bit flipped in the header, IV, ciphertext or tag of a valid session token: no session', async () => {
		const token = (await encryptJwe(CLAIMS, key, { kid }));
		expect((await sessionFrom(token)).session?.user?.name).toBe('Ada');
		for (const segment of [0, 2, 3, 4]) {
			const parts = token.split('.');
			const bytes = Buffer.from(parts[segment], 'base64url');
			bytes[Math.floor(bytes.length / 2)] ^= 0x01;
			parts[segment] = bytes.toString('base64url');
			await expectNoSession(parts.join('.'));
		}
	});
});

describe('validity period: exp and nbf (9.2.1)', () => {
	test('an expired token and a token not valid before an hour from now are no session; a past nbf is', async () => {
		await expectNoSession((await encryptJwe({ ...CLAIMS, iat: SECONDS - 7200, exp: SECONDS - 3600 }, key, { kid })));
		await expectNoSession((await encryptJwe({ ...CLAIMS, nbf: SECONDS + 3600 }, key, { kid })));
		await expectNoSession((await encryptJwe({ ...CLAIMS, exp: String(SECONDS + 3600) }, key, { kid })));
		await expectNoSession((await encryptJwe({ ...CLAIMS, nbf: 'now' }, key, { kid })));
		expect((await sessionFrom((await encryptJwe({ ...CLAIMS, nbf: SECONDS - 60 }, key, { kid })))).session?.user?.name).toBe('Ada');
	});
});

describe('purpose: only a session token is a session (9.2.2)', () => {
	test('the check cookies of an OAuth sign-in start (state, PKCE verifier, callback URL), sent as the session cookie, are no session', async () => {
		const starter = testClient(config());
		const csrfToken = await starter.csrfToken();
		expect((await starter.request('/auth/signin/gh', { form: { csrfToken, callbackUrl: '/dashboard' } })).status).toBe(302);
		const checks = ['kitgate.state', 'kitgate.pkce.code_verifier', 'kitgate.callback-url'].map((name) => starter.jar.get(name));
		expect(checks.every((value) => typeof value === 'string' && value.split('.').length === 5)).toBe(true);
		for (const value of checks) await expectNoSession(value as string);
	});

	test('session claims sealed for another cookie or purpose (the state cookie, the pending second step, a proxy state) are no session', async () => {
		for (const salt of ['kitgate.state', 'kitgate.nonce', 'kitgate.challenge', 'kitgate.redirect-proxy-state', `__Secure-${COOKIE}`]) {
			await expectNoSession(await encodeJwt({ token: { sub: 'ada', name: 'Ada' }, secret: TEST_SECRET, salt, maxAge: 3600, now: NOW }));
		}
		for (const salt of ['kitgate.second-factor', 'kitgate.trusted-browser', COOKIE]) {
			const sealed = purposeKey(TEST_SECRET, salt);
			await expectNoSession((await encryptJwe(CLAIMS, sealed.key, { kid: sealed.kid })));
		}
	});

	test('the pending cookie of a sign-in that still owes its second step, sent as the session cookie, is no session', async () => {
		const adapter = MemoryAdapter();
		await adapter.createUser({ id: 'ada-id', email: 'ada@example.com', emailVerified: null, name: 'Ada' });
		const world = policyWorld(adapter, 'jwt', { required: true });
		const ada = world.browser();
		const response = await ada.signInWithPassword();
		expect(response.headers.get('location')).toBe('http://localhost:3000/auth/second-factor');
		const pending = ada.client.jar.get(ada.pendingCookie() as string) as string;
		expect(pending).toBeDefined();
		expect(ada.sessionCookie()).toBeUndefined();

		const copy = world.browserWithCookie(pending);
		expect(await copy.session()).toBeNull();
		expect(copy.client.jar.has(COOKIE)).toBe(false);
	});
});

describe('audience: only this app’s tokens (9.2.3)', () => {
	test('a session another app issued under its own AUTH_SECRET is no session here; one this app issued is, on any of its servers', async () => {
		const otherApp = config({ secret: 'another-app-secret-another-app-secret-0123' });
		const there = testClient(otherApp);
		const csrfToken = await there.csrfToken();
		expect(setsSession(await there.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada' } }))).toBe(true);
		await expectNoSession(there.jar.get(COOKIE) as string);

		const here = testClient(config());
		const ours = await here.csrfToken();
		expect(setsSession(await here.request('/auth/callback/credentials', { form: { csrfToken: ours, username: 'ada' } }))).toBe(true);
		// another server of this app: a config of its own, the same secret
		expect((await sessionFrom(here.jar.get(COOKIE) as string)).session?.user?.name).toBe('ada');
	});
});

// Attacks: the performance changes of issue 17 (random pool, the open AES-CBC context,
// the verified-token memo, claimsJson, setSubject, CSRF `token.mac` and its fast route, cookie
// line caches, null-prototype cookies, rate-limit caches, the lazy Request of `authorize`, the
// publicUrl shortcut and the callback-URL fast path). Each test is named after an attack, written
// by an attacker: 9 failed when written, all pass since the fixes (a path `//host/…` is appended to
// the public origin, never resolved against it — an old hole: with AUTH_URL set, a raw request
// could point a mailed sign-in link at another host; kitgate's claims go to a copy of what an app's
// jwt callback returns; `authorize` gets a real Request when it declares the parameter, and the
// stand-in shows the real one to util.inspect). Unit: no socket, no process.

import { format } from 'node:util';
import { serialize } from 'cookie';
import { compactDecrypt, jwtDecrypt } from 'jose';
import { afterEach, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import { ExpressAuth, type ExpressRequestLike } from '../../../express/index.js';
import Credentials from '../../../providers/credentials.js';
import Email from '../../../providers/email.js';
import { Auth, runAuthRaw } from '../../auth.js';
import { normalizeAddress } from '../../limits/client-address.js';
import { parseCookies, serializeCookie } from '../../request/cookies.js';
import { csrfState, tokenFromCsrfCookie } from '../../request/csrf.js';
import { csrfRouteAnswer } from '../../csrf-route.js';
import { resolveConfig } from '../../config/resolve-config.js';
import { decryptJwe, encryptJwe, type JwePayload } from '../../crypto/jwe.js';
import { decodeJwtAtOnce, deriveKey, encodeJwt } from '../../crypto/jwt.js';
import { lazyRequest } from '../../request/lazy-request.js';
import { publicUrl } from '../../request/public-url.js';
import { randomToken } from '../../crypto/random.js';
import { limitKey } from '../../limits/rate-limit-rules.js';
import type { AuthConfig, JWT } from '../../types.js';
import { TEST_SECRET, testClient } from '../client.js';

const quiet = { error: () => {}, warn: () => {}, debug: () => {} };
const savedAuthUrl = process.env.AUTH_URL;
afterEach(() => {
	if (savedAuthUrl === undefined) delete process.env.AUTH_URL;
	else process.env.AUTH_URL = savedAuthUrl;
});

// ---------------------------------------------------------------------------------------------
// A fake Express request/response pair (no socket): what the middleware reads and writes.

interface FakeResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body?: string;
	headersSent: boolean;
	writableEnded: boolean;
	setHeader(name: string, value: unknown): void;
	getHeader(name: string): unknown;
	writeHead(status: number, headers: Record<string, unknown>): void;
	write(chunk: string): void;
	end(body?: string): void;
}

function fakeResponse(): FakeResponse {
	return {
		statusCode: 200,
		headers: {},
		headersSent: false,
		writableEnded: false,
		setHeader(name, value) {
			this.headers[name.toLowerCase()] = value;
		},
		getHeader(name) {
			return this.headers[name.toLowerCase()];
		},
		writeHead(status, headers) {
			this.statusCode = status;
			for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
		},
		write(chunk) {
			this.body = (this.body ?? '') + chunk;
		},
		end(body) {
			if (body !== undefined) this.body = (this.body ?? '') + body;
			this.writableEnded = true;
			this.headersSent = true;
		}
	};
}

/** Runs the Express middleware on a request as Node hands it over (the raw request-target in `originalUrl`). */
async function express(
	config: AuthConfig,
	method: string,
	target: string,
	headers: Record<string, string> = {},
	body?: string,
	protocol = 'https',
	host = 'app.example'
) {
	const lower: Record<string, string> = { host };
	for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
	const req = {
		method,
		url: target,
		originalUrl: target,
		headers: lower,
		protocol,
		host,
		ip: '203.0.113.9',
		socket: { remoteAddress: '203.0.113.9' },
		body,
		readableEnded: true,
		get: (name: string) => lower[name.toLowerCase()]
	} as unknown as ExpressRequestLike;
	const res = fakeResponse();
	let passed: unknown = 'not called';
	await ExpressAuth(config)(req, res as never, (error?: unknown) => void (passed = error));
	const setCookie = res.headers['set-cookie'];
	return { res, next: passed, setCookies: (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) as string[] };
}

function cookiePair(line: string): [string, string] {
	const pair = line.split(';')[0];
	return [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
}

// ---------------------------------------------------------------------------------------------

describe('publicUrl and the origin of links (AUTH_URL / url set)', () => {
	function emailConfig(mailed: string[], overrides: Partial<AuthConfig> = {}): AuthConfig {
		return {
			secret: TEST_SECRET,
			url: 'https://app.example',
			adapter: MemoryAdapter(),
			logger: quiet,
			providers: [Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) })],
			...overrides
		};
	}

	// The attacker gets a sign-in link to their own host mailed to the victim by the real app: one click hands over the token.
	test('a dot-segment request-target (/auth/..//evil.example/auth/signin/email) sent to Express with AUTH_URL set makes the mailed link point at evil.example', async () => {
		const mailed: string[] = [];
		const config = emailConfig(mailed);
		// the attacker's own CSRF pair, from the app itself
		const csrf = await express(config, 'GET', '/auth/csrf');
		const [name, value] = cookiePair(csrf.setCookies[0]);
		const csrfToken = (JSON.parse(csrf.res.body ?? '{}') as { csrfToken: string }).csrfToken;
		const body = new URLSearchParams({ csrfToken, email: 'victim@example.com', callbackUrl: '/' }).toString();
		// Node hands Express the request-target as sent: it starts with /auth/, so the middleware takes it,
		// and `new URL` collapses it to the path //evil.example/auth/signin/email
		const { res } = await express(config, 'POST', '/auth/..//evil.example/auth/signin/email', {
			'content-type': 'application/x-www-form-urlencoded',
			cookie: `${name}=${value}`
		}, body);
		expect(res.statusCode, `answer ${res.statusCode} ${String(res.headers.location ?? res.body)}`).toBeLessThan(500);
		for (const link of mailed) expect(new URL(link).origin, `mailed link ${link}`).toBe('https://app.example');
		expect(String(res.headers.location ?? ''), 'the redirect after the request stays on the app').not.toMatch(/evil\.example/);
	});

	// The same link poisoning on any server that hands kitgate a Web Request (Auth()): a path beginning with // names another host.
	test('Auth(): a request whose path begins with //evil.example gets evil.example as its origin although AUTH_URL names the app', async () => {
		const mailed: string[] = [];
		const config = emailConfig(mailed);
		const client = testClient(config, 'https://app.example');
		const csrfToken = await client.csrfToken();
		const cookie = [...client.jar].map(([k, v]) => `${k}=${v}`).join('; ');
		const request = new Request('https://app.example//evil.example/auth/signin/email', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
			body: new URLSearchParams({ csrfToken, email: 'victim@example.com' }).toString()
		});
		expect(new URL(request.url).pathname).toBe('//evil.example/auth/signin/email');
		const response = await Auth(request, config);
		expect(response.status).toBeLessThan(500);
		for (const link of mailed) expect(new URL(link).origin, `mailed link ${link}`).toBe('https://app.example');
	});

	// The pure function underneath: the configured origin must win over anything in the request path.
	test('publicUrl with authUrl: a path starting with // cannot replace the configured origin', () => {
		const url = publicUrl({ url: 'https://app.example//evil.example/auth/signin', headers: new Headers() }, { authUrl: new URL('https://app.example'), trustHost: false });
		expect(url.origin).toBe('https://app.example');
	});

	// Behind a proxy (trustHost, X-Forwarded-Host differs from the internal URL) the slow path rebuilds the URL from the path: //evil.example wins.
	test('publicUrl with trustHost behind a proxy: a path starting with // cannot replace the forwarded host', () => {
		const url = publicUrl(
			{ url: 'http://127.0.0.1:3000//evil.example/auth/signin', headers: new Headers({ 'x-forwarded-host': 'app.example', 'x-forwarded-proto': 'https' }) },
			{ trustHost: true }
		);
		expect(url.origin).toBe('https://app.example');
	});

	// Held: the new shortcut (host equals the URL's host) returns the request URL itself, so // in the path stays a path.
	test('held: the shortcut (Host equals the request URL host) keeps the origin for a // path', () => {
		const url = publicUrl({ url: 'https://app.example//evil.example/auth/signin', headers: new Headers({ host: 'app.example', 'x-forwarded-proto': 'https' }) }, { trustHost: true });
		expect(url.origin).toBe('https://app.example');
	});

	// Held: the shortcut never accepts a Host that differs in case, trailing dot, default port, userinfo or IPv6 spelling from the URL.
	test('held: a Host with a trailing dot is refused, not matched to the URL host', () => {
		expect(() => publicUrl({ url: 'https://app.example./auth/csrf', headers: new Headers({ host: 'app.example.' }) }, { trustHost: true })).toThrow(/not a valid host/);
	});

	test.each([
		['APP.example', 'https://app.example/auth/csrf'],
		['app.example:443', 'https://app.example/auth/csrf'],
		['[::1]', 'https://[0:0:0:0:0:0:0:1]/auth/csrf'],
		['app.example', 'https://user:pw@app.example/auth/csrf']
	])('held: Host %s against %s gives the URL the slow path would', (host, requestUrl) => {
		const headers = new Headers({ host, 'x-forwarded-proto': 'https' });
		const fast = publicUrl({ url: requestUrl, headers }, { trustHost: true });
		const path = `${new URL(requestUrl).pathname}${new URL(requestUrl).search}`;
		expect(fast.href).toBe(new URL(path, `https://${host}`).href);
		expect(fast.username).toBe('');
	});

	// Held: without AUTH_URL the Express shortcut keeps the dot-segment request on the app (no link is mailed to another host).
	test('held: Express with trustHost (no AUTH_URL) keeps a dot-segment request on the app', async () => {
		const mailed: string[] = [];
		const config = emailConfig(mailed, { url: undefined, trustHost: true });
		delete process.env.AUTH_URL;
		const csrf = await express(config, 'GET', '/auth/csrf');
		const [name, value] = cookiePair(csrf.setCookies[0]);
		const csrfToken = (JSON.parse(csrf.res.body ?? '{}') as { csrfToken: string }).csrfToken;
		const body = new URLSearchParams({ csrfToken, email: 'victim@example.com' }).toString();
		await express(config, 'POST', '/auth/..//evil.example/auth/signin/email', { 'content-type': 'application/x-www-form-urlencoded', cookie: `${name}=${value}` }, body);
		for (const link of mailed) expect(new URL(link).origin).toBe('https://app.example');
	});

	// Held: the callback-URL fast path and the default redirect never send the user off-site.
	test.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'https:evil.example', '\t//evil.example', 'javascript:alert(1)'])(
		'held: callbackUrl %s after a credentials sign-in stays on the app',
		async (callbackUrl) => {
			const config: AuthConfig = {
				secret: TEST_SECRET,
				trustHost: true,
				logger: quiet,
				providers: [Credentials({ minFailureMs: 0, authorize: () => ({ id: 'u1', name: 'Ada' }) })]
			};
			const client = testClient(config, 'https://app.example');
			const response = await client.request('/auth/callback/credentials', { form: { csrfToken: await client.csrfToken(), username: 'ada', callbackUrl } });
			expect(new URL(response.headers.get('location') ?? '').origin).toBe('https://app.example');
		}
	);
});

// ---------------------------------------------------------------------------------------------

describe('setSubject: kitgate writing into the token the jwt callback handed back', () => {
	function credentialsConfig(jwt: NonNullable<AuthConfig['callbacks']>['jwt']): AuthConfig {
		return {
			secret: TEST_SECRET,
			trustHost: true,
			logger: quiet,
			callbacks: { jwt },
			providers: [Credentials({ minFailureMs: 0, authorize: () => ({ id: 'u1', name: 'Ada', email: 'ada@example.com' }) })]
		};
	}

	async function signIn(config: AuthConfig) {
		const client = testClient(config);
		const response = await client.request('/auth/callback/credentials', { form: { csrfToken: await client.csrfToken(), username: 'ada' } });
		const session = (await (await client.request('/auth/session')).json()) as { user?: { email?: string } } | null;
		return { response, session };
	}

	// An app that freezes the token it returns (immutability by habit) cannot sign anyone in: every credentials sign-in fails (a DoS the app never saw before setSubject).
	test('a jwt callback that returns its token frozen still signs the user in (credentials)', async () => {
		const { response, session } = await signIn(credentialsConfig(({ token }) => Object.freeze(token)));
		expect(response.headers.get('location') ?? '', 'no error redirect').not.toMatch(/error=/);
		expect(session?.user?.email).toBe('ada@example.com');
	});

	// The token the app's callback kept (an audit log, a cache by user) is rewritten after the callback returned: it gains the session id and kitgate's claims.
	test('a token the jwt callback kept is not rewritten by kitgate after the callback returned', async () => {
		const kept: JWT[] = [];
		const { session } = await signIn(
			credentialsConfig(({ token }) => {
				kept.push(token);
				return token;
			})
		);
		expect(session?.user?.email).toBe('ada@example.com');
		expect(Object.keys(kept[0]).filter((key) => key.startsWith('kitgate.')), 'kitgate claims written into the app\'s object').toEqual([]);
	});

	// Held: a jwt callback that writes kitgate.subject itself cannot choose the subject (the claim is kitgate's).
	test('held: a jwt callback that sets kitgate.subject cannot make an authorize() id pass for a stored user', async () => {
		const config = credentialsConfig(({ token }) => ({ ...token, 'kitgate.subject': 'user' }));
		const client = testClient(config);
		await client.request('/auth/callback/credentials', { form: { csrfToken: await client.csrfToken(), username: 'ada' } });
		const value = client.jar.get('kitgate.session-token') ?? '';
		const decoded = (decodeJwtAtOnce({ token: value, secret: TEST_SECRET, salt: 'kitgate.session-token' }) as JWT | null);
		expect(decoded?.['kitgate.subject']).toMatchObject({ credentials: 'credentials' });
	});
});

// ---------------------------------------------------------------------------------------------

describe('claimsJson: the session JWT written by string splicing', () => {
	const secret = 'claims-json-secret-claims-json-secret-0123';
	const salt = 'kitgate.session-token';

	async function roundTrip(token: JWT): Promise<Record<string, unknown>> {
		const jwe = await encodeJwt({ token, secret, salt, maxAge: 3600, now: 1_800_000_000_000 });
		const { key } = deriveKey(secret, salt);
		return JSON.parse(new TextDecoder().decode((await compactDecrypt(jwe, key)).plaintext)) as Record<string, unknown>;
	}

	function expected(token: JWT): Record<string, unknown> {
		return JSON.parse(JSON.stringify({ ...token, iat: 1_800_000_000, exp: 1_800_003_600, jti: 'x' })) as Record<string, unknown>;
	}

	const ownProto = JSON.parse('{"sub":"1","__proto__":{"iat":1,"exp":99999999999,"admin":true}}') as JWT;
	const withGetter = Object.defineProperty({ sub: '1' } as JWT, 'role', { enumerable: true, get: () => 'user' });
	const hiddenIat = Object.defineProperty({ sub: '1' } as JWT, 'iat', { enumerable: false, value: 1 });
	const nestedToJson = { sub: '1', nested: { toJSON: () => ({ iat: 1 }) } } as JWT;
	const symbolKey = { sub: '1', [Symbol('iat')]: 1 } as unknown as JWT;
	const inherited = Object.assign(Object.create({ iat: 1, exp: 99999999999 }) as JWT, { sub: '1' });
	const proxied = new Proxy({ sub: '1' } as JWT, {
		ownKeys: () => ['sub', 'exp'],
		getOwnPropertyDescriptor: (target, key) => (key === 'exp' ? { value: 99999999999, enumerable: true, configurable: true } : Reflect.getOwnPropertyDescriptor(target, key)),
		get: (target, key) => (key === 'exp' ? 99999999999 : Reflect.get(target, key))
	});

	// Held: no claim the jwt callback returns (prototype keys, getters, hidden or inherited iat/exp, nested toJSON, symbols, proxies, undefined) outlives kitgate's iat/exp/jti.
	test.each([
		['an own __proto__ key', ownProto],
		['an enumerable getter', withGetter],
		['a non-enumerable own iat', hiddenIat],
		['a nested toJSON', nestedToJson],
		['a symbol key', symbolKey],
		['iat/exp on the prototype', inherited],
		['a proxy hiding exp from hasOwn', proxied],
		['undefined values', { sub: '1', name: undefined, email: null } as JWT],
		['integer-like keys', { '2': 'b', sub: '1', '1': 'a' } as JWT],
		['an empty token', {} as JWT]
	])('held: a token with %s is written as JSON.stringify({...token, iat, exp, jti}) would', async (_label, token) => {
		const written = await roundTrip(token);
		expect(written.iat).toBe(1_800_000_000);
		expect(written.exp).toBe(1_800_003_600);
		expect(typeof written.jti).toBe('string');
		const { jti: _a, ...rest } = written;
		const { jti: _b, ...want } = expected(token);
		expect(rest).toEqual(want);
		expect(Object.keys(rest)).toEqual(Object.keys(want));
	});
});

// ---------------------------------------------------------------------------------------------

describe('the AES-CBC context kept open across tokens', () => {
	const { key } = deriveKey('open-context-secret-open-context-secret-01', 'kitgate.session-token');

	// Held: tokens made one after another are each standard A256CBC-HS512 (jose decrypts every padding length, in any order).
	test('held: jose decrypts 64 consecutive tokens of every padding length, out of order', async () => {
		const payloads = Array.from({ length: 64 }, (_, i) => ({ i, pad: 'x'.repeat(i) }));
		const tokens = payloads.map((payload) => (encryptJwe(payload, key) as string));
		for (let i = tokens.length - 1; i >= 0; i -= 3) expect((await jwtDecrypt(tokens[i], key)).payload).toEqual(payloads[i]);
	});

	// Held: equal plaintexts never give equal ciphertexts, and the IV of a token is not the chaining block of the token before it.
	test('held: the same claims twice give unrelated IVs and ciphertexts (no equality leak, no predictable IV)', () => {
		const tokens = Array.from({ length: 200 }, () => (encryptJwe({ sub: 'same', role: 'user' }, key) as string));
		const ivs = new Set<string>();
		const firstBlocks = new Set<string>();
		for (let i = 0; i < tokens.length; i++) {
			const [, , iv, ciphertext] = tokens[i].split('.');
			ivs.add(iv);
			firstBlocks.add(Buffer.from(ciphertext, 'base64url').subarray(0, 16).toString('hex'));
			if (i > 0) {
				const previous = Buffer.from(tokens[i - 1].split('.')[3], 'base64url');
				expect(Buffer.from(iv, 'base64url').equals(previous.subarray(previous.length - 16))).toBe(false);
			}
		}
		expect(ivs.size).toBe(tokens.length);
		expect(firstBlocks.size).toBe(tokens.length);
	});

	// Held: flipping any bit (padding-oracle / malleability probe) is refused before the padding is looked at.
	test('held: every single-bit flip of IV, ciphertext or tag is refused', () => {
		const token = (encryptJwe({ sub: '1' }, key) as string);
		const parts = token.split('.');
		for (const index of [2, 3, 4]) {
			const bytes = Buffer.from(parts[index], 'base64url');
			for (let bit = 0; bit < bytes.length * 8; bit += 7) {
				const copy = Buffer.from(bytes);
				copy[bit >> 3] ^= 1 << (bit & 7);
				const forged = [...parts];
				forged[index] = copy.toString('base64url');
				expect((decryptJwe(forged.join('.'), key) as JwePayload | null)).toBeNull();
			}
		}
	});
});

// ---------------------------------------------------------------------------------------------

describe('the memo of verified tokens (by last segment)', () => {
	const salt = 'kitgate.session-token';

	// Held: a token carrying the victim's tag with the attacker's header/IV/ciphertext is not answered from the victim's memo entry.
	test('held: the victim\'s tag glued to another token is refused, and the victim\'s entry still answers the victim', async () => {
		const victim = await encodeJwt({ token: { sub: 'victim', role: 'admin' }, secret: TEST_SECRET, salt, maxAge: 3600 });
		const attacker = await encodeJwt({ token: { sub: 'attacker' }, secret: TEST_SECRET, salt, maxAge: 3600 });
		expect((decodeJwtAtOnce({ token: victim, secret: TEST_SECRET, salt }) as JWT | null)?.sub).toBe('victim');
		const glued = `${attacker.slice(0, attacker.lastIndexOf('.'))}.${victim.slice(victim.lastIndexOf('.') + 1)}`;
		expect((decodeJwtAtOnce({ token: glued, secret: TEST_SECRET, salt }) as JWT | null)).toBeNull();
		expect((decodeJwtAtOnce({ token: victim, secret: TEST_SECRET, salt }) as JWT | null)?.sub).toBe('victim');
	});

	// Held: a caller that mutates the payload it got (a jwt callback writing role) cannot change what the next request reads.
	test('held: a mutated payload of one read never reaches the next read of the same token', async () => {
		const token = await encodeJwt({ token: { sub: 'u', role: 'user' }, secret: TEST_SECRET, salt, maxAge: 3600 });
		const first = (decodeJwtAtOnce({ token, secret: TEST_SECRET, salt }) as JWT | null) as JWT;
		first.role = 'admin';
		const second = (decodeJwtAtOnce({ token, secret: TEST_SECRET, salt }) as JWT | null) as JWT;
		second.role = 'root';
		expect((decodeJwtAtOnce({ token, secret: TEST_SECRET, salt }) as JWT | null)?.role).toBe('user');
	});

	// Held: a token remembered under one cookie name (salt) or secret is not answered for another.
	test('held: the memo does not cross salts or secrets', async () => {
		const token = await encodeJwt({ token: { sub: 'u' }, secret: TEST_SECRET, salt, maxAge: 3600 });
		expect((decodeJwtAtOnce({ token, secret: TEST_SECRET, salt }) as JWT | null)?.sub).toBe('u');
		expect((decodeJwtAtOnce({ token, secret: TEST_SECRET, salt: '__Secure-kitgate.session-token' }) as JWT | null)).toBeNull();
		expect((decodeJwtAtOnce({ token, secret: ['another-secret-another-secret-another-0123'], salt }) as JWT | null)).toBeNull();
	});

	// Held: an expired token answered from the memo is still refused once exp passes.
	test('held: a remembered token expires on time', async () => {
		const now = Date.now();
		const token = await encodeJwt({ token: { sub: 'u' }, secret: TEST_SECRET, salt, maxAge: 60, now });
		expect((decodeJwtAtOnce({ token, secret: TEST_SECRET, salt, now }) as JWT | null)?.sub).toBe('u');
		expect((decodeJwtAtOnce({ token, secret: TEST_SECRET, salt, now: now + 120_000 }) as JWT | null)).toBeNull();
	});
});

// ---------------------------------------------------------------------------------------------

describe('CSRF: token.mac, token|mac and the fast GET /csrf', () => {
	const secrets = [TEST_SECRET];

	// Held: only a cookie whose MAC covers exactly the token part is accepted, whatever the separators.
	test('held: separator confusion (both separators, empty parts, a dot inside, encoded forms) yields no token', () => {
		const { token, cookieValue } = csrfState(undefined, secrets);
		const mac = (cookieValue as string).split('.')[1];
		expect(tokenFromCsrfCookie(`${token}.${mac}`, secrets)).toBe(token);
		expect(tokenFromCsrfCookie(`${token}|${mac}`, secrets)).toBe(token);
		for (const forged of [`.${mac}`, `|${mac}`, `${token}.`, `${token}|`, `${token}.${mac}|x`, `${token}|${mac}.x`, `x.${token}.${mac}`, `${token}.x.${mac}`, `${token}%2E${mac}`, `${token}.${mac.toUpperCase()}`, `${token} .${mac}`]) {
			expect(tokenFromCsrfCookie(forged, secrets), forged).not.toBe(token);
		}
	});

	// Held: 2000 CSRF tokens (and session ids) drawn across pool refills are all distinct, hex, and never all-zero blocks.
	test('held: CSRF tokens across pool refills never repeat and are never zeroed bytes', () => {
		const seen = new Set<string>();
		for (let i = 0; i < 2000; i++) {
			const { token } = csrfState(undefined, secrets);
			expect(token).toMatch(/^[0-9a-f]{64}$/);
			expect(token).not.toMatch(/0{16}/);
			seen.add(token);
			seen.add(randomToken(16, 'base64url'));
		}
		expect(seen.size).toBe(4000);
	});

	/** The routed action's answer to GET /auth/csrf (runAuthRaw) beside the fast one (csrfRouteAnswer). */
	async function bothAnswers(config: AuthConfig, url: string, headers: Record<string, string>) {
		const resolved = resolveConfig(config);
		const routed = await runAuthRaw(new Request(url, { headers }), config);
		const fast = csrfRouteAnswer({ url, headers: new Headers(headers) }, config);
		const routedCookies = routed.raw.headers.filter(([name]) => name === 'set-cookie').map(([, value]) => cookiePair(value)[0]);
		return { resolved, routed, fast, routedCookies, fastCookies: fast.setCookies.map((line) => cookiePair(line)[0]) };
	}

	// Held: the fast route names the same cookie as the routed action whatever Host/X-Forwarded-Proto say, under each trust setting.
	test.each([
		[{ trustHost: true }, 'http://app.example/auth/csrf', { 'x-forwarded-proto': 'https' }],
		[{ trustHost: true }, 'https://app.example/auth/csrf', { 'x-forwarded-proto': 'http' }],
		[{ trustHost: true }, 'http://app.example/auth/csrf', { 'x-forwarded-proto': 'HTTPS, http' }],
		[{ trustHost: true }, 'http://app.example/auth/csrf', { 'x-forwarded-proto': 'ftp' }],
		[{ trustHost: false, url: 'https://app.example' }, 'http://internal/auth/csrf', { 'x-forwarded-proto': 'http' }],
		[{ trustHost: false, url: 'http://app.example' }, 'https://internal/auth/csrf', { 'x-forwarded-proto': 'https' }]
	] as [Partial<AuthConfig>, string, Record<string, string>][])('held: %o %s %o — same cookie name on both paths', async (overrides, url, headers) => {
		const config: AuthConfig = { secret: TEST_SECRET, logger: quiet, providers: [Credentials({ authorize: () => null })], ...overrides };
		const { routed, routedCookies, fastCookies } = await bothAnswers(config, url, headers);
		expect(routed.raw.status).toBe(200);
		expect(fastCookies).toEqual(routedCookies);
	});

	// Held: HEAD, trailing slash and encoded segments do not reach a different CSRF answer on Express than GET /auth/csrf.
	test.each([
		['HEAD', '/auth/csrf'],
		['GET', '/auth/csrf/'],
		['GET', '/auth/%63srf'],
		['GET', '/auth/csrf?x=1'],
		['GET', '/authcsrf'],
		['GET', '/auth//csrf']
	])('held: Express %s %s answers no other cookie than GET /auth/csrf', async (method, target) => {
		const config: AuthConfig = { secret: TEST_SECRET, trustHost: true, logger: quiet, providers: [Credentials({ authorize: () => null })] };
		const reference = await express(config, 'GET', '/auth/csrf');
		const probe = await express(config, method, target);
		const names = probe.setCookies.map((line) => cookiePair(line)[0]);
		for (const name of names) expect(name).toBe(cookiePair(reference.setCookies[0])[0]);
		if (probe.res.statusCode === 200 && probe.res.body) expect(JSON.parse(probe.res.body)).toHaveProperty('csrfToken');
	});
});

// ---------------------------------------------------------------------------------------------

describe('cookie line caches and null-prototype cookies', () => {
	// Held: attributes of one cookie never show up on another (shared options object, other names, per-response expiry).
	test('held: every Set-Cookie line equals cookie.serialize, across names sharing or mutating-by-copy one options object', () => {
		const shared = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: true };
		const scoped = { httpOnly: false, sameSite: 'strict' as const, path: '/admin', domain: 'app.example', secure: false };
		const lines: [string, string, Record<string, unknown>][] = [];
		for (const name of ['a', 'b', 'a', '__Host-x', 'b.0', 'b.1']) {
			for (const options of [shared, scoped, { ...shared, maxAge: 0, expires: new Date(0) }, { ...scoped, maxAge: 60 }, shared]) {
				for (const value of ['', 'plain.token-_~', 'needs encoding; =,é|', 'x'.repeat(50)]) {
					lines.push([serializeCookie({ name, value, options }), name, { ...options, value }]);
				}
			}
		}
		for (const [line, name, { value, ...options }] of lines) expect(line).toBe(serialize(name, value as string, { ...(options as object), path: (options as { path?: string }).path ?? '/' }));
	});

	// Held: a cookie value that must be encoded (header injection attempt) is encoded.
	test('held: a value with ;, CR/LF or spaces cannot add attributes or headers', () => {
		const line = serializeCookie({ name: 'n', value: 'x; Domain=evil.example\r\nSet-Cookie: y=1', options: { path: '/' } });
		expect(line).not.toMatch(/[\r\n]/);
		expect(line).not.toMatch(/; Domain=evil/);
	});

	// Held: cookies named __proto__, constructor, hasOwnProperty or toString break no request (no 500) and fake no session.
	test('held: hostile cookie names on the session and CSRF routes answer normally', async () => {
		const config: AuthConfig = { secret: TEST_SECRET, trustHost: true, logger: quiet, providers: [Credentials({ authorize: () => null })] };
		const cookie = '__proto__=x; constructor=y; hasOwnProperty=z; toString=1; valueOf=2; kitgate.session-token.__proto__=1; kitgate.csrf-token=__proto__';
		const parsed = parseCookies(cookie);
		expect(parsed.constructor).toBe('y');
		for (const path of ['/auth/session', '/auth/csrf', '/auth/signin', '/auth/providers']) {
			const response = await Auth(new Request(`http://localhost${path}`, { headers: { cookie } }), config);
			expect(response.status, path).toBeLessThan(500);
		}
		const session = await Auth(new Request('http://localhost/auth/session', { headers: { cookie } }), config);
		expect(await session.json()).toBeNull();
	});
});

// ---------------------------------------------------------------------------------------------

describe('rate-limit key caches', () => {
	// Held: the limit key cache is per secret and per kind, so one config cannot poison another's keys.
	test('held: limitKey differs across secrets, kinds and scopes for the same value', () => {
		const keys = new Set([
			limitKey('credentials', 'id', 'ada@example.com', 'secret-one-secret-one-secret-one-0123'),
			limitKey('credentials', 'id', 'ada@example.com', 'secret-two-secret-two-secret-two-0123'),
			limitKey('email', 'id', 'ada@example.com', 'secret-one-secret-one-secret-one-0123'),
			limitKey('credentials', 'ip', 'ada@example.com', 'secret-one-secret-one-secret-one-0123')
		]);
		expect(keys.size).toBe(4);
		// the cache answers what it computed: the same again
		expect(limitKey('credentials', 'id', 'ada@example.com', 'secret-two-secret-two-secret-two-0123')).toBe(
			limitKey('credentials', 'id', 'ada@example.com', 'secret-two-secret-two-secret-two-0123')
		);
	});

	// Held: rotating spellings of one address (case, brackets, ports, IPv4-mapped) still counts as one address, cached or not.
	test('held: address spellings normalise the same on first and cached look-ups', () => {
		const spellings = ['2001:DB8::1', '[2001:db8::1]', '[2001:db8::1]:443', ' 2001:db8::1 '];
		for (let round = 0; round < 2; round++) {
			const normalised = new Set(spellings.map((spelling) => normalizeAddress(spelling)));
			expect(normalised.size).toBe(1);
		}
		expect(normalizeAddress('not an address')).toBeUndefined();
		expect(normalizeAddress('not an address')).toBeUndefined();
	});
});

// ---------------------------------------------------------------------------------------------

describe('the lazy Request handed to authorize()', () => {
	const make = () =>
		new Request('https://app.example/auth/callback/credentials', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'probe' },
			body: 'a=1'
		});

	/** Signs in through the engine with an authorize() that does `use(request)` first. */
	async function signInWith(use: (request: Request) => unknown) {
		let failure: unknown;
		const config: AuthConfig = {
			secret: TEST_SECRET,
			trustHost: true,
			logger: quiet,
			providers: [
				Credentials({
					minFailureMs: 0,
					authorize: async (_credentials, request) => {
						try {
							await use(request);
						} catch (error) {
							failure = error;
							throw error;
						}
						return { id: 'u1', email: 'ada@example.com' };
					}
				})
			]
		};
		const client = testClient(config);
		await client.request('/auth/callback/credentials', { form: { csrfToken: await client.csrfToken(), username: 'ada' } });
		const session = (await (await client.request('/auth/session')).json()) as { user?: { email?: string } } | null;
		return { session, failure };
	}

	// An authorize() that logs its request with %o (console.log('%o', request)) throws on the stand-in: no one can sign in.
	test('an authorize() that logs the request with %o still signs the user in', async () => {
		expect(() => format('%o', make())).not.toThrow();
		const { session, failure } = await signInWith((request) => format('%o', request));
		expect(failure).toBeUndefined();
		expect(session?.user?.email).toBe('ada@example.com');
	});

	// An authorize() that freezes what it is given (defensive copies, immutability helpers) throws on the stand-in.
	test('an authorize() that freezes the request still signs the user in', async () => {
		expect(() => Object.freeze(make())).not.toThrow();
		const { session, failure } = await signInWith((request) => Object.freeze(request));
		expect(failure).toBeUndefined();
		expect(session?.user?.email).toBe('ada@example.com');
	});

	// An authorize() that structuredClones its inputs (as a real Request allows: {}) throws on the stand-in.
	test('an authorize() that structuredClones the request behaves as with a real Request', async () => {
		expect(() => structuredClone(make())).not.toThrow();
		const { session, failure } = await signInWith((request) => structuredClone(request));
		expect(failure).toBeUndefined();
		expect(session?.user?.email).toBe('ada@example.com');
	});

	// Held: reading the body, headers, instanceof, new Request(request), clone, JSON and spreading behave as on a real Request.
	test('held: body, headers, instanceof, new Request, clone, JSON, spread and prototype calls work on the stand-in', async () => {
		const seen: unknown[] = [];
		const { session, failure } = await signInWith(async (request) => {
			seen.push(request instanceof Request, request.headers.get('content-type'), JSON.stringify(request), Object.keys({ ...request }).length);
			seen.push(await request.clone().text());
			seen.push(await new Request(request).text());
		});
		expect(failure).toBeUndefined();
		expect(session?.user?.email).toBe('ada@example.com');
		expect(seen).toEqual([true, 'application/x-www-form-urlencoded', '{}', 0, expect.stringContaining('username=ada'), expect.stringContaining('username=ada')]);
		const lazy = lazyRequest(make);
		expect(await Request.prototype.text.call(lazy)).toBe('a=1');
	});

	// Held: a request read after authorize() returned (a background audit log) still has its body.
	test('held: the body can be read after authorize() returned', async () => {
		let kept: Request | undefined;
		const { session } = await signInWith((request) => void (kept = request));
		expect(session?.user?.email).toBe('ada@example.com');
		expect(await kept!.text()).toContain('username=ada');
	});
});

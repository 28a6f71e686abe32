// Generators of hostile requests for the fuzz tests (fast-check): methods, paths under basePath,
// headers, cookies (huge, malformed, chunk-gapped, forged), bodies of every content type, and the
// invariants every answer must keep: no 5xx, no session without credentials, no unescaped input.

import fc from 'fast-check';
import { expect } from 'vitest';
import { encodeJwt } from '../crypto/jwt.js';
import Credentials from '../../providers/credentials.js';
import Passkey from '../../providers/passkey.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import type { AuthConfig, EmailConfig, SendVerificationRequestParams } from '../types.js';
import { TEST_SECRET } from './client.js';
import { memoryJwtConfig } from './memory-jwt-config.js';

export const FUZZ_ORIGIN = 'http://localhost:3000';
export const BASE = '/auth';
const ROUTES = ['providers', 'csrf', 'session', 'signin', 'callback', 'signout', 'error', 'verify-request', 'webauthn-options', 'webauthn-authenticators'];
const PROVIDER_IDS = ['credentials', 'oidc', 'email', 'passkey'];
const COOKIE_NAMES = [
	'kitgate.session-token',
	'__Secure-kitgate.session-token',
	'kitgate.csrf-token',
	'__Host-kitgate.csrf-token',
	'kitgate.callback-url',
	'kitgate.pkce.code_verifier',
	'kitgate.state',
	'kitgate.nonce',
	'kitgate.challenge'
];

/**
 * Strings that, reflected without escaping into HTML, put `<kgx` in the page. They never appear
 * in kitgate's own output, so `<kgx` in an answer is reflected, unescaped input.
 */
export const MARKERS = ['"><kgx>', "'><kgx onfocus=1>", '</title><kgx>', '<kgx', '</script><kgx>', '--><kgx>', ']]><kgx>'];
const UNESCAPED = '<kgx';

/** One generated request, before the harness adds a valid CSRF pair (`withCsrf`). */
export interface HostileRequest {
	method: string;
	/** Path and query, possibly malformed. */
	target: string;
	headers: [string, string][];
	cookies: string;
	body: HostileBody;
	withCsrf: boolean;
}

/** A body: fields in some encoding, or raw bytes; `contentType` may lie about it. */
export interface HostileBody {
	kind: 'none' | 'form' | 'multipart' | 'json' | 'raw-json' | 'text' | 'binary';
	fields: Record<string, unknown>;
	raw: string | Uint8Array;
	contentType?: string;
}

const marker = fc.constantFrom(...MARKERS);
const special = fc.constantFrom(
	'', ' ', '\u0000', '%00', '%', '%zz', '..', '../../etc/passwd', '//evil.example', '/\\evil.example', '\\\\evil.example',
	'https://evil.example/x', 'http://localhost:3000@evil.example/', 'javascript:alert(1)', 'data:text/html,<kgx>',
	'\r\nSet-Cookie: pwned=1', 'ada', 'lovelace', 'ada@example.com', '{}', '[]', 'null', 'true', '1e309', '__proto__',
	'constructor', 'CredentialsSignin', 'Configuration', 'RateLimited', 'Verification', '\u202e\u0646\ud83d\ude00', '\ud800'
);

/** Any hostile string: markers, specials, random and unicode text (lone surrogates too), overlong values. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
	{ arbitrary: marker, weight: 4 },
	{ arbitrary: special, weight: 4 },
	{ arbitrary: fc.string({ maxLength: 40 }), weight: 3 },
	{ arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 2 },
	{ arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 2 },
	{ arbitrary: fc.tuple(marker, fc.integer({ min: 300, max: 70_000 })).map(([m, n]) => m + 'A'.repeat(n)), weight: 1 }
);

/** `encodeURIComponent` that also takes lone surrogates (as U+FFFD). */
const encode = (value: string) => encodeURIComponent(value.replace(/[\ud800-\udfff]/g, (c, i: number, all: string) => (/[\ud800-\udbff][\udc00-\udfff]/.test(all.slice(i, i + 2)) || /[\ud800-\udbff][\udc00-\udfff]/.test(all.slice(i - 1, i + 1)) ? c : '\ufffd')));

const providerId = fc.oneof({ arbitrary: fc.constantFrom(...PROVIDER_IDS), weight: 4 }, { arbitrary: hostileString, weight: 1 });

const PROVIDER_ROUTES = ['signin', 'callback', 'webauthn-options', 'webauthn-authenticators'];

/** Paths under basePath (every route, every provider id on the routes that take one), near it, and anywhere. */
const path: fc.Arbitrary<string> = fc.oneof(
	{ arbitrary: fc.constantFrom(...ROUTES).map((route) => `${BASE}/${route}`), weight: 3 },
	{
		arbitrary: fc.tuple(fc.constantFrom(...PROVIDER_ROUTES), fc.constantFrom(...PROVIDER_IDS)).map(([route, id]) => `${BASE}/${route}/${id}`),
		weight: 6
	},
	{
		arbitrary: fc.tuple(fc.constantFrom(...ROUTES), providerId, fc.boolean()).map(([route, id, raw]) => `${BASE}/${route}/${raw ? id : encode(id)}`),
		weight: 1
	},
	{
		arbitrary: fc.tuple(fc.constantFrom(...ROUTES), providerId, hostileString).map(([route, id, extra]) => `${BASE}/${route}/${encode(id)}/${extra}`),
		weight: 1
	},
	{
		arbitrary: fc.constantFrom(`${BASE}`, `${BASE}/`, '/auth//signin', '/auth/%2e%2e/signin', '/AUTH/signin', '/auth/signin/', '/auth/callback/', '/', '/auth/./csrf', '/auth/session/x'),
		weight: 1
	},
	{ arbitrary: hostileString.map((s) => `${BASE}/${s}`), weight: 1 }
);

const queryKey = fc.oneof(
	fc.constantFrom('callbackUrl', 'error', 'code', 'token', 'email', 'provider', 'type', 'state', 'iss', 'session_state', 'redirectTo', 'action', 'csrfToken'),
	hostileString
);
const query: fc.Arbitrary<string> = fc.oneof(
	{ arbitrary: fc.constant(''), weight: 2 },
	{ arbitrary: fc.array(fc.tuple(queryKey, hostileString), { maxLength: 5 }).map((pairs) => `?${new URLSearchParams(pairs)}`), weight: 3 },
	{ arbitrary: hostileString.map((raw) => `?${raw}`), weight: 1 }
);

/** A session token that decrypts with the right secret but for another cookie (salt): must not be a session. */
let movedToken = '';
/** A well-formed session token under another secret. */
let foreignToken = '';

/** Makes the forged tokens the cookie generator uses; call once before generating. */
export async function prepareForgedTokens(): Promise<void> {
	const token = { sub: 'u-ada', name: 'Ada', email: 'ada@example.com' };
	movedToken = await encodeJwt({ token, secret: TEST_SECRET, salt: 'kitgate.state', maxAge: 3600 });
	foreignToken = await encodeJwt({ token, secret: 'another-secret-another-secret-another-secret', salt: 'kitgate.session-token', maxAge: 3600 });
}

const cookieValue: fc.Arbitrary<string> = fc.oneof(
	{ arbitrary: hostileString, weight: 4 },
	{ arbitrary: fc.constantFrom('moved', 'foreign').map((which) => (which === 'moved' ? movedToken : foreignToken)), weight: 2 },
	{ arbitrary: fc.constantFrom('eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..AAAA.BBBB.CCCC', 'eyJ.', 'a|b', '|', `${'0'.repeat(64)}|${'f'.repeat(64)}`), weight: 2 },
	{ arbitrary: fc.integer({ min: 3000, max: 9000 }).map((n) => 'A'.repeat(n)), weight: 1 }
);
const cookieName = fc.oneof(
	{ arbitrary: fc.constantFrom(...COOKIE_NAMES), weight: 3 },
	{ arbitrary: fc.tuple(fc.constantFrom(...COOKIE_NAMES), fc.constantFrom(0, 1, 2, 3, 9, 10, 11, 99)).map(([n, i]) => `${n}.${i}`), weight: 3 },
	{ arbitrary: hostileString, weight: 1 }
);
/** A Cookie header: real names with forged, huge or chunk-gapped values, and malformed syntax. */
const cookies: fc.Arbitrary<string> = fc.oneof(
	{ arbitrary: fc.constant(''), weight: 2 },
	{ arbitrary: fc.array(fc.tuple(cookieName, cookieValue), { maxLength: 8 }).map((pairs) => pairs.map(([n, v]) => `${n}=${v}`).join('; ')), weight: 6 },
	{ arbitrary: fc.constantFrom(';;;', '=', 'kitgate.session-token', '"kitgate.session-token"="x"', 'a=b=c; ;=;', 'kitgate.session-token.0=a; kitgate.session-token.2=b'), weight: 1 },
	{ arbitrary: hostileString, weight: 1 }
);

const fieldName = fc.oneof(
	{ arbitrary: fc.constantFrom('csrfToken', 'callbackUrl', 'redirectTo', 'username', 'password', 'email', 'token', 'providerId', 'data', 'action', 'response', 'credentialID', 'redirect'), weight: 4 },
	{ arbitrary: hostileString, weight: 1 }
);
const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
	{ arbitrary: hostileString, weight: 4 },
	{ arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
	{ arbitrary: fc.constantFrom(null, 0, -1, 1e308, true, [], {}, ['ada'], { $ne: null }), weight: 1 }
);
/** Fields of a body; sometimes the one valid credentials pair. */
const fields: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
	{ arbitrary: fc.dictionary(fieldName, hostileString, { maxKeys: 6 }), weight: 5 },
	{ arbitrary: fc.dictionary(fieldName, jsonValue, { maxKeys: 6 }), weight: 2 },
	{ arbitrary: fc.record({ username: fc.constantFrom('ada', 'ADA', 'ada '), password: fc.constantFrom('lovelace', 'wrong') }), weight: 1 },
	{ arbitrary: fc.record({ email: fc.oneof(fc.constantFrom('ada@example.com', 'Ada@Example.com'), hostileString) }), weight: 1 }
);
const contentType = fc.constantFrom(
	'application/x-www-form-urlencoded',
	'multipart/form-data; boundary=kgxboundary',
	'application/json',
	'text/plain',
	'application/octet-stream',
	'application/json; charset=utf-16',
	'application/x-www-form-urlencoded; charset=latin1',
	'multipart/form-data',
	'"><kgx>',
	''
);

const body: fc.Arbitrary<HostileBody> = fc.oneof(
	{ arbitrary: fc.constant<HostileBody>({ kind: 'none', fields: {}, raw: '' }), weight: 2 },
	{ arbitrary: fields.map((f): HostileBody => ({ kind: 'form', fields: f, raw: '' })), weight: 4 },
	{ arbitrary: fields.map((f): HostileBody => ({ kind: 'multipart', fields: f, raw: '' })), weight: 2 },
	{ arbitrary: fields.map((f): HostileBody => ({ kind: 'json', fields: f, raw: '' })), weight: 3 },
	{ arbitrary: hostileString.map((raw): HostileBody => ({ kind: 'raw-json', fields: {}, raw })), weight: 1 },
	{ arbitrary: hostileString.map((raw): HostileBody => ({ kind: 'text', fields: {}, raw })), weight: 1 },
	{ arbitrary: fc.uint8Array({ maxLength: 2048 }).map((raw): HostileBody => ({ kind: 'binary', fields: {}, raw })), weight: 1 },
	{ arbitrary: fc.integer({ min: 60_000, max: 90_000 }).map((n): HostileBody => ({ kind: 'form', fields: { csrfToken: 'x', username: 'A'.repeat(n) }, raw: '' })), weight: 1 }
).chain((b) => fc.option(contentType, { freq: 4 }).map((type) => (type === null ? b : { ...b, contentType: type })));

const headerValue = hostileString.map(toHeaderValue);
const hostValue = fc.oneof(
	{ arbitrary: fc.constantFrom('localhost:3000', '127.0.0.1:3000', 'app.example.com', 'evil.example', '[::1]:3000'), weight: 4 },
	{ arbitrary: fc.constantFrom('a b', 'localhost:99999', 'exa mple.com:80', '@', '', 'evil.example/x', 'évil.example'), weight: 1 },
	{ arbitrary: headerValue, weight: 1 }
);
const headers: fc.Arbitrary<[string, string][]> = fc.array(
	fc.oneof(
		{ arbitrary: fc.tuple(fc.constantFrom('host', 'x-forwarded-host'), hostValue), weight: 1 },
		{ arbitrary: fc.tuple(fc.constant('x-forwarded-proto'), fc.oneof(fc.constantFrom('https', 'http', 'javascript', 'HTTPS, http'), headerValue)), weight: 1 },
		{ arbitrary: fc.tuple(fc.constantFrom('x-forwarded-for', 'origin', 'referer', 'accept', 'user-agent', 'accept-language'), headerValue), weight: 2 },
		{ arbitrary: fc.tuple(fc.constant('x-auth-return-redirect'), fc.constantFrom('1', '0', 'true', '')), weight: 2 },
		{ arbitrary: fc.tuple(hostileString.map((s) => s.replace(/[^a-z0-9-]/gi, '').slice(0, 30) || 'x-kgx'), headerValue), weight: 1 }
	),
	{ maxLength: 4 }
);

const method = fc.oneof(
	{ arbitrary: fc.constantFrom('GET', 'POST'), weight: 8 },
	{ arbitrary: fc.constantFrom('HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'KGX'), weight: 1 }
);

/** The generator of hostile requests. */
export const hostileRequest: fc.Arbitrary<HostileRequest> = fc.record({
	method,
	target: fc.tuple(path, query).map(([p, q]) => p + q),
	headers,
	cookies,
	body,
	// mostly with a valid CSRF pair, so requests get past the check into the flows
	withCsrf: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 })
});

/** A string as bytes a raw client could put in a header: UTF-8 seen as Latin-1, no CR/LF/NUL, bounded. */
export function toHeaderValue(value: string, max = 8000): string {
	return Buffer.from(value.slice(0, max), 'utf8').toString('latin1').replace(/[\r\n\0]/g, ' ');
}

/** A valid CSRF cookie and its token, from a real `/csrf` answer. */
export interface CsrfPair {
	cookie: string;
	token: string;
}

/** The body bytes and content type of a hostile request, with the CSRF token added when asked. */
export function encodeBody(request: HostileRequest, csrf: CsrfPair): { bytes?: Uint8Array | string; type?: string } {
	const { body } = request;
	const fieldsWithCsrf = request.withCsrf ? { ...body.fields, csrfToken: csrf.token } : body.fields;
	let encoded: { bytes?: Uint8Array | string; type?: string };
	switch (body.kind) {
		case 'none':
			encoded = {};
			break;
		case 'form':
			encoded = { bytes: new URLSearchParams(Object.entries(fieldsWithCsrf).map(([k, v]) => [k, String(v)])).toString(), type: 'application/x-www-form-urlencoded' };
			break;
		case 'multipart': {
			const boundary = 'kgxboundary';
			const parts = Object.entries(fieldsWithCsrf).map(
				([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '_')}"\r\n\r\n${String(v)}\r\n`
			);
			encoded = { bytes: `${parts.join('')}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
			break;
		}
		case 'json':
			encoded = { bytes: JSON.stringify(fieldsWithCsrf), type: 'application/json' };
			break;
		case 'raw-json':
			encoded = { bytes: body.raw, type: 'application/json' };
			break;
		case 'text':
			encoded = { bytes: body.raw, type: 'text/plain' };
			break;
		case 'binary':
			encoded = { bytes: body.raw, type: 'application/octet-stream' };
			break;
	}
	return { bytes: encoded.bytes, type: body.contentType ?? encoded.type };
}

/** The Cookie header of a request: its generated cookies, and the valid CSRF cookie when asked. */
export function cookieHeader(request: HostileRequest, csrf: CsrfPair): string {
	return toHeaderValue([request.withCsrf ? csrf.cookie : '', request.cookies].filter(Boolean).join('; '), 100_000);
}

/** True when the request carries the one valid credentials pair with a valid CSRF token to a credentials route. */
export function carriesValidCredentials(request: HostileRequest): boolean {
	const { fields, kind } = request.body;
	const route = request.target.split('?')[0];
	const credentialRoute = route === `${BASE}/callback/credentials` || route === `${BASE}/signin/credentials`;
	return request.withCsrf && request.method === 'POST' && credentialRoute && ['form', 'multipart', 'json'].includes(kind) && fields.username === 'ada' && fields.password === 'lovelace';
}

/** An answer as the invariants read it. */
export interface Answer {
	status: number;
	contentType: string;
	location: string | null;
	setCookies: string[];
	body: string;
}

/** True when a Set-Cookie line sets a session cookie (or a chunk of one) to a value. */
export function isSessionCookie(line: string): boolean {
	return /^(__Secure-)?kitgate\.session-token(\.\d+)?=[^;]+/.test(line) && !/max-age=0/i.test(line);
}

/**
 * The invariants: no 5xx; a session cookie only for valid credentials; no `<kgx` (reflected
 * unescaped input) in HTML; redirects stay on a host the request named; JSON answers parse.
 */
export function expectSafeAnswer(request: HostileRequest, answer: Answer, hosts: string[]): void {
	const context = `${request.method} ${request.target.slice(0, 200)}`;
	expect(answer.status, `${context}: status`).toBeLessThan(500);
	if (!carriesValidCredentials(request)) {
		expect(answer.setCookies.filter(isSessionCookie), `${context}: session without credentials`).toEqual([]);
	}
	if (answer.contentType.includes('text/html')) {
		expect(answer.body.includes(UNESCAPED), `${context}: unescaped input in HTML`).toBe(false);
	}
	if (answer.location) {
		const target = new URL(answer.location, FUZZ_ORIGIN);
		expect(hosts, `${context}: redirect to ${target.host}`).toContain(target.host);
		expect(['http:', 'https:'], `${context}: redirect scheme`).toContain(target.protocol);
	}
	if (answer.contentType.includes('application/json') && answer.body) {
		expect(() => JSON.parse(answer.body), `${context}: JSON body`).not.toThrow();
	}
}

/** Hosts a redirect may go to: the origin's, and whatever Host / X-Forwarded-Host the request gave (trustHost). */
export function allowedHosts(request: HostileRequest, origin = FUZZ_ORIGIN): string[] {
	const hosts = [new URL(origin).host];
	for (const [name, value] of request.headers) {
		if (name !== 'host' && name !== 'x-forwarded-host') continue;
		const first = value.split(',')[0].trim();
		try {
			hosts.push(new URL(`http://${first}`).host);
		} catch {
			// a malformed host is refused by the engine before it builds any URL
		}
	}
	return hosts;
}

/** What the capturing email sender received. */
export const sentMail: SendVerificationRequestParams[] = [];

/**
 * The fuzzed configuration: credentials (ada/lovelace), an OIDC provider whose issuer is a closed
 * local port, an email provider with a capturing sender, passkeys, the memory adapter and JWT
 * sessions. Failures answer at once (`minFailureMs: 0`); rate limits stay on.
 */
export function fuzzConfig(closedPort: number, overrides: Partial<AuthConfig> = {}): AuthConfig {
	const email: EmailConfig = {
		id: 'email',
		name: 'Email',
		type: 'email',
		sendVerificationRequest: (params) => void sentMail.push(params)
	};
	return memoryJwtConfig({
		rateLimit: { store: MemoryRateLimitStore() },
		logger: { error: () => {}, warn: () => {}, debug: () => {} },
		providers: [
			Credentials({
				minFailureMs: 0,
				credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
				authorize: ({ username, password }) => (username === 'ada' && password === 'lovelace' ? { id: 'u-ada', name: 'Ada', email: 'ada@example.com' } : null)
			}),
			{ id: 'oidc', name: 'Closed IdP', type: 'oidc', issuer: `http://127.0.0.1:${closedPort}`, clientId: 'kitgate', clientSecret: 'secret', timeout: 1000 },
			email,
			Passkey()
		],
		...overrides
	});
}

/** How many runs a fuzz property makes: `FUZZ_RUNS` overrides. */
export function fuzzRuns(fallback: number): number {
	const fromEnv = Number(process.env.FUZZ_RUNS);
	return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : fallback;
}

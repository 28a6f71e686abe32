import { describe, test, expect } from 'vitest';
import { serialize } from 'cookie';
import fc from 'fast-check';
import {
	CHUNK_SIZE,
	chunkNames,
	clearChunkedCookie,
	defaultCookies,
	expiredCookie,
	parseCookies,
	readChunkedCookie,
	serializeCookie,
	writeChunkedCookie,
	type OutgoingCookie
} from './cookies.js';
import type { CookieOption } from '../types.js';

/** A deterministic base64url-like value, like a JWE, of `length` characters. */
function tokenLike(length: number): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
	let value = '';
	for (let index = 0; index < length; index++) value += alphabet[(index * 7 + (index >> 6)) % alphabet.length];
	return value;
}

/** The cookies a browser would hold after applying `outgoing` on top of `before`. */
function applyCookies(before: Record<string, string>, outgoing: OutgoingCookie[]): Record<string, string> {
	const after = { ...before };
	for (const cookie of outgoing) {
		if (cookie.options.maxAge === 0) delete after[cookie.name];
		else after[cookie.name] = cookie.value;
	}
	return after;
}

const sessionOption = (): CookieOption => defaultCookies(true).sessionToken;

describe('defaultCookies', () => {
	test('secure names carry __Secure-, the CSRF cookie __Host-', () => {
		const cookies = defaultCookies(true);
		expect(cookies.sessionToken.name).toBe('__Secure-kitgate.session-token');
		expect(cookies.callbackUrl.name).toBe('__Secure-kitgate.callback-url');
		expect(cookies.pkceCodeVerifier.name).toBe('__Secure-kitgate.pkce.code_verifier');
		expect(cookies.state.name).toBe('__Secure-kitgate.state');
		expect(cookies.nonce.name).toBe('__Secure-kitgate.nonce');
		expect(cookies.webauthnChallenge.name).toBe('__Secure-kitgate.challenge');
		expect(cookies.csrfToken.name).toBe('__Host-kitgate.csrf-token');
		for (const option of Object.values(cookies)) expect(option.options.secure).toBe(true);
	});

	test('the __Host- CSRF cookie has path "/" and no domain', () => {
		const { csrfToken } = defaultCookies(true);
		expect(csrfToken.options.path).toBe('/');
		expect(csrfToken.options.domain).toBeUndefined();
		const header = serializeCookie({ name: csrfToken.name, value: 'v', options: csrfToken.options });
		expect(header).toContain('Path=/');
		expect(header).toContain('Secure');
		expect(header.toLowerCase()).not.toContain('domain=');
	});

	test('insecure names have no prefix and no Secure flag', () => {
		const cookies = defaultCookies(false);
		expect(cookies.sessionToken.name).toBe('kitgate.session-token');
		expect(cookies.csrfToken.name).toBe('kitgate.csrf-token');
		for (const option of Object.values(cookies)) {
			expect(option.name.startsWith('__')).toBe(false);
			expect(option.options.secure).toBe(false);
		}
		const header = serializeCookie({ name: cookies.sessionToken.name, value: 'v', options: cookies.sessionToken.options });
		expect(header).not.toContain('Secure');
	});

	test('every cookie is httpOnly, SameSite=Lax, Path=/ in its Set-Cookie header', () => {
		for (const secure of [true, false]) {
			for (const option of Object.values(defaultCookies(secure))) {
				const header = serializeCookie({ name: option.name, value: 'value', options: option.options });
				expect(header.startsWith(`${option.name}=value`)).toBe(true);
				expect(header).toContain('HttpOnly');
				expect(header).toContain('SameSite=Lax');
				expect(header).toContain('Path=/');
			}
		}
	});

	test('short-lived cookies have a max age, the session cookie none by default', () => {
		const cookies = defaultCookies(true);
		expect(cookies.state.options.maxAge).toBe(900);
		expect(cookies.pkceCodeVerifier.options.maxAge).toBe(900);
		expect(cookies.nonce.options.maxAge).toBe(900);
		expect(cookies.webauthnChallenge.options.maxAge).toBe(300);
		expect(cookies.sessionToken.options.maxAge).toBeUndefined();
	});
});

describe('serializeCookie and expiredCookie', () => {
	test('an expired cookie has Max-Age=0 and an epoch Expires', () => {
		const header = serializeCookie(expiredCookie('kitgate.state', defaultCookies(false).state.options));
		expect(header.startsWith('kitgate.state=;')).toBe(true);
		expect(header).toContain('Max-Age=0');
		expect(header).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
	});

	test('a missing path defaults to "/"', () => {
		expect(serializeCookie({ name: 'a', value: 'b', options: {} })).toContain('Path=/');
	});

	test('the value is percent-encoded', () => {
		expect(serializeCookie({ name: 'a', value: 'x y;z', options: {} })).toContain('a=x%20y%3Bz');
	});

	test('every line is the one the cookie package writes for the same cookie (its parts are reused per name and attributes)', () => {
		const attributes = fc.record(
			{
				httpOnly: fc.boolean(),
				secure: fc.boolean(),
				sameSite: fc.constantFrom('lax' as const, 'strict' as const, 'none' as const),
				path: fc.constantFrom('/', '/auth', ''),
				domain: fc.constantFrom('example.com', '.shop.example'),
				maxAge: fc.integer({ min: -1, max: 10 ** 9 }),
				expires: fc.date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true })
			},
			{ requiredKeys: [] }
		);
		const name = fc.constantFrom('kitgate.csrf-token', '__Host-kitgate.csrf-token', '__Secure-kitgate.session-token.0', 'a');
		fc.assert(
			fc.property(name, fc.string({ unit: 'binary', maxLength: 40 }), attributes, (cookieName, value, options) => {
				expect(serializeCookie({ name: cookieName, value, options })).toBe(serialize(cookieName, value, { ...options, path: options.path ?? '/' }));
			}),
			{ numRuns: 500 }
		);
	});

	test('bad names and attributes are refused as the cookie package refuses them', () => {
		expect(() => serializeCookie({ name: 'a b', value: 'x', options: {} })).toThrow(TypeError);
		expect(() => serializeCookie({ name: 'a', value: 'x', options: { maxAge: 1.5 } })).toThrow(TypeError);
		expect(() => serializeCookie({ name: 'a', value: 'x', options: { expires: new Date(Number.NaN) } })).toThrow(TypeError);
		expect(() => serializeCookie({ name: 'a', value: 'x', options: { domain: 'bad domain' } })).toThrow(TypeError);
	});
});

describe('parseCookies', () => {
	test('reads ordinary pairs and decodes values', () => {
		expect(parseCookies('a=1; b=x%20y')).toEqual({ a: '1', b: 'x y' });
	});

	test('is tolerant of garbage', () => {
		let parsed: Record<string, string> = {};
		expect(() => (parsed = parseCookies('a=b; ;=;%%%; c'))).not.toThrow();
		expect(parsed.a).toBe('b');
		expect(parsed.c).toBeUndefined();
		expect(parsed['%%%']).toBeUndefined();
	});

	test('empty, null and undefined headers give an empty map', () => {
		expect(parseCookies('')).toEqual({});
		expect(parseCookies(null)).toEqual({});
		expect(parseCookies(undefined)).toEqual({});
	});

	test('a bad percent-encoding is kept as it is rather than throwing', () => {
		expect(parseCookies('a=%E0%A4%A; b=ok')).toEqual({ a: '%E0%A4%A', b: 'ok' });
	});
});

describe('chunked cookies', () => {
	test('a value of CHUNK_SIZE or less is one cookie under the plain name', () => {
		const option = sessionOption();
		const value = tokenLike(CHUNK_SIZE);
		const out = writeChunkedCookie({}, option, value);
		expect(out).toHaveLength(1);
		expect(out[0]).toEqual({ name: option.name, value, options: option.options });
		expect(readChunkedCookie(applyCookies({}, out), option.name)).toBe(value);
	});

	test('a 10 000-character value is split into name.0..name.N, each under 4096 bytes', () => {
		const option = sessionOption();
		const value = tokenLike(10_000);
		const out = writeChunkedCookie({}, option, value);
		const expectedChunks = Math.ceil(10_000 / CHUNK_SIZE);
		expect(expectedChunks).toBeGreaterThan(1);
		expect(out.map((cookie) => cookie.name)).toEqual(
			Array.from({ length: expectedChunks }, (_, index) => `${option.name}.${index}`)
		);
		for (const cookie of out) {
			expect(cookie.value.length).toBeLessThanOrEqual(CHUNK_SIZE);
			const withExpiry = { ...cookie, options: { ...cookie.options, expires: new Date('2030-01-01T00:00:00Z') } };
			expect(Buffer.byteLength(serializeCookie(withExpiry))).toBeLessThan(4096);
		}
		const jar = applyCookies({}, out);
		expect(jar[option.name]).toBeUndefined();
		expect(readChunkedCookie(jar, option.name)).toBe(value);
	});

	test('a value one byte over CHUNK_SIZE becomes two chunks', () => {
		const option = sessionOption();
		const value = tokenLike(CHUNK_SIZE + 1);
		const out = writeChunkedCookie({}, option, value);
		expect(out.map((cookie) => cookie.value.length)).toEqual([CHUNK_SIZE, 1]);
		expect(readChunkedCookie(applyCookies({}, out), option.name)).toBe(value);
	});

	test('a gap in the chunk numbering reads as absent', () => {
		expect(readChunkedCookie({ 'n.0': 'aa', 'n.2': 'cc' }, 'n')).toBeUndefined();
		expect(readChunkedCookie({ 'n.0': 'aa', 'n.1': 'bb', 'n.3': 'dd' }, 'n')).toBeUndefined();
		expect(readChunkedCookie({ 'n.0': 'aa', 'n.1': 'bb' }, 'n')).toBe('aabb');
	});

	test('a missing name.0 reads as absent', () => {
		expect(readChunkedCookie({ 'n.1': 'bb', 'n.2': 'cc' }, 'n')).toBeUndefined();
		expect(readChunkedCookie({}, 'n')).toBeUndefined();
		expect(readChunkedCookie({ other: 'x' }, 'n')).toBeUndefined();
	});

	test('the plain name wins over chunks', () => {
		expect(readChunkedCookie({ n: 'plain', 'n.0': 'chunk' }, 'n')).toBe('plain');
	});

	test('an empty plain value is returned as an empty string, not absent', () => {
		expect(readChunkedCookie({ n: '' }, 'n')).toBe('');
	});

	test('ten chunks are read, more than ten read as absent', () => {
		const ten = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`n.${index}`, String(index)]));
		expect(readChunkedCookie(ten, 'n')).toBe('0123456789');
		expect(readChunkedCookie({ ...ten, 'n.10': 'x' }, 'n')).toBeUndefined();
	});

	test('chunkNames lists the plain name and numbered chunks only', () => {
		const names = chunkNames({ n: '1', 'n.0': '2', 'n.12': '3', 'n.x': '4', 'n.': '5', 'n.1a': '6', 'nn.0': '7', other: '8' }, 'n');
		expect(names.sort()).toEqual(['n', 'n.0', 'n.12']);
	});

	test('writing a shorter value clears the stale chunks of a longer one', () => {
		const option = sessionOption();
		const long = writeChunkedCookie({}, option, tokenLike(10_000));
		const before = applyCookies({}, long);
		expect(Object.keys(before)).toHaveLength(3);

		const short = tokenLike(100);
		const out = writeChunkedCookie(before, option, short);
		const live = out.filter((cookie) => cookie.options.maxAge !== 0);
		const cleared = out.filter((cookie) => cookie.options.maxAge === 0);
		expect(live).toEqual([{ name: option.name, value: short, options: option.options }]);
		expect(cleared.map((cookie) => cookie.name).sort()).toEqual([`${option.name}.0`, `${option.name}.1`, `${option.name}.2`]);
		for (const cookie of cleared) {
			expect(cookie.value).toBe('');
			expect(serializeCookie(cookie)).toContain('Max-Age=0');
		}
		const after = applyCookies(before, out);
		expect(after).toEqual({ [option.name]: short });
		expect(readChunkedCookie(after, option.name)).toBe(short);
	});

	test('writing fewer chunks clears only the leftover chunks', () => {
		const option = sessionOption();
		const before = applyCookies({}, writeChunkedCookie({}, option, tokenLike(3 * CHUNK_SIZE)));
		const value = tokenLike(CHUNK_SIZE + 10);
		const out = writeChunkedCookie(before, option, value);
		expect(out.filter((c) => c.options.maxAge === 0).map((c) => c.name)).toEqual([`${option.name}.2`]);
		expect(readChunkedCookie(applyCookies(before, out), option.name)).toBe(value);
	});

	test('writing a chunked value clears a previous plain cookie', () => {
		const option = sessionOption();
		const before = { [option.name]: 'old' };
		const value = tokenLike(10_000);
		const out = writeChunkedCookie(before, option, value);
		expect(out.some((c) => c.name === option.name && c.options.maxAge === 0)).toBe(true);
		const after = applyCookies(before, out);
		expect(after[option.name]).toBeUndefined();
		expect(readChunkedCookie(after, option.name)).toBe(value);
	});

	test('rewriting the same value clears nothing', () => {
		const option = sessionOption();
		const value = tokenLike(10_000);
		const before = applyCookies({}, writeChunkedCookie({}, option, value));
		const out = writeChunkedCookie(before, option, value);
		expect(out.every((cookie) => cookie.options.maxAge !== 0)).toBe(true);
	});

	test('clearChunkedCookie expires every chunk present', () => {
		const option = sessionOption();
		const before = { ...applyCookies({}, writeChunkedCookie({}, option, tokenLike(10_000))), unrelated: 'keep' };
		const out = clearChunkedCookie(before, option);
		expect(out.map((c) => c.name).sort()).toEqual([`${option.name}.0`, `${option.name}.1`, `${option.name}.2`]);
		for (const cookie of out) {
			expect(cookie.options.maxAge).toBe(0);
			expect(cookie.options.path).toBe('/');
			expect(cookie.options.secure).toBe(true);
		}
		const after = applyCookies(before, out);
		expect(after).toEqual({ unrelated: 'keep' });
		expect(readChunkedCookie(after, option.name)).toBeUndefined();
	});

	test('clearChunkedCookie expires the plain name when nothing is present', () => {
		const option = sessionOption();
		const out = clearChunkedCookie({}, option);
		expect(out).toHaveLength(1);
		expect(out[0].name).toBe(option.name);
		expect(out[0].options.maxAge).toBe(0);
		expect(out[0].value).toBe('');
	});
});

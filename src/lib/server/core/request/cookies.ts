// kitgate's cookies: default names and attributes, Set-Cookie serialisation, and splitting of
// values too large for one cookie into numbered chunks (`name.0`, `name.1`, …) and back.

import { parse as parseCookieHeader, serialize } from 'cookie';
import type { CookieAttributes, CookieOption, CookiesOptions } from '../types.js';

/** The full set of cookie settings for one request scheme. */
export type CookieSet = CookiesOptions;

/** A cookie to set (or clear, with `maxAge: 0`) on the response. */
export interface OutgoingCookie {
	name: string;
	value: string;
	options: CookieAttributes;
}

/** Largest Set-Cookie header browsers accept for one cookie, name and attributes included. */
const MAX_COOKIE_BYTES = 4096;
/** Room kept for the name, `.N` suffix and attributes of a chunk. */
const CHUNK_OVERHEAD = 200;
/** Bytes of value per chunk. */
export const CHUNK_SIZE = MAX_COOKIE_BYTES - CHUNK_OVERHEAD;
/** A value split into more chunks than this is refused rather than flooding the Cookie header. */
export const MAX_CHUNKS = 10;

/**
 * Default cookie names and attributes. Over HTTPS the names carry `__Secure-` (or `__Host-`
 * for the CSRF cookie, which must never be sent to another host or path).
 */
export function defaultCookies(secure: boolean): CookieSet {
	const prefix = secure ? '__Secure-' : '';
	const base: CookieAttributes = { httpOnly: true, sameSite: 'lax', path: '/', secure };
	const shortLived: CookieAttributes = { ...base, maxAge: 15 * 60 };
	const named = (name: string, options: CookieAttributes = base): CookieOption => ({
		name: `${prefix}kitgate.${name}`,
		options
	});
	return {
		sessionToken: named('session-token'),
		callbackUrl: named('callback-url'),
		csrfToken: { name: `${secure ? '__Host-' : ''}kitgate.csrf-token`, options: base },
		pkceCodeVerifier: named('pkce.code_verifier', shortLived),
		state: named('state', shortLived),
		nonce: named('nonce', shortLived),
		webauthnChallenge: named('challenge', { ...base, maxAge: 5 * 60 }),
		sessionCache: named('session-cache')
	};
}

/** Parses a Cookie header into a name → value map; malformed pairs are dropped, never thrown. */
export function parseCookies(header: string | null | undefined): Record<string, string> {
	if (!header) return {};
	try {
		// an object without prototype, whose values are all strings (the package sets only those):
		// a cookie named `__proto__` or `constructor` is a cookie like any other
		return parseCookieHeader(header) as Record<string, string>;
	} catch {
		return {};
	}
}

/**
 * The fixed parts of a Set-Cookie line for one name and set of attributes, as the `cookie` package
 * writes and validates them: `head` goes between the value (and Max-Age) and Expires, `tail` after.
 */
interface CookieLineParts {
	head: string;
	tail: string;
}
const MAX_LINE_PARTS = 256;
const lineParts = new Map<string, CookieLineParts>();

/** The same parts by options object and name, for the config's own cookie options (no key string built). */
const partsByOptions = new WeakMap<CookieAttributes, { name: string; parts: CookieLineParts }>();

function cookieLineParts(name: string, options: CookieAttributes): CookieLineParts {
	// options with an expiry are made per response: looked up by value, never kept by object
	if (options.expires !== undefined || options.maxAge !== undefined) return cookieLinePartsByValue(name, options);
	const known = partsByOptions.get(options);
	if (known !== undefined && known.name === name) return known.parts;
	const parts = cookieLinePartsByValue(name, options);
	partsByOptions.set(options, { name, parts });
	return parts;
}

function cookieLinePartsByValue(name: string, options: CookieAttributes): CookieLineParts {
	const { domain, path = '/', httpOnly, secure, sameSite } = options;
	const key = `${name}\u0000${domain ?? ''}\u0000${path}\u0000${httpOnly ? 1 : 0}${secure ? 1 : 0}\u0000${sameSite ?? ''}`;
	let parts = lineParts.get(key);
	if (!parts) {
		// the package validates the name and attributes (and throws on bad ones) and fixes their order
		const line = serialize(name, '', { domain, path, httpOnly, secure, sameSite });
		const head = `${domain ? `; Domain=${domain}` : ''}${path ? `; Path=${path}` : ''}`;
		const start = name.length + 1;
		if (line.slice(start, start + head.length) !== head) throw new TypeError(`Cookie attributes of ${name} serialise unexpectedly.`);
		parts = { head, tail: line.slice(start + head.length) };
		if (lineParts.size >= MAX_LINE_PARTS) lineParts.clear();
		lineParts.set(key, parts);
	}
	return parts;
}

/** Characters `encodeURIComponent` leaves as they are and tokens are made of (base64url, hex, JWE dots). */
const UNRESERVED = /^[\w.~-]*$/;

/** `encodeURIComponent(value)`, without copying a value that has nothing to encode (a JWE is long). */
function encodeCookieValue(value: string): string {
	return UNRESERVED.test(value) ? value : encodeURIComponent(value);
}

/**
 * Serialises one outgoing cookie to a Set-Cookie header value: the same line as the `cookie`
 * package's `serialize` (which builds and checks the fixed parts once per name and attributes).
 */
export function serializeCookie(cookie: OutgoingCookie): string {
	const { options } = cookie;
	const { head, tail } = cookieLineParts(cookie.name, options);
	let line = `${cookie.name}=${cookie.value ? encodeCookieValue(cookie.value) : ''}`;
	if (options.maxAge !== undefined) {
		if (!Number.isInteger(options.maxAge)) throw new TypeError(`option maxAge is invalid: ${options.maxAge}`);
		line += `; Max-Age=${options.maxAge}`;
	}
	line += head;
	if (options.expires) {
		if (!(options.expires instanceof Date) || !Number.isFinite(options.expires.valueOf())) throw new TypeError(`option expires is invalid: ${options.expires}`);
		line += `; Expires=${options.expires.toUTCString()}`;
	}
	return line + tail;
}

/** A cookie that removes `name` from the browser. */
export function expiredCookie(name: string, options: CookieAttributes): OutgoingCookie {
	return { name, value: '', options: { ...options, maxAge: 0, expires: new Date(0) } };
}

/**
 * Reads a possibly chunked cookie value: `name` itself, or `name.0`…`name.N` joined in order.
 * A gap in the numbering, or too many chunks, reads as absent.
 */
export function readChunkedCookie(cookies: Record<string, string>, name: string): string | undefined {
	if (cookies[name] !== undefined) return cookies[name];
	const parts: string[] = [];
	for (let index = 0; index <= MAX_CHUNKS; index++) {
		const part = cookies[`${name}.${index}`];
		if (part === undefined) break;
		parts.push(part);
	}
	if (parts.length === 0 || parts.length > MAX_CHUNKS) return undefined;
	// a chunk beyond the contiguous run means the set is broken (or forged)
	if (chunkNames(cookies, name).length !== parts.length) return undefined;
	return parts.join('');
}

/** Names of every cookie that belongs to the chunked cookie `name` in the request. */
export function chunkNames(cookies: Record<string, string>, name: string): string[] {
	const prefix = `${name}.`;
	const names: string[] = [];
	for (const key of Object.keys(cookies)) {
		if (key === name || (key.startsWith(prefix) && CHUNK_INDEX.test(key.slice(prefix.length)))) names.push(key);
	}
	return names;
}

const CHUNK_INDEX = /^\d+$/;

/**
 * Cookies that store `value` under `name`, split into chunks when it is too large, and that
 * clear chunks from an earlier, longer value.
 */
export function writeChunkedCookie(
	cookies: Record<string, string>,
	option: CookieOption,
	value: string
): OutgoingCookie[] {
	const out: OutgoingCookie[] = [];
	const written = new Set<string>();
	if (value.length <= CHUNK_SIZE) {
		out.push({ name: option.name, value, options: option.options });
		written.add(option.name);
	} else {
		for (let index = 0; index * CHUNK_SIZE < value.length; index++) {
			const name = `${option.name}.${index}`;
			out.push({ name, value: value.slice(index * CHUNK_SIZE, (index + 1) * CHUNK_SIZE), options: option.options });
			written.add(name);
		}
	}
	for (const stale of chunkNames(cookies, option.name)) {
		if (!written.has(stale)) out.push(expiredCookie(stale, option.options));
	}
	return out;
}

/** Cookies that clear every chunk of `name` present in the request (or the plain name). */
export function clearChunkedCookie(cookies: Record<string, string>, option: CookieOption): OutgoingCookie[] {
	const names = chunkNames(cookies, option.name);
	return (names.length ? names : [option.name]).map((name) => expiredCookie(name, option.options));
}

/**
 * The name Auth.js gives its session cookie for the request's scheme (`__Secure-` over HTTPS, as
 * `useSecureCookies` decides). Only this name is read: an unprefixed cookie on an HTTPS site may
 * have been set over plain HTTP by anyone on the network, and Auth.js never writes `__Host-` ones.
 *
 * @example
 * authjsSessionCookieName(true); // "__Secure-authjs.session-token"
 */
export function authjsSessionCookieName(secure: boolean): string {
	return secure ? '__Secure-authjs.session-token' : 'authjs.session-token';
}

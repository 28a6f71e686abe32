// Test helper: the server side of OAuth 1.0a signing (RFC 5849) for the test servers
// (oauth1-server.ts, attacks/oauth1-sign-in.test.ts). It is written apart from kitgate's signer,
// with its own byte-by-byte RFC 3986 encoder, so a signature kitgate gets wrong does not check out.

import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * RFC 3986 percent-encoding byte by byte (RFC 5849 §3.6): unreserved characters stay, every other
 * byte is %XX.
 *
 * @example
 * rfc3986('a b+é'); // 'a%20b%2B%C3%A9'
 */
function rfc3986(value: string): string {
	let out = '';
	for (const byte of Buffer.from(value, 'utf8')) {
		const char = String.fromCharCode(byte);
		out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
	}
	return out;
}

/**
 * Whether two strings are the same bytes, compared in constant time.
 *
 * @example
 * sameText(expectedSignature, oauth.oauth_signature);
 */
export function sameText(a: string, b: string): boolean {
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * `OAuth a="b", c="d"` → `{ a: 'b', c: 'd' }` (names and values percent-decoded); undefined when
 * the header is not OAuth.
 *
 * @example
 * const oauth = parseOAuthHeader(req.headers.authorization);
 */
export function parseOAuthHeader(header: string | undefined): Record<string, string> | undefined {
	if (!header || !/^OAuth\s/i.test(header)) return undefined;
	const params: Record<string, string> = {};
	for (const match of header.slice(6).matchAll(/([A-Za-z0-9_%.~-]+)\s*=\s*"([^"]*)"/g)) params[decodeURIComponent(match[1])] = decodeURIComponent(match[2]);
	return params;
}

/**
 * The HMAC-SHA1 signature (base64) a request to `url` with the `oauth` parameters of its
 * Authorization header should carry (RFC 5849 §3.4): the query's, the form body's (`bodyParams`)
 * and the `oauth_*` parameters (less `oauth_signature` and `realm`), encoded and sorted by bytes,
 * and the base string signed with the encoded secrets.
 *
 * @example
 * const expected = hmacSha1Signature('POST', url, oauth, consumerSecret, tokenSecret);
 * const valid = sameText(expected, oauth.oauth_signature);
 */
export function hmacSha1Signature(
	method: string,
	url: URL,
	oauth: Record<string, string>,
	consumerSecret: string,
	tokenSecret: string,
	bodyParams: Iterable<[string, string]> = []
): string {
	const params: [string, string][] = [...url.searchParams, ...bodyParams];
	for (const [name, value] of Object.entries(oauth)) if (name !== 'oauth_signature' && name !== 'realm') params.push([name, value]);
	const compare = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
	const normalized = params
		.map(([name, value]) => [rfc3986(name), rfc3986(value)] as const)
		.sort(([an, av], [bn, bv]) => compare(an, bn) || compare(av, bv))
		.map(([name, value]) => `${name}=${value}`)
		.join('&');
	const base = `${method.toUpperCase()}&${rfc3986(`${url.protocol}//${url.host}${url.pathname}`)}&${rfc3986(normalized)}`;
	return createHmac('sha1', `${rfc3986(consumerSecret)}&${rfc3986(tokenSecret)}`).update(base).digest('base64');
}

// OAuth 1.0a request signing (RFC 5849 §3): percent-encoding, the signature base string,
// HMAC-SHA1 with `node:crypto`, and the `Authorization: OAuth …` header. Pure functions.

import { hmac } from '../../crypto/hash.js';
import { randomToken } from '../../crypto/random.js';

/** One request parameter; names may repeat, so parameters are pairs, not a map. */
export type ParameterPair = readonly [name: string, value: string];

/**
 * Percent-encodes per RFC 5849 §3.6: every byte of the UTF-8 value except the unreserved
 * characters `A-Z a-z 0-9 - . _ ~` becomes `%XX` with upper-case hex.
 *
 * @example
 * percentEncode("Ladies + Gentlemen") // "Ladies%20%2B%20Gentlemen"
 */
export function percentEncode(value: string): string {
	// encodeURIComponent leaves ! ' ( ) * unescaped; the RFC does not
	return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The base string URI (RFC 5849 §3.4.1.2): lower-case scheme and host, the port only when it is
 * not the scheme's default, the path, and no query or fragment.
 *
 * @example
 * baseStringUri("HTTP://EXAMPLE.COM:80/r%20v/X?id=123") // "http://example.com/r%20v/X"
 */
export function baseStringUri(url: string | URL): string {
	const parsed = new URL(url);
	// URL lower-cases scheme and host and drops the default port already
	return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/**
 * Parameter normalisation (RFC 5849 §3.4.1.3.2): encode names and values, sort by encoded name
 * then encoded value (byte order), join as `name=value` with `&`.
 *
 * @example
 * normalizeParameters([["b", "2"], ["a", "x y"], ["a", "1"]]) // "a=1&a=x%20y&b=2"
 */
export function normalizeParameters(params: readonly ParameterPair[]): string {
	return params
		.map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
		.sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
		.map(([name, value]) => `${name}=${value}`)
		.join('&');
}

/**
 * The signature base string (RFC 5849 §3.4.1): `METHOD&enc(base URI)&enc(normalized parameters)`.
 * `params` are the protocol parameters (without `oauth_signature` and `realm`) and the body's
 * form parameters; the query parameters of `url` are added here.
 *
 * @example
 * signatureBaseString("GET", "http://photos.example.net/photos?size=original", [["oauth_nonce", "abc"]])
 */
export function signatureBaseString(method: string, url: string | URL, params: readonly ParameterPair[]): string {
	const query = [...new URL(url).searchParams] as ParameterPair[];
	const all = [...query, ...params.filter(([name]) => name !== 'oauth_signature' && name !== 'realm')];
	return [method.toUpperCase(), percentEncode(baseStringUri(url)), percentEncode(normalizeParameters(all))].join('&');
}

/**
 * HMAC-SHA1 signature (RFC 5849 §3.4.2), base64: the key is `enc(consumer secret)&enc(token secret)`.
 *
 * @example
 * hmacSha1Signature(baseString, "kd94hf93k423kf44", "pfkkdhi9sl3r4s00")
 */
export function hmacSha1Signature(baseString: string, consumerSecret: string, tokenSecret = ''): string {
	const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
	return btoa(String.fromCharCode(...hmac('sha1', key, baseString)));
}

/**
 * The `Authorization` header value (RFC 5849 §3.5.1): `OAuth name="value", …`, names and values
 * percent-encoded, `realm` first when given.
 *
 * @example
 * authorizationHeader({ oauth_token: "a b" }, "Photos") // 'OAuth realm="Photos", oauth_token="a%20b"'
 */
export function authorizationHeader(protocolParams: Record<string, string>, realm?: string): string {
	const parts = Object.entries(protocolParams).map(([name, value]) => `${percentEncode(name)}="${percentEncode(value)}"`);
	if (realm !== undefined) parts.unshift(`realm="${realm.replace(/["\\]/g, '')}"`);
	return `OAuth ${parts.join(', ')}`;
}

/** What `signOAuth1Request` needs. */
export interface OAuth1SigningInput {
	method: string;
	/** The request URL, query included (query parameters are signed). */
	url: string | URL;
	consumerKey: string;
	consumerSecret: string;
	/** The request token or access token, when the request has one. */
	token?: string;
	tokenSecret?: string;
	/** Other protocol parameters sent in the header: `oauth_callback`, `oauth_verifier`. */
	extraProtocolParams?: Record<string, string>;
	/** Form-encoded body parameters (they are signed). */
	bodyParams?: Record<string, string>;
	/** Fixed nonce (tests); default 128 random bits in hex. */
	nonce?: string;
	/** Fixed time in seconds (tests); default now. */
	timestamp?: number;
}

/**
 * Signs a request with HMAC-SHA1: returns the protocol parameters, `oauth_signature` included,
 * and the `Authorization` header that carries them.
 *
 * @example
 * const { authorization } = signOAuth1Request({ method: "POST", url: requestTokenUrl, consumerKey, consumerSecret,
 *   extraProtocolParams: { oauth_callback: "https://app.example.com/auth/callback/twitter" } });
 * await fetch(requestTokenUrl, { method: "POST", headers: { authorization } });
 */
export function signOAuth1Request(input: OAuth1SigningInput): { authorization: string; protocolParams: Record<string, string> } {
	const protocolParams: Record<string, string> = {
		oauth_consumer_key: input.consumerKey,
		oauth_nonce: input.nonce ?? randomToken(16, 'hex'),
		oauth_signature_method: 'HMAC-SHA1',
		oauth_timestamp: String(input.timestamp ?? Math.floor(Date.now() / 1000)),
		oauth_version: '1.0',
		...(input.token !== undefined ? { oauth_token: input.token } : {}),
		...input.extraProtocolParams
	};
	const signed = [...Object.entries(protocolParams), ...Object.entries(input.bodyParams ?? {})] as ParameterPair[];
	const baseString = signatureBaseString(input.method, input.url, signed);
	protocolParams.oauth_signature = hmacSha1Signature(baseString, input.consumerSecret, input.tokenSecret ?? '');
	return { authorization: authorizationHeader(protocolParams), protocolParams };
}

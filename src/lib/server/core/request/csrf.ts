// Double-submit CSRF protection: a random token, and a cookie holding the token with its HMAC
// under the secret (`token.mac`). A POST is accepted only when its body token equals the cookie's token.

import { hex, stringsEqual } from '../crypto/bytes.js';
import { hmac } from '../crypto/hash.js';
import { randomToken } from '../crypto/random.js';

/** The CSRF state of a request: the token to hand out, and the cookie value when a new one is needed. */
export interface CsrfState {
	token: string;
	/** Set when the request had no valid CSRF cookie: store this value in the CSRF cookie. */
	cookieValue?: string;
	/** True when the request's cookie was valid (so a body token can be checked against it). */
	fromCookie: boolean;
}

function tokenMac(secret: string, token: string): string {
	return hex(hmac('sha256', secret, token));
}

/** The token in a CSRF cookie value, when its HMAC is valid under one of the secrets. */
export function tokenFromCsrfCookie(cookieValue: string | undefined, secrets: string[]): string | undefined {
	if (!cookieValue) return undefined;
	// `token.mac`; `token|mac` from versions that wrote a character the cookie must carry encoded
	let separator = cookieValue.indexOf('.');
	if (separator < 0) separator = cookieValue.indexOf('|');
	if (separator <= 0) return undefined;
	const token = cookieValue.slice(0, separator);
	const mac = cookieValue.slice(separator + 1);
	return secrets.some((secret) => stringsEqual(mac, tokenMac(secret, token))) ? token : undefined;
}

/** Reads the CSRF cookie, or makes a new token (signed with the first secret) when it is absent or forged. */
export function csrfState(cookieValue: string | undefined, secrets: string[]): CsrfState {
	const existing = tokenFromCsrfCookie(cookieValue, secrets);
	if (existing) return { token: existing, fromCookie: true };
	const token = randomToken(32, 'hex');
	// a dot, not '|': nothing in the value needs percent-encoding in Set-Cookie or decoding when read
	const value = `${token}.${tokenMac(secrets[0], token)}`;
	return { token, cookieValue: value, fromCookie: false };
}

/** True when the submitted token matches a valid CSRF cookie. */
export function isCsrfValid(state: CsrfState, submitted: unknown): boolean {
	return state.fromCookie && typeof submitted === 'string' && stringsEqual(submitted, state.token);
}

/**
 * True when a form post says it comes from \`origin\` itself: its \`Origin\` header is that origin,
 * or, without one, \`Sec-Fetch-Site\` says same-origin. Pure. Browsers send both on every form post.
 *
 * @example isSameOriginPost(new Headers({ origin: 'https://evil.example' }), 'https://app.example') // false
 */
export function isSameOriginPost(headers: { get(name: string): string | null }, origin: string): boolean {
	const sent = headers.get('origin');
	if (sent !== null) return sent === origin;
	return headers.get('sec-fetch-site') === 'same-origin';
}

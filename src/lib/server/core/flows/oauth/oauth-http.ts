// How kitgate talks HTTP to identity providers: a fetch with a time limit that names the
// endpoint it could not reach, and the rule for when plain http is allowed (loopback only).

import * as oauth from 'oauth4webapi';
import type { OAuthConfig } from '../../types.js';
import { isLoopbackHost } from './endpoint-rules.js';

export { isAllowedEndpoint, isLoopbackHost } from './endpoint-rules.js';

/** Default time limit of one request to an identity provider, in milliseconds. */
export const DEFAULT_IDP_TIMEOUT_MS = 10_000;

/**
 * The time limit of one request to `provider`, in milliseconds: its `timeout`, else the default.
 *
 * @example
 * idpTimeout({ ...provider, timeout: 3_000 }); // 3000
 */
export function idpTimeout(provider: Pick<OAuthConfig, 'timeout'>): number {
	return typeof provider.timeout === 'number' ? provider.timeout : DEFAULT_IDP_TIMEOUT_MS;
}

/**
 * The identity provider did not answer: connection refused, DNS failure or time limit reached.
 *
 * @example
 * new IdpUnreachableError('https://idp.example.com/token', 'ECONNREFUSED');
 */
export class IdpUnreachableError extends Error {
	constructor(url: string, reason: string, options?: ErrorOptions) {
		super(`Could not reach the identity provider at ${safeUrl(url)}: ${reason}`, options);
		this.name = 'IdpUnreachableError';
	}
}

/** Options every oauth4webapi call that talks to the network gets. */
export type IdpHttpOptions = {
	[oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<string, unknown>) => Promise<Response>;
	[oauth.allowInsecureRequests]?: boolean;
};

/**
 * HTTP options for oauth4webapi calls to `endpoint`: a fetch limited to `timeoutMs` whose network
 * failures become `IdpUnreachableError`, and plain http allowed when `endpoint` is on loopback.
 *
 * @example
 * await oauth.discoveryRequest(issuer, idpHttpOptions(issuer.href, 10_000));
 */
export function idpHttpOptions(endpoint: string | undefined, timeoutMs = DEFAULT_IDP_TIMEOUT_MS): IdpHttpOptions {
	const url = endpoint ? URL.parse(endpoint) : null;
	// oauth4webapi refuses plain http; a local IdP (tests, `npm start`) is the one safe exception
	const insecureOk = url?.protocol === 'http:' && isLoopbackHost(url.hostname);
	return {
		[oauth.customFetch]: (target, init) => fetchWithTimeout(target, init as RequestInit, timeoutMs),
		...(insecureOk ? { [oauth.allowInsecureRequests]: true } : {})
	};
}

/**
 * `fetch` that gives up after `timeoutMs` and reports an unreachable host as `IdpUnreachableError`.
 *
 * @example
 * const response = await fetchWithTimeout('https://idp.example.com/jwks', { method: 'GET' }, 10_000);
 */
export async function fetchWithTimeout(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
	const timeout = AbortSignal.timeout(timeoutMs);
	const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
	try {
		return await fetch(url, { ...init, signal });
	} catch (error) {
		if (timeout.aborted) throw new IdpUnreachableError(url, `no answer within ${timeoutMs} ms`, { cause: error });
		const cause = (error as { cause?: { code?: string; message?: string } }).cause;
		throw new IdpUnreachableError(url, cause?.code ?? cause?.message ?? (error as Error).message, { cause: error });
	}
}

/** Largest token answer kitgate reads: they are a few hundred bytes, long JWT access tokens a few KB. */
export const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

/**
 * The body of `response` as text, read at most to `maxBytes`: a longer body (declared or sent)
 * is not read further, its connection is released, and an error naming `what` is thrown.
 *
 * @example
 * const text = await readBoundedText(response, 'the access token response'); // throws past 64 KB
 */
export async function readBoundedText(response: Response, what: string, maxBytes = MAX_TOKEN_ANSWER_BYTES): Promise<string> {
	const tooLarge = () => new Error(`${what} is larger than ${maxBytes} bytes.`);
	if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
		await response.body?.cancel().catch(() => undefined);
		throw tooLarge();
	}
	if (!response.body) return '';
	const reader = response.body.getReader();
	const decoder = new TextDecoder();
	let text = '';
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > maxBytes) {
			// cancelling closes the connection: the rest of the body is never received
			await reader.cancel().catch(() => undefined);
			throw tooLarge();
		}
		text += decoder.decode(value, { stream: true });
	}
	return text + decoder.decode();
}

/**
 * The URL without its query, which may carry codes or tokens: safe to log.
 *
 * @example
 * safeUrl('https://app.example/cb?code=secret'); // 'https://app.example/cb'
 */
export function safeUrl(url: string): string {
	const parsed = URL.parse(url);
	return parsed ? `${parsed.origin}${parsed.pathname}` : '(invalid URL)';
}

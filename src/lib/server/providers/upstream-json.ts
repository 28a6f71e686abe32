// Authenticated JSON requests that built-in providers' userinfo/token handlers make upstream.
// A failed request becomes `OAuthCallbackError` naming the provider and status. Internal.

import { OAuthCallbackError } from '../core/errors.js';
import type { EndpointOption } from '../core/types.js';

/** Options of `requestUpstreamJson`. */
export interface UpstreamRequest {
	/** Provider name for error messages, e.g. "GitHub". */
	provider: string;
	/** What is being fetched, e.g. "user info". */
	what: string;
	method?: 'GET' | 'POST';
	/** Sent as `Authorization: Bearer …` when set. */
	accessToken?: string;
	headers?: Record<string, string>;
	/** A form body (POST). */
	form?: Record<string, string>;
	/** Abort after this many milliseconds (default 10 s). */
	timeoutMs?: number;
	/** Return a JSON body whatever the status, for providers whose errors the caller interprets. */
	allowErrorStatus?: boolean;
}

/** Request timeout: an unreachable provider must not hang a sign-in forever. */
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Fetches `url` and parses its JSON body. A network failure, a non-2xx status or a body that is
 * not JSON throws `OAuthCallbackError` with the upstream answer (truncated) in the message.
 *
 * @example
 * const user = await requestUpstreamJson("https://api.github.com/user", { provider: "GitHub", what: "user", accessToken });
 */
export async function requestUpstreamJson(url: string, options: UpstreamRequest): Promise<unknown> {
	const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
	if (options.accessToken) headers.authorization = `Bearer ${options.accessToken}`;
	let body: string | undefined;
	if (options.form) {
		headers['content-type'] = 'application/x-www-form-urlencoded';
		body = new URLSearchParams(options.form).toString();
	}
	let response: Response;
	try {
		response = await fetch(url, {
			method: options.method ?? (body ? 'POST' : 'GET'),
			headers,
			body,
			signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
		});
	} catch (error) {
		throw new OAuthCallbackError(`${options.provider}: the ${options.what} request to ${url} failed.`, { cause: { err: error } });
	}
	const text = await response.text();
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	if ((!response.ok && !options.allowErrorStatus) || parsed === undefined) {
		throw new OAuthCallbackError(
			`${options.provider}: the ${options.what} request answered ${response.status}: ${text.slice(0, 300)}`
		);
	}
	return parsed;
}

/**
 * The access token of a token set, or an `OAuthCallbackError` naming the provider.
 *
 * @example
 * const accessToken = requireAccessToken(tokens, "GitHub");
 */
export function requireAccessToken(tokens: { access_token?: unknown } | undefined, provider: string): string {
	const token = tokens?.access_token;
	if (typeof token !== 'string' || !token) {
		throw new OAuthCallbackError(`${provider}: the token response has no access_token.`);
	}
	return token;
}

/**
 * The URL of an endpoint option with its `params` added as query parameters, so a request
 * handler honours the user's merged `url` and `params`; `fallback` when the option has no URL.
 *
 * @example
 * endpointUrlWithParams({ url: "https://graph.facebook.com/me", params: { fields: "id,name" } }, "") // "…/me?fields=id%2Cname"
 */
export function endpointUrlWithParams(option: EndpointOption | undefined, fallback: string): string {
	const url = new URL(typeof option === 'string' ? option : (option?.url ?? fallback));
	const params = typeof option === 'object' ? option.params : undefined;
	for (const [name, value] of Object.entries(params ?? {})) if (value !== undefined) url.searchParams.set(name, value);
	return url.href;
}

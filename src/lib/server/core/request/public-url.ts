// Works out the public URL of a request: fixed by AUTH_URL, or taken from Host/X-Forwarded-*
// when the host is trusted. Pure functions, no I/O.

import { InvalidRequest } from '../errors.js';

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function firstValue(header: string | null): string | undefined {
	const value = header?.split(',')[0]?.trim();
	return value || undefined;
}

/** True for a syntactically valid `host[:port]` (no path, userinfo or spaces). */
export function isValidHost(host: string): boolean {
	if (!HOST.test(host)) return false;
	const port = /:(\d+)$/.exec(host)?.[1];
	return port === undefined || Number(port) <= 65535;
}

/**
 * The public URL of `request`. With `authUrl` its origin is used and the Host header ignored;
 * with `requestUrlIsPublic` (the framework built the request URL from its own configuration, as
 * SvelteKit's adapters do) the request URL is used as it is; otherwise, with `trustHost`, the
 * origin comes from X-Forwarded-Proto/X-Forwarded-Host, then Host.
 */
export function publicUrl(
	request: { url: string; parsedUrl?: URL; headers: { get(name: string): string | null } },
	options: { authUrl?: URL; trustHost: boolean; requestUrlIsPublic?: boolean }
): URL {
	const url = request.parsedUrl ?? new URL(request.url);
	const path = `${url.pathname}${url.search}`;
	// the path is appended to the origin, never resolved against it: a path `//evil.example/…`
	// (a raw request can collapse to one) would otherwise name another host
	if (options.authUrl) return new URL(`${options.authUrl.origin}${path}`);
	if (options.requestUrlIsPublic || !options.trustHost) return url;
	const host = firstValue(request.headers.get('x-forwarded-host')) ?? firstValue(request.headers.get('host')) ?? url.host;
	const proto = firstValue(request.headers.get('x-forwarded-proto'))?.toLowerCase();
	if (!isValidHost(host)) throw new InvalidRequest('The Host or X-Forwarded-Host header is not a valid host name.');
	const protocol = proto === 'http' || proto === 'https' ? `${proto}:` : url.protocol;
	// the request URL already names this origin (an integration built it from the same headers)
	if (host === url.host && protocol === url.protocol && !url.hash && !url.username && !url.password) return url;
	try {
		return new URL(`${protocol}//${host}${path}`);
	} catch {
		// e.g. a port above 65535: the pattern accepts it, URL does not
		throw new InvalidRequest('The Host or X-Forwarded-Host header is not a valid host name.');
	}
}

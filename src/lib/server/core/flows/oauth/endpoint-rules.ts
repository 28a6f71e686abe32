// Rules on identity-provider endpoints that configuration checks need at start-up: which URLs
// may be used, and the URL of an endpoint option. Pure, and free of any OAuth library.

import type { EndpointOption } from '../../types.js';

/**
 * True for hosts that never leave the machine: 127.0.0.0/8, ::1 and `localhost` names.
 *
 * @example
 * isLoopbackHost('127.0.0.1'); // true
 */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * True when `url` may be used: https anywhere, plain http only on a loopback host.
 *
 * @example
 * isAllowedEndpoint('http://example.com/token'); // false
 */
export function isAllowedEndpoint(url: string | URL): boolean {
	const parsed = typeof url === 'string' ? URL.parse(url) : url;
	if (!parsed) return false;
	return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname));
}

/**
 * The URL of an endpoint option, if it names one.
 *
 * @example
 * endpointUrl({ url: 'https://a.example/token', params: {} }); // 'https://a.example/token'
 */
export function endpointUrl(option: EndpointOption | undefined): string | undefined {
	return typeof option === 'string' ? option : option?.url;
}

// Redirect rules: the default `redirect` callback allows only same-origin URLs and relative paths.
// Internal; `defaultRedirect` is also what users call from their own callback to keep the rule.

/** True when `url` (absolute or relative) resolves to the origin of `baseUrl`. */
export function isSameOrigin(url: string, baseUrl: string): boolean {
	try {
		const origin = new URL(baseUrl).origin;
		// opaque origins (javascript:, data:, …) all serialise as "null" yet are never the same origin
		return origin !== 'null' && new URL(url, baseUrl).origin === origin;
	} catch {
		return false;
	}
}

/**
 * The default `redirect` callback: same-origin URLs and relative paths are allowed (made
 * absolute); anything else, including `//other.host`, goes to `baseUrl`.
 *
 * @example
 * callbacks: { redirect: ({ url, baseUrl }) => url.startsWith("/admin") ? baseUrl : defaultRedirect({ url, baseUrl }) }
 */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
	if (typeof url === 'string' && isSameOrigin(url, baseUrl)) return new URL(url, baseUrl).href;
	return baseUrl;
}

// Redirect rules: the default `redirect` callback allows only same-origin URLs and relative paths.
// Internal; `defaultRedirect` is also what users call from their own callback to keep the rule.

/** True when `url` (absolute or relative) resolves to the origin of `baseUrl`. */
export function isSameOrigin(url: string, baseUrl: string): boolean {
	return sameOriginHref(url, baseUrl) !== undefined;
}

/** `url` resolved against `baseUrl` when it has the origin of `baseUrl`; undefined otherwise (or unparsable). */
function sameOriginHref(url: string, baseUrl: string): string | undefined {
	try {
		const base = new URL(baseUrl);
		// opaque origins (javascript:, data:, …) all serialise as "null" yet are never the same origin
		if (base.origin === 'null') return undefined;
		// the site itself: what nearly every sign-in without a callback URL asks for
		if (url === baseUrl) return base.href;
		const resolved = new URL(url, base);
		return resolved.origin === base.origin ? resolved.href : undefined;
	} catch {
		return undefined;
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
	return (typeof url === 'string' ? sameOriginHref(url, baseUrl) : undefined) ?? baseUrl;
}

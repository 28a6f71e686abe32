// Where the client helpers send their requests: kitgate's routes on this origin only. A base path
// written as a URL (another origin, `//host`, `/\host`) would send session updates, CSRF tokens and
// credentials there, and show a session that server made up. Internal to kitgate/client.

/** An absolute path: one `/`, then no second `/` or `\` (which browsers read as another host). */
const SAME_ORIGIN_PATH = /^\/(?![/\\])[^\s\\?#]*$/;

/**
 * `basePath` without a trailing slash, or a TypeError when it is not a path on this origin.
 *
 * @example
 * sameOriginBasePath('/app/auth/'); // '/app/auth'
 * sameOriginBasePath('//evil.example/auth'); // throws
 */
export function sameOriginBasePath(basePath: string): string {
	if (!SAME_ORIGIN_PATH.test(basePath)) {
		throw new TypeError(`kitgate: basePath must be a path on this origin, like "/auth" (got ${JSON.stringify(basePath)})`);
	}
	return basePath.replace(/\/+$/, '');
}

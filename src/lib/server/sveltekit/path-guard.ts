// Which request paths a `protect()` prefix covers: pure predicates on path segments, after the
// decoding and dot-segment tricks a router or a proxy might apply, so that no spelling slips past.

/**
 * The segments of `pathname` as a proxy or file server that decodes the whole path could read it:
 * percent-decoded (an encoded `/` or `\` separates too), without empty or `.` segments, `..`
 * applied, lower-cased. `undefined` when the path cannot be decoded (the caller treats it as
 * covered: fail closed).
 *
 * @example
 * pathSegments('//%61dmin/./x/../y/') // ['admin', 'y']
 */
export function pathSegments(pathname: string): string[] | undefined {
	const decoded = decodedOrUndefined(pathname);
	return decoded === undefined ? undefined : withDotSegments(decoded.split(/[/\\]/), true);
}

/**
 * Every way the app, or something in front of it, could read `pathname`, as segments: SvelteKit's
 * (split on the raw `/`, then each segment decoded: `/admin/x%2f..%2f..%2fy` is route `/admin/[id]`),
 * a whole-path decoder's with and without `..` applied, and each without `;parameters`. `undefined`
 * when the path cannot be decoded.
 */
function pathReadings(pathname: string): string[][] | undefined {
	const whole = decodedOrUndefined(pathname);
	const raw = pathname.split('/').map(decodedOrUndefined);
	if (whole === undefined || raw.some((segment) => segment === undefined)) return undefined;
	const split = whole.split(/[/\\]/);
	const readings = [withDotSegments(raw as string[], true), withDotSegments(split, true), withDotSegments(split, false)];
	return [...readings, ...readings.map((segments) => segments.map((segment) => segment.split(';')[0]).filter(Boolean))];
}

function decodedOrUndefined(text: string): string | undefined {
	try {
		return decodeURIComponent(text);
	} catch {
		return undefined;
	}
}

/** `segments` lower-cased, without empty or `.` ones; `..` applied when `climb`, kept as a segment otherwise. */
function withDotSegments(segments: readonly string[], climb: boolean): string[] {
	const kept: string[] = [];
	for (const segment of segments) {
		if (segment === '' || segment === '.') continue;
		if (segment === '..' && climb) kept.pop();
		else kept.push(segment.toLowerCase());
	}
	return kept;
}

/** Whether `segments` is `prefix` or lies under it (`/admin` covers `/admin/x`, not `/administrator`). */
export function startsWithSegments(segments: readonly string[], prefix: readonly string[]): boolean {
	return prefix.length <= segments.length && prefix.every((segment, index) => segments[index] === segment);
}

/**
 * A prefix as given to `protect()`: a path inside the app (without `paths.base`), starting with `/`.
 * Throws for anything else, at configuration time.
 *
 * @example
 * prefixSegments('/admin/') // ['admin']
 */
export function prefixSegments(prefix: string): string[] {
	const segments = typeof prefix === 'string' && prefix.startsWith('/') ? pathSegments(prefix) : undefined;
	if (!segments || /(?:^|\/)\.\.?(?:\/|$)/.test(prefix) || /%/.test(prefix)) {
		throw new TypeError(`kitgate: protect() takes paths inside the app that start with "/" (like "/admin"), without "..", "." or percent-encoding; got ${JSON.stringify(prefix)}.`);
	}
	return segments;
}

/**
 * Whether the request path `pathname` (as the URL has it, `paths.base` included) lies under one of
 * `prefixes` (segments, from `prefixSegments`) in any reading of it (`pathReadings`): the guard
 * fails closed. A path that cannot be decoded is covered.
 *
 * @example
 * isProtectedPath('/app/%61dmin/x', [['admin']], '/app') // true
 * isProtectedPath('/app/administrator', [['admin']], '/app') // false
 */
export function isProtectedPath(pathname: string, prefixes: readonly (readonly string[])[], base = ''): boolean {
	const readings = pathReadings(pathname);
	if (!readings) return true;
	const baseSegments = pathSegments(base) ?? [];
	return readings.some((segments) => {
		// under paths.base the app's own paths follow it; a path outside the base is matched as it is
		const inApp = baseSegments.length > 0 && startsWithSegments(segments, baseSegments) ? segments.slice(baseSegments.length) : segments;
		return prefixes.some((prefix) => startsWithSegments(inApp, prefix));
	});
}

/**
 * Whether the request path `pathname` is one of `pages` (paths the guard leaves open: the sign-in
 * page), spelled as it is or with a trailing slash. No decoding and no dot segments: a spelling
 * that only decodes to the page (`/app/x%2f..%2flogin`) may be routed elsewhere (`/app/[id]`), so
 * an exemption matches narrowly where the guard matches broadly.
 *
 * @example
 * isOpenPage('/login/', ['/login']) // true
 * isOpenPage('/app/x%2f..%2flogin', ['/app/login']) // false
 */
export function isOpenPage(pathname: string, pages: readonly string[]): boolean {
	const path = withoutTrailingSlash(pathname);
	return pages.some((page) => withoutTrailingSlash(page) === path);
}

function withoutTrailingSlash(path: string): string {
	return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

// Which request paths a `protect()` prefix covers: pure predicates on path segments, after the
// decoding and dot-segment tricks a router or a proxy might apply, so that no spelling slips past.

/**
 * The segments of `pathname` as the app could route it: percent-decoded (an encoded `/` or `\`
 * separates too), without empty or `.` segments, `..` applied, lower-cased. `undefined` when the
 * path cannot be decoded (the caller treats it as covered: fail closed).
 *
 * @example
 * pathSegments('//%61dmin/./x/../y/') // ['admin', 'y']
 */
export function pathSegments(pathname: string): string[] | undefined {
	let decoded: string;
	try {
		decoded = decodeURIComponent(pathname);
	} catch {
		return undefined;
	}
	const segments: string[] = [];
	for (const segment of decoded.split(/[/\\]/)) {
		if (segment === '' || segment === '.') continue;
		if (segment === '..') segments.pop();
		else segments.push(segment.toLowerCase());
	}
	return segments;
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
 * `prefixes` (segments, from `prefixSegments`). A path that cannot be decoded is covered.
 *
 * @example
 * isProtectedPath('/app/%61dmin/x', [['admin']], '/app') // true
 * isProtectedPath('/app/administrator', [['admin']], '/app') // false
 */
export function isProtectedPath(pathname: string, prefixes: readonly (readonly string[])[], base = ''): boolean {
	const segments = pathSegments(pathname);
	if (!segments) return true;
	const baseSegments = pathSegments(base) ?? [];
	// under paths.base the app's own paths follow it; a path outside the base is matched as it is
	const inApp = baseSegments.length > 0 && startsWithSegments(segments, baseSegments) ? segments.slice(baseSegments.length) : segments;
	return prefixes.some((prefix) => startsWithSegments(inApp, prefix));
}

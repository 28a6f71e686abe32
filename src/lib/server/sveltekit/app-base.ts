// The app's base path (`paths.base`) on the server, with SvelteKit 2 and 3 alike. Internal to
// `kitgate/sveltekit`.

import * as paths from '$app/paths';
import { getRequestEvent } from '$app/server';

/** SvelteKit 3's `resolve` of `$app/paths` (typed here as its own, not SvelteKit 2's, signature). */
type Resolve = (path: string) => string;

/**
 * The base path as SvelteKit 3 gives it, read once when this module loads: `resolve('')` is the
 * base path and `/`, or (inside a request, when `paths.relative` is on) the same relative to the
 * request's page, which the request's URL makes absolute again. Undefined under SvelteKit 2.
 */
const kit3Base: string | undefined = typeof Reflect.get(paths, 'base') === 'string' ? undefined : absolute((Reflect.get(paths, 'resolve') as unknown as Resolve)(''));

function absolute(resolved: string): string {
	const path = resolved.startsWith('/') ? resolved : new URL(resolved, getRequestEvent().url).pathname;
	return path.replace(/\/$/, '');
}

/**
 * The app's base path, `''` or `/my-base`: `base` of `$app/paths` under SvelteKit 2, which
 * SvelteKit 3 removed (a named import of it fails an app's build there: `"base" is not exported
 * by …/app/paths/index.js`). Read through the module's namespace, so that neither version's build
 * trips on the other's exports.
 *
 * @example const basePath = `${appBase()}/auth`;
 */
export function appBase(): string {
	const base = Reflect.get(paths, 'base');
	return typeof base === 'string' ? base : (kit3Base as string);
}

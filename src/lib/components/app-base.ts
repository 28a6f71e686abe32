// The app's base path for the components, with SvelteKit 2 and 3 alike. Internal. (It ships to the browser.)

import * as paths from '$app/paths';

/**
 * What `base` of `$app/paths` was: `''` or `/my-base` in the browser, relative to the page (`.`,
 * `..`) while the server renders one. SvelteKit 3 removed `base` (a named import of it fails an
 * app's build: `"base" is not exported by …/app/paths/index.js`); its `resolve('')` gives the same
 * with a `/` after it. Read through the module's namespace, so neither version's build trips on
 * the other's exports.
 *
 * @example const action = `${appBase()}/signin`;
 */
export function appBase(): string {
	const base = Reflect.get(paths, 'base');
	return typeof base === 'string' ? base : (Reflect.get(paths, 'resolve') as unknown as (path: string) => string)('').slice(0, -1);
}

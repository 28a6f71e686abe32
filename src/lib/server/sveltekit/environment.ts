// Whether SvelteKit is building the app, read so that the app's own build stays quiet. Internal.

import * as environment from '$app/environment';

/**
 * Whether SvelteKit is building the app (analysing or prerendering it): `building` of
 * `$app/environment`, read through the module's namespace. A plain `import { building }` is, in
 * the server adapter-node bundles, a variable nothing sets, so Rollup writes `false` in its place
 * and leaves SvelteKit's chunk of it empty: "Generated an empty chunk: chunks/internal2.js" in the
 * app's `vite build` (any app that imports `building` gets it). Read this way the chunk is kept.
 *
 * @example if (isBuilding()) return resolve(event);
 */
export function isBuilding(): boolean {
	return Reflect.get(environment, 'building') === true;
}

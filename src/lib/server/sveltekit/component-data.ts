// `kitgateData(event)`: what kitgate's components show, for a SvelteKit load (the root layout's),
// from what kitgate's `handle` registered for the request. Export path: `kitgate/sveltekit`.

import { componentData, type ComponentSource, type KitgateData } from '../core/response/component-data.js';
import { isBuilding } from './environment.js';

export type { ComponentSource } from '../core/response/component-data.js';

/** The source of each request's data, keyed by its `locals` (the same object in `handle` and in every load). */
const sources = new WeakMap<object, () => ComponentSource | Promise<ComponentSource>>();

/** Called by kitgate's `handle` for every request it passes on to the app. */
export function registerComponentSource(locals: object, source: () => ComponentSource | Promise<ComponentSource>): void {
	sources.set(locals, source);
}

/**
 * The configuration's providers (public facts only: id, name, kind, checked style, credentials
 * fields), kitgate's base path, and the request's `callbackUrl` and sign-in `error`, for the
 * components: `<SignIn />` renders every provider from it, `UserButton` links to the account page.
 * Call it in the root layout's server load, beside the session; it makes no request and reads no
 * secret. While prerendering it reads no query (there is none) and still lists the providers of a
 * config object (of a config function too, when that function works without a request's platform).
 *
 * @example
 * // src/routes/+layout.server.ts
 * import { kitgateData } from 'kitgate/sveltekit';
 *
 * export const load = async (event) => ({ session: await event.locals.auth(), kitgate: await kitgateData(event) });
 */
export async function kitgateData(event: { locals: object; url: URL }): Promise<KitgateData> {
	const source = sources.get(event.locals);
	if (!source) {
		throw new Error("kitgate: kitgateData(event) needs kitgate's handle: export it from src/hooks.server.ts (`export { handle } from './auth'`).");
	}
	// a prerendered page has no query (SvelteKit refuses to read it)
	const query = isBuilding() ? {} : { callbackUrl: event.url.searchParams.get('callbackUrl'), error: event.url.searchParams.get('error') };
	return componentData(await source(), query);
}

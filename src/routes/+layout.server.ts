import { kitgateData } from '$lib/server/sveltekit/index.js';
import type { LayoutServerLoad } from './$types.js';

// Exposes the session to every page (authorization itself happens in each page's load), and what
// kitgate's components show: the providers (no secret), the last sign-in error, where to go after.
export const load: LayoutServerLoad = async (event) => ({ session: await event.locals.auth(), kitgate: await kitgateData(event) });

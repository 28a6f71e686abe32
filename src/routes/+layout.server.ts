import type { LayoutServerLoad } from './$types.js';

// Exposes the session to every page (authorization itself happens in each page's load).
export const load: LayoutServerLoad = async (event) => ({ session: await event.locals.auth() });

import { kitgateData } from '$lib/server/sveltekit/index.js';
import { sessionIsAdmin } from '../auth.js';
import type { LayoutServerLoad } from './$types.js';

// Exposes the session to every page (authorization itself happens in each page's load), and what
// kitgate's components show: the providers (no secret), the last sign-in error, where to go after;
// and whether the user is an admin (the nav links the admin page; the page checks again).
export const load: LayoutServerLoad = async (event) => {
	const session = await event.locals.auth();
	return { session, kitgate: await kitgateData(event), isAdmin: await sessionIsAdmin(session) };
};
